// One run of a sweep: a whole simulation (src/sim/run.ts) reduced to what the sweep keeps. The
// Node worker threads, the browser's Web Workers and the in-process executor all call this, so a
// sweep point is exactly `envsched simulate` with the same configuration and seed.
import type { Config, LoadedGraph } from '../engine/types.ts';
import { runSimulation, type RunSummary, type RunWasm } from '../sim/run.ts';

export interface PointRun {
  fingerprint: string;
  summary: RunSummary;
  /** Held-out score (mean over suites) after each step: AUC and steps-to-random's-best come from it. */
  heldout: number[];
}

/** What an executor is asked to do: one configuration (config.T steps, config.seed, config.dataset). */
export interface RunRequest {
  config: Config;
}

export function runPoint(wasm: RunWasm, loaded: LoadedGraph, config: Config, source: string): PointRun {
  const result = runSimulation(wasm, loaded, config, source);
  return { fingerprint: result.fingerprint, summary: result.summary, heldout: result.steps.map((s) => s.heldoutOverall) };
}
