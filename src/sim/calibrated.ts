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
    competence0: 0.31141,
    logitScale: 3.5188,
    partialCredit: 0.60727,
    etaCompetence: 0.0019389,
    forgetting: 0.17335,
    breadth: 0.3073,
    hiddenNoise: 0.016494,
    repeatDiscount: 0.024276,
    etaFamiliarity: 0.03646,
    familiarityDecay: 0.00068801,
    etaMemo: 0.089719,
  },
  fixed: {
    signalExponent: 1,
  },
  report: {
    date: '2026-12-05T07:43:50.610Z',
    dataset: 'envscaler-rl',
    optimiser: 'CMA-ES on the reflected unit cube',
    start: 'the declared start',
    sigma0: 0.15,
    world: 'memo',
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
        fitA: 0.03446,
        fitB: 0.03455,
      },
      randomMedianVariance: {
        target: 0.01468,
        tolerance: 0.003,
        fitA: 0.01516,
        fitB: 0.01314,
      },
      randomMedianReward: {
        target: 0.595,
        tolerance: 0.03,
        fitA: 0.5902,
        fitB: 0.6142,
      },
      randomGain: {
        target: 2.51,
        tolerance: 0.5,
        fitA: 2.07,
        fitB: 2.574,
      },
      randomShare120: {
        target: 0.95,
        tolerance: 0.04,
        fitA: 0.9607,
        fitB: 0.9446,
      },
      envShare20: {
        target: 0.8,
        tolerance: 0.1,
        fitA: 0.8442,
        fitB: 0.8658,
      },
      envShare5: {
        target: 0.45,
        tolerance: 0.15,
        fitA: 0.3366,
        fitB: 0.4191,
      },
      t4HitStep1: {
        target: 0.572,
        tolerance: 0.04,
        fitA: 0.4857,
        fitB: 0.5299,
      },
    },
    objective: {
      A: 6.952,
      B: 2.968,
    },
    defaults: 'B',
    spread: {
      competence0: {
        A: 0.7675,
        B: 0.3114,
        relativeSpread: 0.38,
      },
      logitScale: {
        A: 4.902,
        B: 3.519,
        relativeSpread: 0.17,
      },
      partialCredit: {
        A: 0.972,
        B: 0.6073,
        relativeSpread: 0.36,
      },
      etaCompetence: {
        A: 0.0008784,
        B: 0.001939,
        relativeSpread: 0.11,
      },
      forgetting: {
        A: 0.1361,
        B: 0.1734,
        relativeSpread: 0.075,
      },
      breadth: {
        A: 0.3073,
        B: 0.3073,
        relativeSpread: 0.000019,
      },
      hiddenNoise: {
        A: 0.04958,
        B: 0.01649,
        relativeSpread: 0.022,
      },
      repeatDiscount: {
        A: 0.03606,
        B: 0.02428,
        relativeSpread: 0.0059,
      },
      etaFamiliarity: {
        A: 0.02615,
        B: 0.03646,
        relativeSpread: 0.21,
      },
      familiarityDecay: {
        A: 0.06969,
        B: 0.000688,
        relativeSpread: 0.35,
      },
      etaMemo: {
        A: 0.05,
        B: 0.08972,
        relativeSpread: 0.079,
      },
    },
    seconds: 648.5,
  },
};
