// A sweep: one or two knobs of SPEC 11 (or `scheduler`, or a parameter of the simulated world)
// over a list or a range of values, a number of seeds per point, and the metrics to summarise.
// Pure data + validation + expansion into points x seeds; shared by the CLI, the browser and the
// URL (src/sweep/url.ts).
import { CONFIG_RULES, DEFAULT_CONFIG, checkConfigValue, type ConfigKey } from '../engine/config.ts';
import { InputError } from '../engine/errors.ts';
import type { Config } from '../engine/types.ts';
import {
  DEFAULT_SIM_MODEL,
  WORLD_PARAMS,
  checkWorldValue,
  worldDifferences,
  type SimModelParams,
  type WorldParam,
} from '../sim/model-params.ts';

/** A configuration key a sweep may vary. */
export type ConfigSweepKey = Exclude<ConfigKey, 'alpha' | 'seed' | 'dataset'>;
/** A world mechanism or fitted constant as a sweep knob, named as in the link (`w.breadth`, `w.logitScale`). */
export type WorldSweepKey = `w.${WorldParam}`;
export type SweepKey = ConfigSweepKey | WorldSweepKey;

/**
 * Keys a sweep may vary: every SPEC 11 name except the six-vector `alpha` (one number per value is
 * what a line or a heatmap can show), plus `scheduler` (SPEC 12), plus the simulated world's
 * mechanisms and fitted constants (`w.<knob>`: how a scheduler's outcome depends on the world it is tried in). `seed`
 * is the seeds axis and `dataset` is fixed for a whole sweep.
 */
export const SWEEP_KEYS: readonly SweepKey[] = [
  ...(Object.keys(CONFIG_RULES) as ConfigKey[]).filter((k): k is ConfigSweepKey => k !== 'alpha' && k !== 'seed' && k !== 'dataset'),
  ...WORLD_PARAMS.map((k): WorldSweepKey => `w.${k}`),
];

/** The world parameter (mechanism or fitted constant) a key names, or null for a configuration key. */
export function worldKnobOf(key: SweepKey): WorldParam | null {
  return key.startsWith('w.') ? (key.slice(2) as WorldParam) : null;
}

/** A knob's default: SPEC 11's for a configuration key, the calibrated value for a world parameter. */
export function knobDefault(key: SweepKey): KnobValue {
  const world = worldKnobOf(key);
  return world ? DEFAULT_SIM_MODEL[world] : (DEFAULT_CONFIG[key as ConfigSweepKey] as KnobValue);
}

export type KnobValue = number | string;

export interface SweepKnob {
  key: SweepKey;
  values: KnobValue[];
}

/** The metrics a sweep summarises per point, by the names the CLI, CSV and URL use. */
export const SWEEP_METRICS = ['final', 'auc', 'steps_to_random_best', 'mean_variance', 'envs_per_batch', 'tools_per_batch'] as const;
export type SweepMetric = (typeof SWEEP_METRICS)[number];

export const METRIC_LABELS: Readonly<Record<SweepMetric, string>> = {
  final: 'final held-out score',
  auc: 'held-out score, area under the curve (mean over steps)',
  steps_to_random_best: "steps to reach random's best held-out score",
  mean_variance: 'mean reward variance of selected groups',
  envs_per_batch: 'environments per batch',
  tools_per_batch: 'tools per batch',
};

export interface SweepDefinition {
  /** One knob (line chart) or two (heatmap: first knob = columns, second = rows). */
  knobs: SweepKnob[];
  /** Seeds per point: base.seed, base.seed + 1, ..., base.seed + seeds - 1. */
  seeds: number;
  /** Every other setting; `base.T` is the number of steps, `base.dataset` the dataset. */
  base: Config;
  metrics: SweepMetric[];
  /** The preset it came from, if any (shown in the view and written to the URL). */
  preset: string | null;
  /** The world every run is tried in: its changes to the calibrated one (absent or empty: the calibrated world). */
  world?: Partial<SimModelParams>;
}

export const MAX_SEEDS = 1000;
export const MAX_VALUES_PER_KNOB = 1000;
/** A cap on points x seeds (a mistyped range such as 0:1:0.0001 must not start 10^4 runs unasked). */
export const MAX_RUNS = 20_000;

/** Rounds away binary noise of range arithmetic (0.1 * 3 = 0.30000000000000004 -> 0.3). */
function tidy(x: number): number {
  return Number(x.toPrecision(12));
}

function parseNumber(text: string, source: string, place: string): number {
  const trimmed = text.trim();
  const n = trimmed === '' ? NaN : Number(trimmed);
  if (!Number.isFinite(n)) throw new InputError(source, place, `${JSON.stringify(text)} is not a number`);
  return n;
}

