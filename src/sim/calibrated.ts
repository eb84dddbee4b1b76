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
    competence0: 0.23799,
    logitScale: 2.7632,
    partialCredit: 0.77896,
    etaCompetence: 0.0020822,
    forgetting: 0.15509,
    breadth: 0.35165,
    hiddenNoise: 0.087977,
    repeatDiscount: 0.024578,
    etaFamiliarity: 0.047995,
    familiarityDecay: 0.0025712,
    etaMemo: 0.055967,
  },
  fixed: {
    signalExponent: 1,
  },
  report: {
    date: '2026-12-05T12:03:32.687Z',
    dataset: 'envscaler-rl',
    optimiser: 'CMA-ES on the reflected unit cube',
    start: 'the declared start',
    sigma0: 0.15,
    world: 'memob',
    evaluationsPerFit: 600,
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
        fitA: 0.03468,
        fitB: 0.03476,
      },
      randomMedianVariance: {
        target: 0.01468,
        tolerance: 0.003,
        fitA: 0.01518,
        fitB: 0.01354,
      },
      randomMedianReward: {
        target: 0.595,
        tolerance: 0.03,
        fitA: 0.6153,
        fitB: 0.5893,
      },
      randomGain: {
        target: 2.51,
        tolerance: 0.5,
        fitA: 2.393,
        fitB: 2.714,
      },
      randomShare120: {
        target: 0.95,
        tolerance: 0.04,
        fitA: 0.9455,
        fitB: 0.9466,
      },
      envShare20: {
        target: 0.8,
        tolerance: 0.1,
        fitA: 0.8413,
        fitB: 0.8543,
      },
      envShare5: {
        target: 0.45,
        tolerance: 0.15,
        fitA: 0.3683,
        fitB: 0.3813,
      },
      t4HitStep1: {
        target: 0.572,
        tolerance: 0.04,
        fitA: 0.5166,
        fitB: 0.5251,
      },
    },
    objective: {
      A: 3.69,
      B: 3.037,
    },
    defaults: 'A',
    freshSets: null,
    spread: {
      competence0: {
        A: 0.238,
        B: 0.2302,
        relativeSpread: 0.0065,
      },
      logitScale: {
        A: 2.763,
        B: 3.276,
        relativeSpread: 0.064,
      },
      partialCredit: {
        A: 0.779,
        B: 0.5805,
        relativeSpread: 0.2,
      },
      etaCompetence: {
        A: 0.002082,
        B: 0.002832,
        relativeSpread: 0.077,
      },
      forgetting: {
        A: 0.1551,
        B: 0.2059,
        relativeSpread: 0.1,
      },
      breadth: {
        A: 0.3516,
        B: 0.4245,
        relativeSpread: 0.073,
      },
      hiddenNoise: {
        A: 0.08798,
        B: 0.3652,
        relativeSpread: 0.18,
      },
      repeatDiscount: {
        A: 0.02458,
        B: 0.01579,
        relativeSpread: 0.0044,
      },
      etaFamiliarity: {
        A: 0.048,
        B: 0.03539,
        relativeSpread: 0.25,
      },
      familiarityDecay: {
        A: 0.002571,
        B: 0.002636,
        relativeSpread: 0.00032,
      },
      etaMemo: {
        A: 0.05597,
        B: 0.3355,
        relativeSpread: 0.56,
      },
    },
    seconds: 2664,
  },
};
