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
    competence0: 0.671,
    logitScale: 4.5645,
    partialCredit: 0.84257,
    etaCompetence: 0.00050456,
    forgetting: 0.03826,
    breadth: 0.50739,
    hiddenNoise: 0.524,
    repeatDiscount: 0.12711,
    etaFamiliarity: 0.012212,
  },
  fixed: {
    signalExponent: 0.5,
  },
  report: {
    date: '2026-12-01T21:16:18.119Z',
    dataset: 'envscaler-rl',
    optimiser: 'Nelder-Mead on the reflected unit cube',
    evaluationsPerFit: 70,
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
        fitA: 0.03549,
        fitB: 0.035,
      },
      randomMedianVariance: {
        target: 0.01468,
        tolerance: 0.003,
        fitA: 0.01667,
        fitB: 0.01535,
      },
      randomMedianReward: {
        target: 0.595,
        tolerance: 0.03,
        fitA: 0.5753,
        fitB: 0.5679,
      },
      randomGain: {
        target: 2.51,
        tolerance: 0.5,
        fitA: 2.257,
        fitB: 2.016,
      },
      randomShare120: {
        target: 0.95,
        tolerance: 0.04,
        fitA: 0.9094,
        fitB: 0.9366,
      },
      envShare20: {
        target: 0.8,
        tolerance: 0.1,
        fitA: 0.7094,
        fitB: 0.7149,
      },
      envShare5: {
        target: 0.45,
        tolerance: 0.15,
        fitA: 0.2006,
        fitB: 0.2071,
      },
      t4HitStep1: {
        target: 0.572,
        tolerance: 0.04,
        fitA: 0.4388,
        fitB: 0.4284,
      },
    },
    objective: {
      A: 18.12,
      B: 19.13,
    },
    spread: {
      competence0: {
        A: 0.671,
        B: 0.6547,
        relativeSpread: 0.014,
      },
      logitScale: {
        A: 4.564,
        B: 4.717,
        relativeSpread: 0.019,
      },
      partialCredit: {
        A: 0.8426,
        B: 0.851,
        relativeSpread: 0.0084,
      },
      etaCompetence: {
        A: 0.0005046,
        B: 0.0005023,
        relativeSpread: 0.00023,
      },
      forgetting: {
        A: 0.03826,
        B: 0.04333,
        relativeSpread: 0.01,
      },
      breadth: {
        A: 0.5074,
        B: 0.5167,
        relativeSpread: 0.0093,
      },
      hiddenNoise: {
        A: 0.524,
        B: 0.525,
        relativeSpread: 0.00067,
      },
      repeatDiscount: {
        A: 0.1271,
        B: 0.1333,
        relativeSpread: 0.0031,
      },
      etaFamiliarity: {
        A: 0.01221,
        B: 0.01258,
        relativeSpread: 0.0074,
      },
    },
    seconds: 1041,
  },
};
