// One run of a sweep: a whole simulation (src/sim/run.ts) reduced to what the sweep keeps. The
// Node worker threads, the browser's Web Workers and the in-process executor all call this, so a
// sweep point is exactly `envsched simulate` with the same configuration and seed.
import type { Config, LoadedGraph } from '../engine/types.ts';
import { DEFAULT_SIM_MODEL, type SimModelParams } from '../sim/model-params.ts';
import { runSimulation, type RunSummary, type RunWasm } from '../sim/run.ts';

export interface PointRun {
  fingerprint: string;
  summary: RunSummary;
  /** Held-out score (mean over suites) after each step: AUC and steps-to-random's-best come from it. */
  heldout: number[];
}

/** What an executor is asked to do: one configuration (config.T steps, config.seed, config.dataset) in one world. */
export interface RunRequest {
  config: Config;
  /** The world's parameters that differ from the calibrated defaults (empty or absent: the calibrated world). */
  world?: Partial<SimModelParams>;
}

export function runPoint(wasm: RunWasm, loaded: LoadedGraph, request: RunRequest, source: string): PointRun {
  const result = runSimulation(wasm, loaded, request.config, source, { model: { ...DEFAULT_SIM_MODEL, ...request.world } });
  return { fingerprint: result.fingerprint, summary: result.summary, heldout: result.steps.map((s) => s.heldoutOverall) };
}
