// The fitted worlds besides the calibrated one, by name: each is the fit A (for `memo`, the fit B)
// of a declared world (docs/calibration.md) as docs/calibration-report.md prints it (4 significant digits), with the
// values that world fixed before fitting (the familiarity decay of the hand calibration, 0.05,
// for every fit before the seventh; its memorisation rate, 0.05, for every fit before the
// twelfth). `memob` is the fourteenth fit, the defaults until the sixteenth; `gradcredit` the fifteenth, which did not become the defaults. `memo` is the twelfth fit's B, the defaults until the fourteenth; `std` is the eighth fit, the defaults until the twelfth; `decay` the seventh, the
// defaults until the eighth; `noise` is the ninth, `envdrift` and `noisedrift` the tenth. `--world grpo`, the app's "fitted
// worlds" buttons and a link's w.* keys replay them; test/sim.named-worlds.test.ts holds them to
// the report.
import type { SimModelParams } from './model-params.ts';

export interface NamedWorld {
  /** What the world is, in a few words (shown beside its button). */
  label: string;
  /** Which fit it is, as docs/calibration-report.md's heading names it. */
  fit: string;
  /** Which of the report section's fits it is: A unless said. */
  column?: 'B';
  /** Its fitted and fixed values; every other constant is the calibrated world's. */
  values: Partial<SimModelParams>;
}

export const NAMED_WORLD_NAMES = [
  'memob',
  'gradcredit',
  'memo',
  'std',
  'decay',
  'third',
  'grpo',
  'adam',
  'noise',
  'envdrift',
  'noisedrift',
] as const;
export type NamedWorldName = (typeof NAMED_WORLD_NAMES)[number];