/** `a:b:step` (inclusive of b when it falls on the grid) -> the values. */
function expandRange(text: string, source: string, place: string): number[] {
  const parts = text.split(':');
  if (parts.length !== 3) throw new InputError(source, place, `a range is start:stop:step, got ${JSON.stringify(text)}`);
  const [start, stop, step] = parts.map((p) => parseNumber(p, source, place));
  if (step <= 0) throw new InputError(source, place, `the step of a range must be positive, got ${step}`);
  if (stop < start) throw new InputError(source, place, `a range must not end (${stop}) before it starts (${start})`);
  const count = Math.floor((stop - start) / step + 1e-9) + 1;
  if (count > MAX_VALUES_PER_KNOB) throw new InputError(source, place, `the range has ${count} values; at most ${MAX_VALUES_PER_KNOB}`);
  return Array.from({ length: count }, (_, k) => tidy(start + k * step));
}

/** Reads a knob's values: `0,0.25,0.5` or `0:1:0.25` (numbers), `random,envsched` (scheduler). */
export function parseKnobValues(key: SweepKey, text: string, source: string, place: string): KnobValue[] {
  if (text.trim() === '') throw new InputError(source, place, `${key} needs at least one value`);
  let values: KnobValue[];
  if (!worldKnobOf(key) && CONFIG_RULES[key as ConfigSweepKey].kind === 'scheduler') values = text.split(',').map((v) => v.trim());
  else if (!text.includes(',') && text.includes(':')) values = expandRange(text, source, place);
  else values = text.split(',').map((v) => parseNumber(v, source, place));
  checkKnob({ key, values }, source, place);
  return values;
}

/** `rho=0,0.25,0.5` or `rho=0:1:0.25` -> a knob. */
export function parseKnobText(text: string, source: string, place: string): SweepKnob {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new InputError(source, place, `expected KEY=VALUES (e.g. rho=0,0.5,1 or rho=0:1:0.25), got ${JSON.stringify(text)}`);
  const key = checkKey(text.slice(0, eq).trim(), source, place);
  return { key, values: parseKnobValues(key, text.slice(eq + 1), source, place) };
}

export function checkKey(key: string, source: string, place: string): SweepKey {
  if (!(SWEEP_KEYS as readonly string[]).includes(key)) {
    const why =
      key === 'alpha'
        ? 'alpha is a six-vector, not one number'
        : key === 'seed'
          ? 'seeds are the --seeds axis'
          : key === 'dataset'
            ? 'a sweep runs on one dataset'
            : 'not a SPEC 11 knob nor a world parameter';
    throw new InputError(source, place, `cannot sweep ${JSON.stringify(key)} (${why}); sweepable: ${SWEEP_KEYS.join(', ')}`);
  }
  return key as SweepKey;
}

function checkKnob(knob: SweepKnob, source: string, place: string): void {
  if (knob.values.length === 0) throw new InputError(source, place, `${knob.key} needs at least one value`);
  if (knob.values.length > MAX_VALUES_PER_KNOB)
    throw new InputError(source, place, `${knob.key} has ${knob.values.length} values; at most ${MAX_VALUES_PER_KNOB}`);
  const seen = new Set<KnobValue>();
  const world = worldKnobOf(knob.key);
  for (const value of knob.values) {
    if (world) checkWorldValue(world, value, source, place);
    else {
      const problem = checkConfigValue(knob.key as ConfigSweepKey, value);
      if (problem !== null) throw new InputError(source, place, `${knob.key} ${problem}`);
    }
    if (seen.has(value)) throw new InputError(source, place, `${knob.key} lists ${value} twice`);
    seen.add(value);
  }
}

export function parseMetrics(text: string, source: string, place: string): SweepMetric[] {
  const names = text
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  if (names.length === 0) throw new InputError(source, place, `name at least one metric (${SWEEP_METRICS.join(', ')})`);
  for (const m of names) {
    if (!(SWEEP_METRICS as readonly string[]).includes(m))
      throw new InputError(source, place, `unknown metric ${JSON.stringify(m)} (known: ${SWEEP_METRICS.join(', ')})`);
  }
  return [...new Set(names)] as SweepMetric[];
}

/** Where each part of a definition came from, for error messages (CLI flags or URL keys). */
export interface SweepPlaces {
  knobs: [string, string];
  seeds: string;
  metrics: string;
  world: string;
}

export const CLI_PLACES: SweepPlaces = { knobs: ['--knob', '--knob2'], seeds: '--seeds', metrics: '--metrics', world: '--world' };

