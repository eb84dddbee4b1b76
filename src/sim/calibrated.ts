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
    competence0: 0.34241,
    logitScale: 3.9582,
    partialCredit: 0.26198,
    etaCompetence: 0.0039073,
    forgetting: 0.38912,
    breadth: 0.69315,
    hiddenNoise: 0.36159,
    repeatDiscount: 0.026991,
    etaFamiliarity: 0.024802,
    familiarityDecay: 0.0077422,
    etaMemo: 0.33909,
  },
  fixed: {
    signalExponent: 1,
  },
  report: {
    date: '2026-12-06T04:30:43.814Z',
    dataset: 'envscaler-rl',
    optimiser: 'CMA-ES on the reflected unit cube',
    start: 'the declared start',
    sigma0: 0.15,
    world: 'coldstart',
    evaluationsPerFit: 300,
    seedsPerEvaluation: 3,
    table4RunsPerEvaluation: 96,
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
        fitA: 0.03816,
        fitB: 0.04015,
      },
      randomMedianVariance: {
        target: 0.01468,
        tolerance: 0.003,
        fitA: 0.01264,
        fitB: 0.01729,
      },
      randomMedianReward: {
        target: 0.595,
        tolerance: 0.03,
        fitA: 0.6224,
        fitB: 0.5889,
      },
      randomGain: {
        target: 2.51,
        tolerance: 0.5,
        fitA: 3.059,
        fitB: 2.141,
      },
      randomShare120: {
        target: 0.95,
        tolerance: 0.04,
        fitA: 1.009,
        fitB: 0.9879,
      },
      envShare20: {
        target: 0.8,
        tolerance: 0.1,
        fitA: 0.7606,
        fitB: 0.7238,
      },
      envShare5: {
        target: 0.45,
        tolerance: 0.15,
        fitA: 0.3335,
        fitB: 0.3091,
      },
      t4HitStep1: {
        target: 0.572,
        tolerance: 0.04,
        fitA: 0.4863,
        fitB: 0.512,
      },
      t4VarStep0: {
        target: 0.0472,
        tolerance: 0.003,
        fitA: 0.0332,
        fitB: 0.03641,
      },
    },
    objective: {
      A: 35.88,
      B: 26.12,
    },
    defaults: 'B',
    freshSets: null,
    spread: {
      competence0: {
        A: 0.3384,
        B: 0.3424,
        relativeSpread: 0.0034,
      },
      logitScale: {
        A: 4.532,
        B: 3.958,
        relativeSpread: 0.072,
      },
      partialCredit: {
        A: 0.2579,
        B: 0.262,
        relativeSpread: 0.0041,
      },
      etaCompetence: {
        A: 0.002653,
        B: 0.003907,
        relativeSpread: 0.13,
      },
      forgetting: {
        A: 0.2022,
        B: 0.3891,
        relativeSpread: 0.37,
      },
      breadth: {
        A: 0.4373,
        B: 0.6931,
        relativeSpread: 0.26,
      },
      hiddenNoise: {
        A: 0.05363,
        B: 0.3616,
        relativeSpread: 0.21,
      },
      repeatDiscount: {
        A: 0.0742,
        B: 0.02699,
        relativeSpread: 0.024,
      },
      etaFamiliarity: {
        A: 0.0324,
        B: 0.0248,
        relativeSpread: 0.15,
      },
      familiarityDecay: {
        A: 0.005483,
        B: 0.007742,
        relativeSpread: 0.011,
      },
      etaMemo: {
        A: 0.008481,
        B: 0.3391,
        relativeSpread: 0.66,
      },
    },
    seconds: 3439,
  },
};