export const NAMED_WORLDS: Readonly<Record<NamedWorldName, NamedWorld>> = Object.freeze({
  memob: {
    label: 'the defaults until the sixteenth fit',
    fit: 'Fourteenth fit in the `memob` world',
    values: {
      signalExponent: 1,
      competence0: 0.238,
      logitScale: 2.763,
      partialCredit: 0.779,
      etaCompetence: 0.002082,
      forgetting: 0.1551,
      breadth: 0.3516,
      hiddenNoise: 0.08798,
      repeatDiscount: 0.02458,
      etaFamiliarity: 0.048,
      familiarityDecay: 0.002571,
      etaMemo: 0.05597,
    },
  },
  gradcredit: {
    label: 'policy-gradient credit over a chain’s gates',
    fit: 'Fifteenth fit in the `gradcredit` world',
    values: {
      signalExponent: 1,
      gradientCredit: 1,
      competence0: 0.2152,
      logitScale: 2.292,
      partialCredit: 0.9493,
      etaCompetence: 0.002069,
      forgetting: 0.1086,
      breadth: 0.1562,
      hiddenNoise: 0.1187,
      repeatDiscount: 0.02413,
      etaFamiliarity: 0.04886,
      familiarityDecay: 0.003012,
      etaMemo: 0.3725,
    },
  },
  memo: {
    label: 'the defaults until the fourteenth fit',
    fit: 'Twelfth fit in the `memo` world',
    column: 'B',
    values: {
      signalExponent: 1,
      competence0: 0.3114,
      logitScale: 3.519,
      partialCredit: 0.6073,
      etaCompetence: 0.001939,
      forgetting: 0.1734,
      breadth: 0.3073,
      hiddenNoise: 0.01649,
      repeatDiscount: 0.02428,
      etaFamiliarity: 0.03646,
      familiarityDecay: 0.000688,
      etaMemo: 0.08972,
    },
  },
  std: {
    label: 'the defaults until the twelfth fit',
    fit: 'Eighth fit in the `std` world',
    values: {
      etaMemo: 0.05,
      signalExponent: 1,
      competence0: 0.7675,
      logitScale: 4.902,
      partialCredit: 0.972,
      etaCompetence: 0.0008784,
      forgetting: 0.1361,
      breadth: 0.3073,
      hiddenNoise: 0.04958,
      repeatDiscount: 0.03606,
      etaFamiliarity: 0.02615,
      familiarityDecay: 0.06969,
    },
  },
  decay: {
    label: 'the defaults until the eighth fit',
    fit: 'Seventh fit in the `decay` world',
    values: {
      etaMemo: 0.05,
      signalExponent: 0.5,
      competence0: 0.6039,
      logitScale: 4.905,
      partialCredit: 0.7717,
      etaCompetence: 0.0006346,
      forgetting: 0.05054,
      breadth: 0.1846,
      hiddenNoise: 0.08312,
      repeatDiscount: 0.2011,
      etaFamiliarity: 0.01066,
      familiarityDecay: 0.02435,
    },
  },
  third: {
    label: 'the defaults until the seventh fit',
    fit: 'Fifth fit in the `third` world',
    values: {
      etaMemo: 0.05,
      signalExponent: 0.5,
      competence0: 0.5909,
      logitScale: 5.236,
      partialCredit: 0.742,
      etaCompetence: 0.0006956,
      forgetting: 0.06049,
      breadth: 0.3521,
      hiddenNoise: 0.06202,
      repeatDiscount: 0.08462,
      etaFamiliarity: 0.0151,
      familiarityDecay: 0.05,
    },
  },
  grpo: {
    label: 'GRPO’s update and drift',
    fit: 'Fifth fit in the `grpo` world',
    values: {
      etaMemo: 0.05,
      signalExponent: 1,
      normalisedDrift: 1,
      competence0: 0.8004,
      logitScale: 5.074,
      partialCredit: 0.9506,
      etaCompetence: 0.001404,
      forgetting: 0.03151,
      breadth: 0.409,
      hiddenNoise: 0.3725,
      repeatDiscount: 0.0001486,
      etaFamiliarity: 0.02037,
      familiarityDecay: 0.05,
    },
  },
  adam: {
    label: 'a fixed step with gradient noise',
    fit: 'Sixth fit in the `adam` world',
    values: {
      etaMemo: 0.05,
      signalExponent: 1,
      competence0: 0.6593,
      logitScale: 4.68,
      partialCredit: 0.8959,
      etaCompetence: 0.008387,
      forgetting: 0.02271,
      breadth: 0.1105,
      hiddenNoise: 0.02978,
      repeatDiscount: 0.001303,
      etaFamiliarity: 0.03299,
      gradientNoise: 1.114,
      familiarityDecay: 0.05,
    },
  },
  noise: {
    label: 'drift from noise that adds in quadrature',
    fit: 'Ninth fit in the `noise` world',
    values: {
      etaMemo: 0.05,
      signalExponent: 1,
      normalisedDrift: 1,
      driftExponent: 0.5,
      competence0: 0.6425,
      logitScale: 4.909,
      partialCredit: 0.8515,
      etaCompetence: 0.0008035,
      forgetting: 0.1542,
      breadth: 0.01434,
      hiddenNoise: 0.0975,
      repeatDiscount: 0.01519,
      etaFamiliarity: 0.02762,
      familiarityDecay: 0.04295,
    },
  },
  envdrift: {
    label: 'the defaults’ world with familiarity drift',
    fit: 'Tenth fit in the `envdrift` world',
    values: {
      etaMemo: 0.05,
      signalExponent: 1,
      competence0: 0.9142,
      logitScale: 4.883,
      partialCredit: 0.9779,
      etaCompetence: 0.001174,
      forgetting: 0.1286,
      breadth: 0.2625,
      hiddenNoise: 0.2275,
      repeatDiscount: 0.04082,
      etaFamiliarity: 0.01453,
      familiarityDecay: 0.09059,
      familiarityDrift: 0.06151,
    },
  },
  noisedrift: {
    label: 'noise with familiarity drift',
    fit: 'Tenth fit in the `noisedrift` world',
    values: {
      etaMemo: 0.05,
      signalExponent: 1,
      normalisedDrift: 1,
      driftExponent: 0.5,
      competence0: 0.9105,
      logitScale: 5.422,
      partialCredit: 0.9685,
      etaCompetence: 0.00124,
      forgetting: 0.2036,
      breadth: 0.0486,
      hiddenNoise: 0.06791,
      repeatDiscount: 0.04183,
      etaFamiliarity: 0.01544,
      familiarityDecay: 0.08224,
      familiarityDrift: 0.4219,
    },
  },
});

export function isNamedWorld(name: string): name is NamedWorldName {
  return (NAMED_WORLD_NAMES as readonly string[]).includes(name);
}
