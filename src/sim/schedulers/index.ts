// Scheduler names (SPEC 12 `scheduler`) -> BatchScheduler instances over one simulator.
import type { Config, LoadedGraph, SchedulerName } from '../../engine/types.ts';
import type { EnvschedWasm } from '../../engine/wasm/index.ts';
import type { BatchScheduler } from '../scheduler.ts';
import type { Simulator } from '../simulator.ts';
import { DapoScheduler, DpsScheduler, MoppsScheduler, RandomScheduler } from './baselines.ts';
import { EnvSchedScheduler } from './envsched.ts';

/** The scheduler `name`: baselines over the simulator's instance, the EnvSched family on `schedulerWasm` (a second instance of the same module). */
export function createScheduler(
  name: SchedulerName,
  sim: Simulator,
  loaded: LoadedGraph,
  config: Config,
  schedulerWasm: EnvschedWasm,
): BatchScheduler {
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
      return new EnvSchedScheduler(
        name,
        schedulerWasm,
        loaded.packed,
        loaded.meta.tasks.map((t) => t.id),
        { ...config, scheduler: name },
      );
  }
}
