// Okabe-Ito colour-blind-safe palette (Okabe & Ito 2008), one meaning per colour across views.
import type { Phase } from '../../engine/types.ts';

export const OKABE_ITO = {
  black: '#000000',
  orange: '#E69F00',
  skyBlue: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  grey: '#8c8c8c',
} as const;

export const PHASE_COLOUR: Record<Phase, string> = {
  coverage: OKABE_ITO.blue,
  exploitation: OKABE_ITO.vermillion,
  'cold-start': OKABE_ITO.green,
  random: OKABE_ITO.grey,
};

export const PHASE_LABEL: Record<Phase, string> = {
  coverage: 'coverage',
  exploitation: 'exploitation',
  'cold-start': 'cold start',
  random: 'no phase',
};

/**
 * One colour per quantity of the method, wherever it is named: Explain mode's captions, figures
 * and tables, the inspector's glossary, and the step charts that plot the quantity.
 */
export const QUANTITY_COLOUR = {
  reward: OKABE_ITO.skyBlue,
  variance: OKABE_ITO.green,
  dispersion: OKABE_ITO.purple,
  own: '#B8860B',
  reference: OKABE_ITO.grey,
  within: OKABE_ITO.blue,
  cross: OKABE_ITO.orange,
  priority: OKABE_ITO.vermillion,
  penalty: OKABE_ITO.purple,
} as const;

/** Lane colours: A, B, and the random reference (drawn faint). */
export const LANE_COLOUR = { a: OKABE_ITO.blue, b: OKABE_ITO.orange, ref: '#9a9a9a' } as const;

/** Relation colours of the dual-relation graph. */
export const RELATION_COLOUR = { within: OKABE_ITO.blue, cross: OKABE_ITO.orange } as const;

/** Sequential ramp for the heatmap (white -> blue; dark theme: panel -> sky blue), readable in greyscale too. */
export function ramp(fraction: number, dark = false): string {
  const f = Math.max(0, Math.min(1, fraction));
  const from = dark ? [16, 18, 20] : [255, 255, 255];
  const to = dark ? [120, 200, 245] : [0, 66, 130];
  const c = from.map((v, k) => Math.round(v + (to[k] - v) * Math.sqrt(f)));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}
