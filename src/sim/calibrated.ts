// The simulated world's calibrated constants: the simulator's defaults (src/sim/model-params.ts).
// Written by `npm run calibrate` (scripts/calibrate.mjs; targets and method in docs/calibration.md,
// the last report in docs/calibration-report.md). Do not edit by hand: re-run the calibration.
import type { SimModelParams } from './model-params.ts';

export interface CalibratedWorld {
  /** Values the optimiser fitted to the declared fit targets. */
  fitted: Partial<SimModelParams>;
  /** Values fixed before fitting (not identifiable from the fit targets), with the reason in docs/calibration.md. */
  fixed: Partial<SimModelParams>;
  /** What the fit did (optimiser, seeds, objective, spread across refits); null before the first fit. */
  report: unknown;
}

export const CALIBRATED: CalibratedWorld = {
  "fitted": {
    "competence0": 0.63468,
    "logitScale": 4.5837,
    "partialCredit": 0.83007,
    "etaCompetence": 0.00063205,
    "forgetting": 0.012174,
    "breadth": 0.67698,
    "hiddenNoise": 0.77507
  },
  "fixed": {
    "signalExponent": 0.5,
    "repeatDiscount": 0.25
  },
  "report": {
    "date": "2026-12-01T20:28:25.869Z",
    "dataset": "envscaler-rl",
    "optimiser": "Nelder-Mead on the reflected unit cube",
    "evaluationsPerFit": 110,
    "seedsPerEvaluation": 3,
    "table4RunsPerEvaluation": 24,
    "steps": 200,
    "seedSets": {
      "A": {
        "runs": 10000,
        "t4": 11000
      },
      "B": {
        "runs": 20000,
        "t4": 21000
      }
    },
    "targets": {
      "randomMeanVariance": {
        "target": 0.03208,
        "tolerance": 0.003,
        "fitA": 0.03419,
        "fitB": 0.03553
      },
      "randomMedianVariance": {
        "target": 0.01468,
        "tolerance": 0.003,
        "fitA": 0.01372,
        "fitB": 0.01517
      },
      "randomMedianReward": {
        "target": 0.595,
        "tolerance": 0.03,
        "fitA": 0.5804,
        "fitB": 0.5946
      },
      "randomGain": {
        "target": 2.51,
        "tolerance": 0.5,
        "fitA": 2.194,
        "fitB": 2.411
      },
      "randomShare120": {
        "target": 0.95,
        "tolerance": 0.04,
        "fitA": 0.9542,
        "fitB": 0.9555
      },
      "envShare20": {
        "target": 0.8,
        "tolerance": 0.1,
        "fitA": 0.2766,
        "fitB": 0.286
      },
      "envShare5": {
        "target": 0.45,
        "tolerance": 0.15,
        "fitA": 0.0207,
        "fitB": 0.02227
      },
      "t4HitStep1": {
        "target": 0.572,
        "tolerance": 0.04,
        "fitA": 0.4258,
        "fitB": 0.4349
      }
    },
    "objective": {
      "A": 50.19,
      "B": 47.71
    },
    "spread": {
      "competence0": {
        "A": 0.6347,
        "B": 0.621,
        "relativeSpread": 0.011
      },
      "logitScale": {
        "A": 4.584,
        "B": 4.67,
        "relativeSpread": 0.011
      },
      "partialCredit": {
        "A": 0.8301,
        "B": 0.7795,
        "relativeSpread": 0.051
      },
      "etaCompetence": {
        "A": 0.000632,
        "B": 0.0006459,
        "relativeSpread": 0.0014
      },
      "forgetting": {
        "A": 0.01217,
        "B": 0.01161,
        "relativeSpread": 0.0056
      },
      "breadth": {
        "A": 0.677,
        "B": 0.6638,
        "relativeSpread": 0.013
      },
      "hiddenNoise": {
        "A": 0.7751,
        "B": 0.66,
        "relativeSpread": 0.077
      }
    },
    "seconds": 690
  }
};
