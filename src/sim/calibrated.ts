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
    competence0: 0.7675,
    logitScale: 4.9018,
    partialCredit: 0.97199,
    etaCompetence: 0.00087843,
    forgetting: 0.13609,
    breadth: 0.30728,
    hiddenNoise: 0.049576,
    repeatDiscount: 0.036055,
    etaFamiliarity: 0.026147,
    familiarityDecay: 0.069692,
  },
  fixed: {
    signalExponent: 1,
  },
  report: {
    date: '2026-12-02T16:57:45.426Z',
    dataset: 'envscaler-rl',
    optimiser: 'CMA-ES on the reflected unit cube',
    start: 'the declared start',
    sigma0: 0.15,
    world: 'std',
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
        fitB: 0.03805,
      },
      randomMedianVariance: {
        target: 0.01468,
        tolerance: 0.003,
        fitA: 0.01516,
        fitB: 0.01389,
      },
      randomMedianReward: {
        target: 0.595,
        tolerance: 0.03,
        fitA: 0.5902,
        fitB: 0.593,
      },
      randomGain: {
        target: 2.51,
        tolerance: 0.5,
        fitA: 2.07,
        fitB: 2.48,
      },
      randomShare120: {
        target: 0.95,
        tolerance: 0.04,
        fitA: 0.9607,
        fitB: 0.9703,
      },
      envShare20: {
        target: 0.8,
        tolerance: 0.1,
        fitA: 0.8447,
        fitB: 0.793,
      },
      envShare5: {
        target: 0.45,
        tolerance: 0.15,
        fitA: 0.3377,
        fitB: 0.334,
      },
      t4HitStep1: {
        target: 0.572,
        tolerance: 0.04,
        fitA: 0.4857,
        fitB: 0.543,
      },
    },
    objective: {
      A: 6.945,
      B: 5.426,
    },
    spread: {
      competence0: {
        A: 0.7675,
        B: 0.2787,
        relativeSpread: 0.41,
      },
      logitScale: {
        A: 4.902,
        B: 4.038,
        relativeSpread: 0.11,
      },
      partialCredit: {
        A: 0.972,
        B: 0.2905,
        relativeSpread: 0.68,
      },
      etaCompetence: {
        A: 0.0008784,
        B: 0.001862,
        relativeSpread: 0.1,
      },
      forgetting: {
        A: 0.1361,
        B: 0.1646,
        relativeSpread: 0.057,
      },
      breadth: {
        A: 0.3073,
        B: 0.4075,
        relativeSpread: 0.1,
      },
      hiddenNoise: {
        A: 0.04958,
        B: 0.01677,
        relativeSpread: 0.022,
      },
      repeatDiscount: {
        A: 0.03606,
        B: 0.05119,
        relativeSpread: 0.0076,
      },
      etaFamiliarity: {
        A: 0.02615,
        B: 0.03266,
        relativeSpread: 0.13,
      },
      familiarityDecay: {
        A: 0.06969,
        B: 0.001673,
        relativeSpread: 0.34,
      },
    },
    seconds: 867.7,
  },
};
