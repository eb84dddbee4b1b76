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
  fitted: {
    competence0: 0.59088,
    logitScale: 5.2364,
    partialCredit: 0.74199,
    etaCompetence: 0.00069556,
    forgetting: 0.060488,
    breadth: 0.35207,
    hiddenNoise: 0.062017,
    repeatDiscount: 0.084622,
    etaFamiliarity: 0.015101,
  },
  fixed: {
    signalExponent: 0.5,
  },
  report: {
    date: '2026-12-02T01:53:18.073Z',
    dataset: 'envscaler-rl',
    optimiser: 'CMA-ES on the reflected unit cube',
    start: 'the last fit A of this world',
    sigma0: 0.15,
    world: 'third',
    evaluationsPerFit: 600,
    seedsPerEvaluation: 3,
    table4RunsPerEvaluation: 24,
    steps: 200,
    seedSets: {
      A: {
        runs: 10000,
        t4: 11000,
      },
      B: {
        runs: 20000,
        t4: 21000,
      },
    },
    targets: {
      randomMeanVariance: {
        target: 0.03208,
        tolerance: 0.003,
        fitA: 0.03489,
        fitB: 0.03524,
      },
      randomMedianVariance: {
        target: 0.01468,
        tolerance: 0.003,
        fitA: 0.01396,
        fitB: 0.01488,
      },
      randomMedianReward: {
        target: 0.595,
        tolerance: 0.03,
        fitA: 0.5978,
        fitB: 0.6003,
      },
      randomGain: {
        target: 2.51,
        tolerance: 0.5,
        fitA: 2.488,
        fitB: 2.29,
      },
      randomShare120: {
        target: 0.95,
        tolerance: 0.04,
        fitA: 0.9637,
        fitB: 0.9447,
      },
      envShare20: {
        target: 0.8,
        tolerance: 0.1,
        fitA: 0.8759,
        fitB: 0.7666,
      },
      envShare5: {
        target: 0.45,
        tolerance: 0.15,
        fitA: 0.3153,
        fitB: 0.1929,
      },
      t4HitStep1: {
        target: 0.572,
        tolerance: 0.04,
        fitA: 0.4727,
        fitB: 0.4766,
      },
    },
    objective: {
      A: 8.611,
      B: 10.1,
    },
    spread: {
      competence0: {
        A: 0.5909,
        B: 0.2185,
        relativeSpread: 0.31,
      },
      logitScale: {
        A: 5.236,
        B: 3.699,
        relativeSpread: 0.19,
      },
      partialCredit: {
        A: 0.742,
        B: 0.7927,
        relativeSpread: 0.051,
      },
      etaCompetence: {
        A: 0.0006956,
        B: 0.001073,
        relativeSpread: 0.038,
      },
      forgetting: {
        A: 0.06049,
        B: 0.05756,
        relativeSpread: 0.0059,
      },
      breadth: {
        A: 0.3521,
        B: 0.5013,
        relativeSpread: 0.15,
      },
      hiddenNoise: {
        A: 0.06202,
        B: 0.2028,
        relativeSpread: 0.094,
      },
      repeatDiscount: {
        A: 0.08462,
        B: 0.06595,
        relativeSpread: 0.0093,
      },
      etaFamiliarity: {
        A: 0.0151,
        B: 0.03559,
        relativeSpread: 0.41,
      },
    },
    seconds: 624.8,
  },
};
