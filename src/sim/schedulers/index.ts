// Scheduler names (SPEC 12 `scheduler`) -> BatchScheduler instances over one simulator.
import type { Config, Graph, LoadedGraph, SchedulerName } from '../../engine/types.ts';
import type { EnvschedWasm } from '../../engine/wasm/index.ts';
import type { BatchScheduler } from '../scheduler.ts';
import type { Simulator } from '../simulator.ts';
import { DapoScheduler, DpsScheduler, MoppsScheduler, RandomScheduler } from './baselines.ts';
import { EnvSchedScheduler, ReferenceEnvSchedEngine, WasmEnvSchedEngine } from './envsched.ts';

/**
 * The scheduler `name` over the simulator's instance. The EnvSched family runs on `schedulerWasm`
 * (a second instance of the same module) when given, else on the TypeScript reference (slow).
 */
export function createScheduler(name: SchedulerName, sim: Simulator, loaded: LoadedGraph, graph: () => Graph, config: Config, schedulerWasm: EnvschedWasm | null): BatchScheduler {
  switch (name) {
    case 'random':
      return new RandomScheduler(sim, config.B);
    case 'dapo':
      return new DapoScheduler(sim, config.B);
    case 'mopps':
      return new MoppsScheduler(sim, config.B);
    case 'dps':
      return new DpsScheduler(sim, config.B);
    case 'envsched':
    case 'within-only':
    case 'cross-only':
    case 'coverage-only':
    case 'exploitation-only':
    {
      const c = { ...config, scheduler: name };
      const engine = schedulerWasm
        ? new WasmEnvSchedEngine(schedulerWasm, loaded.packed, loaded.meta.tasks.map((t) => t.id), c)
        : new ReferenceEnvSchedEngine(graph(), c);
      return new EnvSchedScheduler(name, engine);
    }
  }
}
