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
    competence0: 0.60391,
    logitScale: 4.9054,
    partialCredit: 0.77168,
    etaCompetence: 0.00063463,
    forgetting: 0.050536,
    breadth: 0.18456,
    hiddenNoise: 0.083121,
    repeatDiscount: 0.20114,
    etaFamiliarity: 0.010656,
    familiarityDecay: 0.024348,
  },
  fixed: {
    signalExponent: 0.5,
  },
  report: {
    date: '2026-12-02T12:16:32.585Z',
    dataset: 'envscaler-rl',
    optimiser: 'CMA-ES on the reflected unit cube',
    start: 'the declared start',
    sigma0: 0.15,
    world: 'decay',
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
        fitA: 0.03514,
        fitB: 0.03359,
      },
      randomMedianVariance: {
        target: 0.01468,
        tolerance: 0.003,
        fitA: 0.01472,
        fitB: 0.01354,
      },
      randomMedianReward: {
        target: 0.595,
        tolerance: 0.03,
        fitA: 0.5896,
        fitB: 0.6109,
      },
      randomGain: {
        target: 2.51,
        tolerance: 0.5,
        fitA: 2.449,
        fitB: 2.188,
      },
      randomShare120: {
        target: 0.95,
        tolerance: 0.04,
        fitA: 0.9779,
        fitB: 0.9999,
      },
      envShare20: {
        target: 0.8,
        tolerance: 0.1,
        fitA: 0.8426,
        fitB: 0.8632,
      },
      envShare5: {
        target: 0.45,
        tolerance: 0.15,
        fitA: 0.3811,
        fitB: 0.4896,
      },
      t4HitStep1: {
        target: 0.572,
        tolerance: 0.04,
        fitA: 0.4727,
        fitB: 0.4674,
      },
    },
    objective: {
      A: 8.133,
      B: 9.952,
    },
    spread: {
      competence0: {
        A: 0.6039,
        B: 0.736,
        relativeSpread: 0.11,
      },
      logitScale: {
        A: 4.905,
        B: 5.149,
        relativeSpread: 0.03,
      },
      partialCredit: {
        A: 0.7717,
        B: 0.8448,
        relativeSpread: 0.073,
      },
      etaCompetence: {
        A: 0.0006346,
        B: 0.001389,
        relativeSpread: 0.077,
      },
      forgetting: {
        A: 0.05054,
        B: 0.1474,
        relativeSpread: 0.19,
      },
      breadth: {
        A: 0.1846,
        B: 0.493,
        relativeSpread: 0.31,
      },
      hiddenNoise: {
        A: 0.08312,
        B: 0.04732,
        relativeSpread: 0.024,
      },
      repeatDiscount: {
        A: 0.2011,
        B: 0.03934,
        relativeSpread: 0.081,
      },
      etaFamiliarity: {
        A: 0.01066,
        B: 0.004962,
        relativeSpread: 0.11,
      },
      familiarityDecay: {
        A: 0.02435,
        B: 0.002801,
        relativeSpread: 0.11,
      },
    },
    seconds: 782,
  },
};
