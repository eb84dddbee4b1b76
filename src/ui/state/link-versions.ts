// A link's `w.<knob>` keys are differences from the calibrated world of the day it was made, and a
// link leaves the calibrated values out; so when the calibrated defaults change, an old link would
// silently open in the new world. Each change of src/sim/calibrated.ts therefore bumps the link
// version and records here, bit for bit, the world the older version's links were written against.
// A link of an older version opens in its own world (and is written back in the current version,
// with that world's values spelled out as w.* keys).
import type { WorldSettings } from '../../sim/model-params.ts';
import { calibratedWorld } from './world-url.ts';

/** The version the app writes: its links are relative to the calibrated world of src/sim/calibrated.ts. */
export const URL_VERSION = 6;

export interface EarlierLinkWorld {
  /** Which calibration it was, in the words of docs/calibration-report.md, and when it was the default. */
  label: string;
  /** Every world parameter a link carries, as that version's calibrated world had it. */
  values: Readonly<WorldSettings>;
}

/**
 * The calibrated world of each earlier link version, full precision as src/sim/calibrated.ts held
 * it. Version 1: the fifth fit (the `third` world's fit A, commit 9206ac9), the default from
 * 2 December 2026 02:00 to 12:28 UTC; links with world keys made before that (from 1 December
 * 20:30) were written against earlier fits and open in this one. Version 2: the seventh fit (the
 * `decay` world's fit A, commit bc0ac34), the default from 12:28 to 17:00 UTC. Version 3: the
 * eighth fit (the `std` world's fit A, commit a535b48), the default from 2 December 17:00 UTC to
 * 5 December 2026 07:45 UTC (the twelfth fit). Version 4: the twelfth fit (the `memo` world's fit
 * B, commit 213494a), the default from 5 December 07:45 UTC to 12:05 UTC (the fourteenth fit).
 * Version 5: the fourteenth fit (the `memob` world's fit A, commit dc538de), the default from
 * 5 December 12:05 UTC to 6 December 2026 (the sixteenth fit).
 */
export const EARLIER_LINK_WORLDS: Readonly<Record<number, EarlierLinkWorld>> = Object.freeze({
  1: {
    label: 'the fifth calibration fit (the calibrated world until 2 December 2026, 12:28 UTC)',
    values: {
      partialCredit: 0.74199,
      signalExponent: 0.5,
      gradientCredit: 0,
      breadth: 0.35207,
      forgetting: 0.060488,
      normalisedDrift: 0,
      driftExponent: 1,
      gradientNoise: 0,
      familiarityDrift: 0,
      repeatDiscount: 0.084622,
      hiddenNoise: 0.062017,
      competence0: 0.59088,
      logitScale: 5.2364,
      etaCompetence: 0.00069556,
      etaFamiliarity: 0.015101,
      familiarityDecay: 0.05,
      familiarityMax: 3,
      etaMemo: 0.05,
    },
  },
  2: {
    label: 'the seventh calibration fit (the calibrated world until 2 December 2026, 17:00 UTC)',
    values: {
      partialCredit: 0.77168,
      signalExponent: 0.5,
      gradientCredit: 0,
      breadth: 0.18456,
      forgetting: 0.050536,
      normalisedDrift: 0,
      driftExponent: 1,
      gradientNoise: 0,
      familiarityDrift: 0,
      repeatDiscount: 0.20114,
      hiddenNoise: 0.083121,
      competence0: 0.60391,
      logitScale: 4.9054,
      etaCompetence: 0.00063463,
      etaFamiliarity: 0.010656,
      familiarityDecay: 0.024348,
      familiarityMax: 3,
      etaMemo: 0.05,
    },
  },
  3: {
    label: 'the eighth calibration fit (the calibrated world until 5 December 2026)',
    values: {
      partialCredit: 0.97199,
      signalExponent: 1,
      gradientCredit: 0,
      breadth: 0.30728,
      forgetting: 0.13609,
      normalisedDrift: 0,
      driftExponent: 1,
      gradientNoise: 0,
      familiarityDrift: 0,
      repeatDiscount: 0.036055,
      hiddenNoise: 0.049576,
      competence0: 0.7675,
      logitScale: 4.9018,
      etaCompetence: 0.00087843,
      etaFamiliarity: 0.026147,
      familiarityDecay: 0.069692,
      familiarityMax: 3,
      etaMemo: 0.05,
    },
  },
  4: {
    label: 'the twelfth calibration fit (the calibrated world on 5 December 2026 until 12:05 UTC)',
    values: {
      partialCredit: 0.60727,
      signalExponent: 1,
      gradientCredit: 0,
      breadth: 0.3073,
      forgetting: 0.17335,
      normalisedDrift: 0,
      driftExponent: 1,
      gradientNoise: 0,
      familiarityDrift: 0,
      repeatDiscount: 0.024276,
      hiddenNoise: 0.016494,
      competence0: 0.31141,
      logitScale: 3.5188,
      etaCompetence: 0.0019389,
      etaFamiliarity: 0.03646,
      familiarityDecay: 0.00068801,
      familiarityMax: 3,
      etaMemo: 0.089719,
    },
  },
  5: {
    label: 'the fourteenth calibration fit (the calibrated world from 5 December 2026, 12:05 UTC, to 6 December)',
    values: {
      partialCredit: 0.77896,
      signalExponent: 1,
      gradientCredit: 0,
      breadth: 0.35165,
      forgetting: 0.15509,
      normalisedDrift: 0,
      driftExponent: 1,
      gradientNoise: 0,
      familiarityDrift: 0,
      repeatDiscount: 0.024578,
      hiddenNoise: 0.087977,
      competence0: 0.23799,
      logitScale: 2.7632,
      etaCompetence: 0.0020822,
      etaFamiliarity: 0.047995,
      familiarityDecay: 0.0025712,
      familiarityMax: 3,
      etaMemo: 0.055967,
    },
  },
});

/** The link versions the app reads: the earlier ones and the current one. */
export function isKnownLinkVersion(version: number): boolean {
  return version === URL_VERSION || EARLIER_LINK_WORLDS[version] !== undefined;
}

/** The world a link of `version` reads its w.* keys against (the current calibrated world for the current version). */
export function linkWorldBase(version: number): WorldSettings {
  const earlier = EARLIER_LINK_WORLDS[version];
  return earlier ? { ...earlier.values } : calibratedWorld();
}
