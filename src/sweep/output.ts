// A sweep's files: CSV (one row per point and metric: knob values, n, mean, sd, 95% band, the
// per-seed values, the world it ran in) and JSON (the definition, every point with its seeds'
// fingerprints). The CLI and the browser's "Export CSV" write the same text.
import { CONFIG_KEYS } from '../engine/config.ts';
import type { Config } from '../engine/types.ts';
import { DEFAULT_CONFIG } from '../engine/config.ts';
import { worldChangesText } from '../sim/model-params.ts';
import type { SweepDefinition } from './definition.ts';
import type { Shard, SweepPointResult, SweepResult } from './runner.ts';

/** What the CSV needs of a sweep (a merged set of shard files has exactly this). */
export interface SweepTable {
  definition: Pick<SweepDefinition, 'knobs' | 'metrics' | 'world'>;
  points: Pick<SweepPointResult, 'values' | 'seeds' | 'metrics'>[];
}

function num(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '' : String(x);
}

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function sweepToCsv(result: SweepTable): string {
  const { definition: def } = result;
  const header = [...def.knobs.map((k) => k.key), 'metric', 'n', 'mean', 'sd', 'ci95_lo', 'ci95_hi', 'seeds', 'values', 'world'];
  const lines = [header.join(',')];
  // The sweep's world as --world takes it ('' = the calibrated one), so that a CSV alone says where its numbers come from.
  const world = csvCell(worldChangesText(def.world ?? {}, ','));
  for (const point of result.points) {
    for (const metric of def.metrics) {
      const m = point.metrics[metric];
      if (!m) continue;
      lines.push(
        [
          ...point.values.map((v) => csvCell(String(v))),
          metric,
          String(m.stats.n),
          num(m.stats.mean),
          num(m.stats.sd),
          num(m.stats.lo),
          num(m.stats.hi),
          point.seeds.join(' '),
          m.values.map((v) => (v === null ? 'NA' : String(v))).join(' '),
          world,
        ].join(','),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The base configuration's keys that differ from SPEC 11 defaults (the JSON stays readable). */
function nonDefault(config: Config): Partial<Config> {
  const out: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const a = config[key];
    const b = DEFAULT_CONFIG[key];
    const same = Array.isArray(a) && Array.isArray(b) ? a.every((x, k) => x === b[k]) : a === b;
    if (!same) out[key] = a;
  }
  return out as Partial<Config>;
}

/**
 * The JSON file. A shard's file (`sweep --shard i/n`) also says which shard it is, which points it
 * holds and how many runs the whole sweep needs, so that sweep-merge can write the file one
 * machine would have written.
 */
export function sweepToJson(result: SweepResult, shard?: { shard: Shard; totalRuns: number }): string {
  const def = result.definition;
  const body: Record<string, unknown> = {
    format: 'envsched-sweep',
    version: 1,
    preset: def.preset,
    dataset: def.base.dataset,
    steps: def.base.T,
    seeds: def.seeds,
    knobs: def.knobs,
    metrics: def.metrics,
    base: nonDefault(def.base),
    world: def.world ?? {},
    runs: result.runs,
    cachedRuns: result.cachedRuns,
    cancelled: result.cancelled,
    points: result.points.map((p) => ({ values: p.values, seeds: p.seeds, fingerprints: p.fingerprints, metrics: p.metrics })),
  };
  if (shard)
    body.shard = {
      index: shard.shard.index,
      count: shard.shard.count,
      points: result.points.map((p) => p.index),
      totalRuns: shard.totalRuns,
    };
  return sweepJsonText(body);
}

/** The one way sweep files are written (non-finite numbers as null). */
export function sweepJsonText(body: Record<string, unknown>): string {
  return `${JSON.stringify(body, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 1)}\n`;
}

/** A short table for the terminal: one row per point, mean +/- band half-width per metric. */
export function sweepTable(result: SweepResult): string {
  const def = result.definition;
  const fmt = (x: number | null, d: number) => (x === null ? '-' : x.toFixed(d));
  const digits = (metric: string) => (metric === 'mean_variance' ? 4 : metric === 'steps_to_random_best' ? 1 : 2);
  const header = [...def.knobs.map((k) => k.key), ...def.metrics.map((m) => `${m} (mean ±95%)`)];
  const rows = result.points.map((p) => [
    ...p.values.map(String),
    ...def.metrics.map((m) => {
      const s = p.metrics[m]?.stats;
      if (!s || s.mean === null) return '-';
      const half = s.hi !== null ? ` ±${fmt(s.hi - s.mean, digits(m))}` : '';
      return `${fmt(s.mean, digits(m))}${half}${s.n < p.seeds.length ? ` (n=${s.n})` : ''}`;
    }),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => cell.padStart(widths[c])).join('  ');
  const status = result.cancelled ? ' (cancelled: partial results)' : '';
  const changes = worldChangesText(def.world ?? {});
  const worldText = changes === '' ? '' : `; world: the calibrated defaults except ${changes}`;
  return [
    `sweep on ${def.base.dataset}: ${result.points.length} point(s) x ${def.seeds} seed(s), ${def.base.T} steps, scheduler ${def.base.scheduler}${worldText}; ${result.runs} runs (${result.cachedRuns} cached)${status}`,
    line(header),
    ...rows.map(line),
    '',
  ].join('\n');
}
