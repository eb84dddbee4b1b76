// A sweep in the app's link ("a sweep is part of the URL like any configuration"), in the
// style of src/ui/state/url-state.ts: plain readable values, defaults left out, and reading never
// throws (a bad value becomes a notice and is dropped). The sweep's keys sit beside the app's own
// under the `sweep.` prefix; the base configuration (dataset, T = steps, seed = first seed, every
// other knob) is the app's configuration A:
//
//   ?v=3&T=100&sweep.K_within=3,6,12&sweep.K_cross=6,12,24&sweep.seeds=3
//   ?v=3&sweep.preset=table3b                          (a preset's knobs, written by name)
//   ?v=3&sweep.rho=0:1:0.25&sweep.metrics=final,auc    (ranges are read; lists are written)
//
// The first `sweep.<knob>` is the first knob (line chart x axis, heatmap columns), the second the
// second (heatmap rows).
import { InputError } from '../engine/errors.ts';
import type { Config } from '../engine/types.ts';
import {
  checkKey,
  MAX_RUNS,
  MAX_SEEDS,
  parseKnobValues,
  parseMetrics,
  pointCount,
  SWEEP_METRICS,
  type SweepDefinition,
  type SweepKnob,
  type SweepMetric,
} from './definition.ts';
import { findPreset, presetKnobs } from './presets.ts';

export const SWEEP_PREFIX = 'sweep.';
export const DEFAULT_SWEEP_SEEDS = 3;

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** Splits a query into the app's own part (for parseUrlState) and the sweep's part (for parseSweepUrl). */
export function splitSweepParams(search: string): { app: string; sweep: string } {
  const params = new URLSearchParams(search);
  const app = new URLSearchParams();
  const sweep = new URLSearchParams();
  for (const [key, value] of params) (key.startsWith(SWEEP_PREFIX) ? sweep : app).append(key, value);
  return { app: app.toString(), sweep: sweep.toString() };
}

/** Reads the `sweep.*` keys of a query (others are ignored) over the app's configuration; never throws. */
export function parseSweepUrl(search: string, base: Config): { sweep: SweepDefinition | null; notices: string[] } {
  const params = new URLSearchParams(search);
  const notices: string[] = [];
  let knobs: SweepKnob[] = [];
  let seeds = DEFAULT_SWEEP_SEEDS;
  let metrics: SweepMetric[] = [...SWEEP_METRICS];
  let preset: string | null = null;
  const noteOf = (error: unknown, label: string, text: string) =>
    error instanceof InputError
      ? `${label}=${short(text)}: ${error.problem}; ignored`
      : `${label}=${short(text)}: ${String(error)}; ignored`;
  for (const [rawKey, text] of params) {
    if (!rawKey.startsWith(SWEEP_PREFIX)) continue;
    const key = rawKey.slice(SWEEP_PREFIX.length);
    try {
      if (key === 'seeds') {
        const n = Number(text);
        if (text.trim() === '' || !Number.isInteger(n) || n < 1 || n > MAX_SEEDS)
          throw new InputError('url', rawKey, `must be an integer in [1, ${MAX_SEEDS}]`);
        seeds = n;
      } else if (key === 'metrics') metrics = parseMetrics(text, 'url', rawKey);
      else if (key === 'preset') {
        const found = findPreset(text);
        if (!found) throw new InputError('url', rawKey, 'unknown preset');
        if (knobs.length > 0) throw new InputError('url', rawKey, `knobs ${knobs.map((k) => k.key).join(', ')} already given`);
        preset = found.name;
        knobs = presetKnobs(found);
      } else {
        const sweepKey = checkKey(key, 'url', rawKey);
        if (preset !== null) throw new InputError('url', rawKey, `preset ${preset} already sets the knobs`);
        if (knobs.length >= 2) throw new InputError('url', rawKey, 'a sweep has at most two knobs');
        if (knobs.some((k) => k.key === sweepKey)) throw new InputError('url', rawKey, 'this knob is already given');
        knobs.push({ key: sweepKey, values: parseKnobValues(sweepKey, text, 'url', rawKey) });
      }
    } catch (error) {
      notices.push(noteOf(error, rawKey, text));
    }
  }
  if (knobs.length === 0) {
    if (params.has(`${SWEEP_PREFIX}seeds`) || params.has(`${SWEEP_PREFIX}metrics`)) notices.push('sweep: no knob given; no sweep opened');
    return { sweep: null, notices };
  }
  const runs = pointCount({ knobs }) * seeds;
  if (runs > MAX_RUNS) {
    notices.push(`sweep: ${runs} runs; at most ${MAX_RUNS}; no sweep opened`);
    return { sweep: null, notices };
  }
  if (base.seed + seeds - 1 > 0xffff_ffff) {
    seeds = 0xffff_ffff - base.seed + 1;
    notices.push(`sweep.seeds: seeds past 2^32 - 1; using ${seeds}`);
  }
  return { sweep: { knobs, seeds, base: { ...base, alpha: [...base.alpha] as Config['alpha'] }, metrics, preset }, notices };
}

function sameKnobs(a: readonly SweepKnob[], b: readonly SweepKnob[]): boolean {
  return (
    a.length === b.length &&
    a.every((k, i) => k.key === b[i].key && k.values.length === b[i].values.length && k.values.every((v, j) => v === b[i].values[j]))
  );
}

/**
 * Writes a sweep's own keys (no `v`, no base configuration: the app writes those from A). A preset
 * whose knobs were not edited is written by name; seeds and metrics only when not the defaults.
 */
export function serializeSweepUrl(def: SweepDefinition): string {
  const params = new URLSearchParams();
  const preset = def.preset !== null ? findPreset(def.preset) : undefined;
  if (preset && sameKnobs(preset.knobs, def.knobs)) params.set(`${SWEEP_PREFIX}preset`, preset.name);
  else for (const knob of def.knobs) params.set(`${SWEEP_PREFIX}${knob.key}`, knob.values.map(String).join(','));
  if (def.seeds !== DEFAULT_SWEEP_SEEDS) params.set(`${SWEEP_PREFIX}seeds`, String(def.seeds));
  const allMetrics = def.metrics.length === SWEEP_METRICS.length && SWEEP_METRICS.every((m) => def.metrics.includes(m));
  if (!allMetrics) params.set(`${SWEEP_PREFIX}metrics`, def.metrics.join(','));
  return params.toString();
}

/** The app's query with the sweep's keys appended (or removed, for `null`). */
export function withSweepParams(appQuery: string, def: SweepDefinition | null): string {
  const { app } = splitSweepParams(appQuery);
  if (def === null) return app;
  const sweep = serializeSweepUrl(def);
  return app === '' ? sweep : `${app}&${sweep}`;
}
