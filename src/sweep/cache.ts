// Runs cached by canonical configuration and world ("repeating a point costs nothing"). The key
// is every SPEC 12 configuration key in one fixed order, so it covers the seed, the dataset and
// the number of steps (T), then the world's changes to the calibrated one in name order; two runs
// that differ in any knob or any world parameter never share an entry.
import { CONFIG_KEYS } from '../engine/config.ts';
import type { Config } from '../engine/types.ts';
import type { PointRun, RunRequest } from './point.ts';

/** A stable text for a configuration: values in CONFIG_KEYS order (object key order cannot leak in). */
export function canonicalConfigKey(config: Config): string {
  return JSON.stringify(CONFIG_KEYS.map((key) => config[key]));
}

/** A stable text for a run: its configuration's key, then the world's changes (none: the calibrated world). */
export function runKey(request: RunRequest): string {
  const world = Object.entries(request.world ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return world.length === 0 ? canonicalConfigKey(request.config) : `${canonicalConfigKey(request.config)} ${JSON.stringify(world)}`;
}

export class RunCache {
  private readonly runs = new Map<string, PointRun>();
  hits = 0;
  misses = 0;

  constructor(private readonly capacity = 100_000) {}

  get(request: RunRequest): PointRun | undefined {
    const run = this.runs.get(runKey(request));
    if (run) this.hits++;
    else this.misses++;
    return run;
  }

  set(request: RunRequest, run: PointRun): void {
    const key = runKey(request);
    this.runs.delete(key);
    this.runs.set(key, run);
    // Oldest first out: a long browser session cannot grow without bound.
    while (this.runs.size > this.capacity) this.runs.delete(this.runs.keys().next().value!);
  }

  get size(): number {
    return this.runs.size;
  }

  clear(): void {
    this.runs.clear();
  }
}
