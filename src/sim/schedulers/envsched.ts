// EnvSched and its ablations (SPEC 2-8) behind the simulator's BatchScheduler interface, on the
// WASM scheduler (src/engine/wasm, assembly/scheduler): a second instance of the module, since
// loadGraph resets that instance's heap. The TypeScript reference (src/reference) is the test
// oracle of these kernels, not a run-time fallback.
import type { Config, PackedGraph, SchedulerName } from '../../engine/types.ts';
import { PHASES, schedulerFor, type EnvschedWasm, type WasmScheduler } from '../../engine/wasm/index.ts';
import type { BatchScheduler, ChosenBatch, StepGroups } from '../scheduler.ts';

export class EnvSchedScheduler implements BatchScheduler {
  readonly dynamicSampling = false;
  private readonly scheduler: WasmScheduler;
  private lastPredicted: Float64Array | null = null;

  constructor(
    readonly name: SchedulerName,
    wasm: EnvschedWasm,
    packed: PackedGraph,
    taskIds: readonly string[],
    config: Config,
  ) {
    this.scheduler = schedulerFor(wasm, packed, taskIds);
    this.scheduler.configure(config);
  }

  choose(step: number): ChosenBatch {
    const result = this.scheduler.scoreStep(step);
    const v = this.scheduler.views();
    let progressExcluded = 0;
    for (let i = 0; i < v.excluded.length; i++) progressExcluded += v.excluded[i];
    this.lastPredicted = result.coldStart ? null : v.longV.slice();
    return { tasks: v.batchTask.slice(), phases: Array.from(v.batchPhase, (p) => PHASES[p]), relaxed: result.relaxed, progressExcluded };
  }

  /** Appends the step's groups; returns the tasks the scheduler's identifier filter (SPEC 8) removes for them. */
  observe(step: number, g: StepGroups): number[] {
    const before = this.scheduler.observationCount;
    this.scheduler.appendGroups(step, g.tasks, g.K, g.rewards, g.flags);
    return this.scheduler.removalsSince(before);
  }

  predicted(): Float64Array | null {
    return this.lastPredicted;
  }

  /** The priorities q (SPEC 5) behind the last choice, copied; null after a cold start. For diagnostics. */
  priorities(): Float64Array | null {
    return this.lastPredicted && this.scheduler.views().q.slice();
  }

  /** The progress filter's flags (SPEC 8, 1 = excluded from exploitation) behind the last choice, copied; null after a cold start. For diagnostics. */
  progressFiltered(): Uint8Array | null {
    return this.lastPredicted && Uint8Array.from(this.scheduler.views().excluded);
  }
}
