// Sweeps too large for one machine: `envsched sweep --shard i/n` writes one slice of the points
// (a Slurm job array or a Kubernetes Indexed Job runs one shard per task) and `envsched
// sweep-merge` joins the shard files into the file one machine would have written.
import { InputError } from '../engine/errors.ts';
import { isPlainObject, parseJsonText } from '../engine/json-text.ts';
import { sweepJsonText, type SweepTable } from './output.ts';
import type { Shard } from './runner.ts';

/** Parses `i/n` (0 <= i < n). */
export function parseShard(text: string, source: string, place: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) throw new InputError(source, place, `must be i/n with 0 <= i < n (e.g. 0/4), got ${JSON.stringify(text)}`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > 100_000 || index >= count)
    throw new InputError(source, place, `must be i/n with 0 <= i < n <= 100000, got ${text}`);
  return { index, count };
}

/** The fields every shard of one sweep shares (the definition). */
const DEFINITION = ['format', 'version', 'preset', 'dataset', 'steps', 'seeds', 'knobs', 'metrics', 'base', 'world'] as const;

export interface MergedSweep {
  json: string;
  table: SweepTable;
}

export function mergeShards(files: readonly { source: string; text: string }[]): MergedSweep {
  if (files.length === 0) throw new InputError('command line', 'files', 'give the shard files to merge');
  const parsed = files.map(({ source, text }) => {
    const raw = parseJsonText(text, source);
    if (!isPlainObject(raw) || raw.format !== 'envsched-sweep' || raw.version !== 1)
      throw new InputError(source, 'format', 'not an envsched sweep JSON file (version 1)');
    const shard = raw.shard;
    if (
      !isPlainObject(shard) ||
      typeof shard.index !== 'number' ||
      typeof shard.count !== 'number' ||
      !Array.isArray(shard.points) ||
      typeof shard.totalRuns !== 'number'
    ) {
      throw new InputError(source, 'shard', 'not a shard file (write shards with envsched sweep --shard i/n --out F.json)');
    }
    if (raw.cancelled === true) throw new InputError(source, 'cancelled', 'this shard was cancelled before it finished: run it again');
    if (!Array.isArray(raw.points) || raw.points.length !== shard.points.length)
      throw new InputError(source, 'points', 'does not match its shard.points list');
    raw.points.forEach((point: unknown, k) => {
      if (!isPlainObject(point) || !Array.isArray(point.values) || !Array.isArray(point.seeds) || !isPlainObject(point.metrics))
        throw new InputError(source, `points[${k}]`, 'must be {"values", "seeds", "fingerprints", "metrics"}');
      if (typeof (shard.points as unknown[])[k] !== 'number') throw new InputError(source, `shard.points[${k}]`, 'must be a point index');
    });
    return { source, raw, shard: shard as { index: number; count: number; points: number[]; totalRuns: number } };
  });
  const first = parsed[0];
  const count = first.shard.count;
  const byIndex = new Map<number, string>();
  for (const p of parsed) {
    for (const key of DEFINITION) {
      if (JSON.stringify(p.raw[key]) !== JSON.stringify(first.raw[key]))
        throw new InputError(p.source, key, `differs from ${first.source}: the shards are not of one sweep`);
    }
    if (p.shard.count !== count) throw new InputError(p.source, 'shard.count', `is ${p.shard.count}, ${first.source} says ${count}`);
    const twin = byIndex.get(p.shard.index);
    if (twin !== undefined) throw new InputError(p.source, 'shard.index', `shard ${p.shard.index} is also ${twin}`);
    byIndex.set(p.shard.index, p.source);
  }
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0) throw new InputError('command line', 'files', `shards ${missing.join(', ')} of ${count} are missing`);

  const points = new Map<number, unknown>();
  for (const p of parsed) p.shard.points.forEach((index, k) => points.set(index, (p.raw.points as unknown[])[k]));
  const knobs = first.raw.knobs as { values: unknown[] }[];
  const total = knobs.reduce((n, k) => n * k.values.length, 1);
  for (let i = 0; i < total; i++) if (!points.has(i)) throw new InputError('command line', 'files', `no shard holds point ${i}`);
  const ordered = Array.from({ length: total }, (_, i) => points.get(i));
  const body: Record<string, unknown> = {};
  for (const key of DEFINITION) body[key] = first.raw[key];
  body.runs = first.shard.totalRuns;
  body.cachedRuns = parsed.reduce((n, p) => n + Number(p.raw.cachedRuns ?? 0), 0);
  body.cancelled = false;
  body.points = ordered;
  return {
    json: sweepJsonText(body),
    table: {
      definition: { knobs: first.raw.knobs, metrics: first.raw.metrics, world: first.raw.world } as SweepTable['definition'],
      points: ordered as SweepTable['points'],
    },
  };
}
