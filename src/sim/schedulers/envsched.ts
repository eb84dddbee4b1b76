// EnvSched and its ablations (SPEC 2-8) behind the simulator's BatchScheduler interface.
//
// Two engines: the WASM scheduler (src/engine/wasm, assembly/scheduler; used whenever an instance
// is supplied: milliseconds per step) and the plain TypeScript reference (src/reference, the oracle
// of the SPEC vectors; exact but it re-analyses the whole history each step, ~2 s per step on
// 2,550 tasks), kept as a fallback and for cross-checking the two on a small pool.
import type { CapRule, Config, Graph, Observation, PackedGraph, Phase, SchedulerName } from '../../engine/types.ts';
import { PHASES, WasmScheduler, type EnvschedWasm } from '../../engine/wasm/index.ts';
import { analyse } from '../../reference/index.ts';
import type { BatchScheduler, ChosenBatch, StepGroups } from '../scheduler.ts';

/** What the run loop needs of an EnvSched implementation. */
export interface EnvSchedEngine {
  /** Appends the groups observed at `step` (flags: rollouts whose suspicious identifier was confirmed). */
  append(observations: Observation[]): void;
  /** Optional fast path of append: the step's groups straight from the simulator's buffers (no objects). */
  appendGroups?(step: number, groups: StepGroups): void;
  /** The batch for `step` from the observations appended so far, with diagnostics. */
  choose(step: number): {
    batch: Int32Array;
    phases: Phase[];
    relaxed: CapRule[];
    progressExcluded: number;
    /** Predicted within-group variance (long half-life) of every task; null at the cold start. */
    predictedVariance: Float64Array | null;
  };
}

/** EnvSchedEngine over src/reference (exact, slow). */
export class ReferenceEnvSchedEngine implements EnvSchedEngine {
  private readonly observations: Observation[] = [];
  constructor(private readonly graph: Graph, private readonly config: Config) {}
  append(observations: Observation[]): void {
    for (const o of observations) this.observations.push(o);
  }
  choose(step: number) {
    const a = analyse(this.graph, this.observations, this.config, step);
    let progressExcluded = 0;
    if (a.progress) for (const p of a.progress.perTask) if (p.excluded) progressExcluded++;
    return {
      batch: Int32Array.from(a.result.batch.map((p) => p.task)),
      phases: a.result.batch.map((p) => p.phase),
      relaxed: [...a.result.relaxed],
      progressExcluded,
      predictedVariance: a.halfLives ? Float64Array.from(a.halfLives.long.tasks.map((t) => t.predicted.v)) : null,
    };
  }
}

/** EnvSchedEngine over the WASM kernels (its own instance: loadGraph resets that instance's heap). */
export class WasmEnvSchedEngine implements EnvSchedEngine {
  private readonly scheduler: WasmScheduler;
  constructor(wasm: EnvschedWasm, packed: PackedGraph, taskIds: readonly string[], config: Config) {
    this.scheduler = new WasmScheduler(wasm);
    this.scheduler.loadGraph(packed, taskIds);
    this.scheduler.configure(config);
  }
  append(observations: Observation[]): void {
    if (observations.length > 0) this.scheduler.appendStep(observations[0].step, observations);
  }
  appendGroups(step: number, g: StepGroups): void {
    this.scheduler.appendGroups(step, g.tasks, g.K, g.rewards, g.flags);
  }
  choose(step: number) {
    const result = this.scheduler.scoreStep(step);
    const v = this.scheduler.views();
    let progressExcluded = 0;
    for (let i = 0; i < v.excluded.length; i++) progressExcluded += v.excluded[i];
    return {
      batch: v.batchTask.slice(),
      phases: Array.from(v.batchPhase, (p) => PHASES[p]),
      relaxed: result.relaxed,
      progressExcluded,
      predictedVariance: result.coldStart ? null : v.longV.slice(),
    };
  }
}

export class EnvSchedScheduler implements BatchScheduler {
  readonly dynamicSampling = false;
  readonly identifierFilter = true; // SPEC 8
  private lastPredicted: Float64Array | null = null;
  constructor(readonly name: SchedulerName, private readonly engine: EnvSchedEngine) {}
  choose(step: number): ChosenBatch {
    const c = this.engine.choose(step);
    this.lastPredicted = c.predictedVariance;
    return { tasks: c.batch, phases: c.phases, relaxed: c.relaxed, progressExcluded: c.progressExcluded };
  }
  observe(step: number, g: StepGroups): void {
    if (this.engine.appendGroups) {
      this.engine.appendGroups(step, g);
      return;
    }
    const obs: Observation[] = [];
    for (let b = 0; b < g.tasks.length; b++) {
      const rewards = Array.from(g.rewards.subarray(b * g.K, (b + 1) * g.K));
      const flags = Array.from(g.flags.subarray(b * g.K, (b + 1) * g.K), (f) => f === 1);
      obs.push(flags.some((f) => f) ? { step, task: g.tasks[b], rewards, flags } : { step, task: g.tasks[b], rewards });
    }
    this.engine.append(obs);
  }
  predicted(): Float64Array | null {
    return this.lastPredicted;
  }
}
