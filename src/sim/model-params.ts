// The simulated world's constants (docs/simulator.md). They are not scheduler configuration keys
// (SPEC 12 fixes those); they are the model of a policy learning from rollouts. The world
// mechanisms are named knobs, each with an "off" value; the defaults are the calibrated values of
// src/sim/calibrated.ts (written by `npm run calibrate`, docs/calibration.md).
import { CALIBRATED } from './calibrated.ts';
import { InputError } from '../engine/errors.ts';
import { isNamedWorld, NAMED_WORLD_NAMES, NAMED_WORLDS } from './named-worlds.ts';

export interface SimModelParams {
  /** Initial competence of every operation family (added to every gate's logit). */
  competence0: number;
  /** Probability that a rollout of an exploitable task uses its exploit (and is flagged). */
  exploitRate: number;
  /** Reward of an exploited rollout (every check passes). */
  exploitReward: number;
  /** Competence learning rate per unit of family credit. */
  etaCompetence: number;
  /** Per-step saturation of a family's credit: credit c teaches c / (1 + c / sat). */
  competenceSaturation: number;
  /** Familiarity gained per unit of reward spread of a group of the environment. */
  etaFamiliarity: number;
  /** Fraction of familiarity an environment loses in a step without a group in the batch. */
  familiarityDecay: number;
  /** Memorisation gained per unit of reward spread of the task's own group. */
  etaMemo: number;
  /** Cap of an environment's familiarity (its own skill, in logit units like competence). */
  familiarityMax: number;
  /** Cap of a task's memorisation. */
  memoMax: number;
  /** Sharpness of every gate's sigmoid: p = sigmoid(logitScale * z). */
  logitScale: number;
  // ---- world mechanisms (docs/simulator.md, "World mechanisms"); WORLD_OFF gives each one's off value ----
  /** Partial credit q: a check behind a passed gate still fails with probability q (1 - p_gate). Off: 0. */
  partialCredit: number;
  /** Learning signal of a group: sigma^gamma (1 = GRPO's std-normalised advantage, 2 = the unnormalised one). Off: 1. */
  signalExponent: number;
  /** Gradient credit omega: a group's lesson is split over its chain's gates by how much its expected reward depends on each (1) instead of evenly (0). Off: 0. */
  gradientCredit: number;
  /** Breadth beta: a group's transfer to competence is divided by n_e^beta, n_e its environment's groups this step. Off: 0. */
  breadth: number;
  /** Forgetting phi: each step competence relaxes toward competence0 by phi x the step's mean signal (no update, no drift). Off: 0. */
  forgetting: number;
  /** Memorisation vs transfer rho: a task's transfer is divided by 1 + rho x the steps it was already practised. Off: 0. */
  repeatDiscount: number;
  /** Normalised drift lambda: forgetting is driven by the share of groups with spread (1, GRPO: each pushes alike) instead of the mean signal (0). Off: 0. */
  normalisedDrift: number;
  /** Drift exponent nu: with normalised drift, forgetting follows (groups with spread)^nu / n (1/2: their pushes are noise that adds in quadrature). Off: 1. */
  driftExponent: number;
  /** Familiarity drift psi: every environment's familiarity relaxes by psi x the step's drift (what competence forgetting follows), present or not. Off: 0. */
  familiarityDrift: number;
  /** Gradient noise kappa: a fixed-length (Adam) step whose direction is the credit plus noise kappa per group with spread; forgetting follows the noise's share. Off: 0 (the step grows with the credit). */
  gradientNoise: number;
  /** Structure-determined difficulty: the hidden part of every gate's difficulty is scaled by this. Off: 1 (as generated). */
  hiddenNoise: number;
}

/** The world mechanisms: the knobs of the app's "Simulated world" section, in display order. */
export const WORLD_KNOBS = [
  'partialCredit',
  'signalExponent',
  'gradientCredit',
  'breadth',
  'forgetting',
  'normalisedDrift',
  'driftExponent',
  'gradientNoise',
  'familiarityDrift',
  'repeatDiscount',
  'hiddenNoise',
] as const;
export type WorldKnob = (typeof WORLD_KNOBS)[number];
export type WorldMechanisms = Pick<SimModelParams, WorldKnob>;

