// Runs cached by canonical configuration ("repeating a point costs nothing"). The key is
// every SPEC 12 configuration key in one fixed order, so it covers the seed, the dataset and the
// number of steps (T); two configurations that differ in any knob never share an entry.
import { CONFIG_KEYS } from '../engine/config.ts';
import type { Config } from '../engine/types.ts';
import type { PointRun } from './point.ts';

/** A stable text for a configuration: values in CONFIG_KEYS order (object key order cannot leak in). */
export function canonicalConfigKey(config: Config): string {
  return JSON.stringify(CONFIG_KEYS.map((key) => config[key]));
}

export class RunCache {
  private readonly runs = new Map<string, PointRun>();
  hits = 0;
  misses = 0;

  constructor(private readonly capacity = 100_000) {}

  get(config: Config): PointRun | undefined {
    const run = this.runs.get(canonicalConfigKey(config));
    if (run) this.hits++;
    else this.misses++;
    return run;
  }

  set(config: Config, run: PointRun): void {
    const key = canonicalConfigKey(config);
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