/** Checks a whole definition (e.g. one built by code or read back from JSON); throws InputError naming the field. */
export function validateSweep(def: SweepDefinition, source: string, places: SweepPlaces = CLI_PLACES): SweepDefinition {
  if (def.knobs.length < 1 || def.knobs.length > 2)
    throw new InputError(source, places.knobs[0], `a sweep has one or two knobs, got ${def.knobs.length}`);
  def.knobs.forEach((knob, k) => {
    checkKey(knob.key, source, places.knobs[k]);
    checkKnob(knob, source, places.knobs[k]);
  });
  if (def.knobs.length === 2 && def.knobs[0].key === def.knobs[1].key)
    throw new InputError(source, places.knobs[1], `the two knobs must differ (both are ${def.knobs[0].key})`);
  if (!Number.isInteger(def.seeds) || def.seeds < 1 || def.seeds > MAX_SEEDS)
    throw new InputError(source, places.seeds, `must be an integer in [1, ${MAX_SEEDS}], got ${def.seeds}`);
  if (def.base.seed + def.seeds - 1 > 0xffff_ffff)
    throw new InputError(source, places.seeds, `seeds ${def.base.seed}..${def.base.seed + def.seeds - 1} run past 2^32 - 1`);
  if (def.metrics.length === 0) throw new InputError(source, places.metrics, 'name at least one metric');
  for (const m of def.metrics)
    if (!(SWEEP_METRICS as readonly string[]).includes(m))
      throw new InputError(source, places.metrics, `unknown metric ${JSON.stringify(m)}`);
  for (const [name, value] of Object.entries(def.world ?? {})) checkWorldValue(name, value, source, places.world);
  const runs = pointCount(def) * def.seeds;
  if (runs > MAX_RUNS)
    throw new InputError(source, places.seeds, `${pointCount(def)} points x ${def.seeds} seeds = ${runs} runs; at most ${MAX_RUNS}`);
  return def;
}

export function pointCount(def: Pick<SweepDefinition, 'knobs'>): number {
  return def.knobs.reduce((n, k) => n * k.values.length, 1);
}

/** One point of the grid: its knob values (one per knob), configuration (seed = the first seed) and world. */
export interface SweepPoint {
  index: number;
  values: KnobValue[];
  config: Config;
  /** The world's changes to the calibrated one at this point (the sweep's world, with any world knob's value). */
  world: Partial<SimModelParams>;
}

/** One run to do: a point under one seed. */
export interface SweepJob {
  point: number;
  seedIndex: number;
  config: Config;
  world: Partial<SimModelParams>;
}

/** The base configuration with the configuration knobs' values (world knobs leave it alone). */
export function withValues(base: Config, knobs: readonly SweepKnob[], values: readonly KnobValue[]): Config {
  const config: Config = { ...base, alpha: [...base.alpha] as Config['alpha'] };
  knobs.forEach((knob, k) => {
    if (!worldKnobOf(knob.key)) (config as unknown as Record<string, unknown>)[knob.key] = values[k];
  });
  return config;
}

/** The sweep's world with the world knobs' values, as changes to the calibrated one. */
export function worldWith(
  world: Partial<SimModelParams> | undefined,
  knobs: readonly SweepKnob[],
  values: readonly KnobValue[],
): Partial<SimModelParams> {
  const model: SimModelParams = { ...DEFAULT_SIM_MODEL, ...world };
  knobs.forEach((knob, k) => {
    const w = worldKnobOf(knob.key);
    if (w) model[w] = values[k] as number;
  });
  return worldDifferences(model);
}

/** The grid, first knob varying fastest (point index = i1 + n1 * i2). */
export function expandPoints(def: SweepDefinition): SweepPoint[] {
  const [k1, k2] = def.knobs;
  const rows = k2 ? k2.values : [undefined];
  const points: SweepPoint[] = [];
  for (const v2 of rows) {
    for (const v1 of k1.values) {
      const values = v2 === undefined ? [v1] : [v1, v2];
      points.push({
        index: points.length,
        values,
        config: withValues(def.base, def.knobs, values),
        world: worldWith(def.world, def.knobs, values),
      });
    }
  }
  return points;
}

/** Points x seeds, seed-major (every point's first seed before any second seed: early results cover the grid). */
export function expandJobs(def: SweepDefinition, points: readonly SweepPoint[] = expandPoints(def)): SweepJob[] {
  const jobs: SweepJob[] = [];
  for (let s = 0; s < def.seeds; s++) {
    for (const p of points) jobs.push({ point: p.index, seedIndex: s, config: { ...p.config, seed: def.base.seed + s }, world: p.world });
  }
  return jobs;
}

/** The paper's default (SPEC 11) of a knob, marked in the views. */
export function describeValue(value: KnobValue): string {
  return typeof value === 'number' ? String(value) : value;
}