/** Each mechanism's "off" value: with all of them, the world is the one before the mechanisms existed. */
export const WORLD_OFF: Readonly<WorldMechanisms> = Object.freeze({
  partialCredit: 0,
  signalExponent: 1,
  gradientCredit: 0,
  breadth: 0,
  forgetting: 0,
  normalisedDrift: 0,
  driftExponent: 1,
  gradientNoise: 0,
  familiarityDrift: 0,
  repeatDiscount: 0,
  hiddenNoise: 1,
});

/** Bounds of each knob (the calibration's search box and the app's sliders). */
export const WORLD_BOUNDS: Readonly<Record<WorldKnob, readonly [number, number]>> = Object.freeze({
  partialCredit: [0, 1],
  signalExponent: [0, 2],
  gradientCredit: [0, 1],
  breadth: [0, 1],
  forgetting: [0, 0.5],
  normalisedDrift: [0, 1],
  driftExponent: [0, 1],
  gradientNoise: [0, 4],
  familiarityDrift: [0, 2],
  repeatDiscount: [0, 2],
  hiddenNoise: [0, 1.5],
});

/**
 * The constants of the simulator before the world mechanisms (its earlier hand calibration), with
 * every mechanism off: the world whose fingerprints test/sim.world-off.test.ts recorded.
 */
export const PREVIOUS_SIM_MODEL: Readonly<SimModelParams> = Object.freeze({
  competence0: 0.68,
  exploitRate: 0.15,
  exploitReward: 1,
  etaCompetence: 0.001,
  competenceSaturation: 4,
  etaFamiliarity: 0.015,
  familiarityDecay: 0.05,
  etaMemo: 0.05,
  familiarityMax: 3,
  memoMax: 3,
  logitScale: 7.5,
  ...WORLD_OFF,
});

/** The calibrated world: the previous constants overridden by the fitted and fixed values of src/sim/calibrated.ts. */
export const DEFAULT_SIM_MODEL: Readonly<SimModelParams> = Object.freeze({
  ...PREVIOUS_SIM_MODEL,
  ...CALIBRATED.fixed,
  ...CALIBRATED.fitted,
});

/** `model` with every world mechanism off (the constants kept). */
export function worldOff(model: SimModelParams): SimModelParams {
  return { ...model, ...WORLD_OFF };
}

/** Number of f64 slots of the params array (assembly/sim/model.ts P_*). */
export const MODEL_PARAM_SLOTS = 21;

/** The params array of assembly/sim/model.ts, in its index order (P_EXPLOIT ... P_GRADIENT_CREDIT). */
export function packModelParams(p: SimModelParams): Float64Array {
  return Float64Array.of(
    p.exploitRate,
    p.exploitReward,
    p.etaCompetence,
    p.competenceSaturation,
    p.etaFamiliarity,
    p.familiarityDecay,
    p.etaMemo,
    p.familiarityMax,
    p.memoMax,
    p.logitScale,
    p.partialCredit,
    p.signalExponent,
    p.breadth,
    p.forgetting,
    p.repeatDiscount,
    p.competence0,
    p.normalisedDrift,
    p.gradientNoise,
    p.driftExponent,
    p.familiarityDrift,
    p.gradientCredit,
  );
}

/**
 * The constants a world given by name may set besides the mechanisms: those the calibration fits
 * (docs/calibration.md; `familiarityDecay` since the seventh fit, `familiarityMax` in the eleventh, `etaMemo` in the twelfth), so that any fit of
 * docs/calibration-report.md can be replayed.
 */
export const WORLD_CONSTANTS = [
  'competence0',
  'logitScale',
  'etaCompetence',
  'etaFamiliarity',
  'familiarityDecay',
  'familiarityMax',
  'etaMemo',
] as const;
export type WorldConstant = (typeof WORLD_CONSTANTS)[number];

/** Everything a world given by name sets (the app's "Simulated world" section and the link's w.* keys): mechanisms, then constants. */
export const WORLD_PARAMS = [...WORLD_KNOBS, ...WORLD_CONSTANTS] as const;
export type WorldParam = (typeof WORLD_PARAMS)[number];
export type WorldSettings = Pick<SimModelParams, WorldParam>;

