// Builds a Scheduler over a compiled module, browser and Node alike: two instances of the module
// (the scheduler kernels, and the baselines' drivers), the graph loaded by the caller's loader.
import { InputError } from '../engine/errors.ts';
import type { Config, GraphMeta, LoadedGraph, Observation } from '../engine/types.ts';
import { instantiateEnvsched, WasmScheduler } from '../engine/wasm/index.ts';
import { instantiateSimWasm } from '../sim/wasm.ts';
import { BaselineRunner } from './baselines.ts';
import { Scheduler, servableConfig } from './scheduler.ts';

/** Loads a graph into the scheduler's instance and returns its metadata. */
export type GraphLoader = (scheduler: WasmScheduler) => GraphMeta | Promise<GraphMeta>;

/** A loader for a graph already in memory (decoded JSON or binary). */
export function loadedGraph(loaded: LoadedGraph): GraphLoader {
  return (scheduler) => {
    scheduler.loadGraph(
      loaded.packed,
      loaded.meta.tasks.map((t) => t.id),
    );
    return loaded.meta;
  };
}

export async function createSchedulerFromModule(
  module: WebAssembly.Module,
  load: GraphLoader,
  config: Config,
  source = 'config',
  history?: readonly Observation[],
): Promise<Scheduler> {
  servableConfig(config, source);
  const wasm = new WasmScheduler(await instantiateEnvsched(module));
  const meta = await load(wasm);
  if (meta.tasks.length === 0) throw new InputError('graph', 'tasks', 'a graph needs at least one task');
  const baselines = new BaselineRunner(await instantiateSimWasm({ module }), meta.tasks.length);
  const scheduler = new Scheduler(wasm, baselines, meta, config);
  if (history) scheduler.loadHistory(history);
  return scheduler;
}