/** What each constant may be: a gate's logit offset, a sigmoid's sharpness, two learning rates, a per-step fraction, a cap in logit units, a third learning rate. */
export const WORLD_CONSTANT_BOUNDS: Readonly<Record<WorldConstant, readonly [number, number]>> = Object.freeze({
  competence0: [-10, 10],
  logitScale: [0.01, 100],
  etaCompetence: [0, 1],
  etaFamiliarity: [0, 1],
  familiarityDecay: [0, 1],
  familiarityMax: [0, 10],
  etaMemo: [0, 1],
});

/** A world's parameters that differ from the calibrated defaults (empty: the calibrated world). */
export function worldDifferences(model: SimModelParams): Partial<SimModelParams> {
  const out: Partial<SimModelParams> = {};
  for (const k of Object.keys(DEFAULT_SIM_MODEL) as (keyof SimModelParams)[])
    if (!Object.is(model[k], DEFAULT_SIM_MODEL[k])) out[k] = model[k];
  return out;
}

/** A world's changes as text, as `--world` takes them (with separator ','; by default comma and space: `breadth=0, forgetting=0`); '' for none. */
export function worldChangesText(world: Partial<SimModelParams>, separator = ', '): string {
  return Object.entries(world)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(separator);
}

/** The bounds of a world parameter given by name, or null when `name` is not one. */
export function worldBounds(name: string): readonly [number, number] | null {
  if ((WORLD_KNOBS as readonly string[]).includes(name)) return WORLD_BOUNDS[name as WorldKnob];
  if ((WORLD_CONSTANTS as readonly string[]).includes(name)) return WORLD_CONSTANT_BOUNDS[name as WorldConstant];
  return null;
}

/** Checks one world parameter given by name; errors name `place` and show `shown` (the value as the user wrote it). */
export function checkWorldValue(name: string, value: unknown, source: string, place: string, shown = JSON.stringify(value)): number {
  const bounds = worldBounds(name);
  if (!bounds) throw new InputError(source, place, `${JSON.stringify(name)} is not a world parameter (known: ${WORLD_PARAMS.join(', ')})`);
  const [lo, hi] = bounds;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < lo || value > hi)
    throw new InputError(source, place, `${name} must be a number in [${lo}, ${hi}], got ${shown}`);
  return value;
}

/**
 * `[world,]name=value[,name=value...]`: optionally a fitted world by name first (NAMED_WORLDS:
 * `decay`, `third`, `grpo`, `adam`), then world mechanisms of WORLD_KNOBS or constants of WORLD_CONSTANTS over it.
 * Returns the parameters that differ from the calibrated world; errors name `place` and the entry.
 */
export function parseWorldText(text: string, source: string, place: string): Partial<SimModelParams> {
  const entries = text.split(',');
  const first = entries[0].trim();
  const named = isNamedWorld(first) ? NAMED_WORLDS[first].values : null;
  const out: Partial<SimModelParams> = {};
  for (const entry of named ? entries.slice(1) : entries) {
    const eq = entry.indexOf('=');
    const name = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    if (eq < 0 || name === '')
      throw new InputError(
        source,
        place,
        `expected name=value${entry === entries[0] ? ` or a fitted world (${NAMED_WORLD_NAMES.join(', ')})` : ''}, got ${JSON.stringify(entry)}`,
      );
    if (name in out) throw new InputError(source, place, `${name} is given twice`);
    const raw = entry.slice(eq + 1).trim();
    const value = checkWorldValue(name, raw === '' ? NaN : Number(raw), source, place, JSON.stringify(raw));
    out[name as WorldParam] = value;
  }
  return worldDifferences({ ...DEFAULT_SIM_MODEL, ...named, ...out });
}

/** The calibrated world with `text`'s changes (parseWorldText). */
export function parseWorldOverrides(text: string, source: string, place: string): SimModelParams {
  return { ...DEFAULT_SIM_MODEL, ...parseWorldText(text, source, place) };
}
