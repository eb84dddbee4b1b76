// One simulated run in the worker, recorded for the views. src/sim's SimulationRun does the work
// through its step-by-step API (`step()`), so a run here is the same run, with the same
// fingerprint, as `envsched run` on the command line; this class keeps what the page asks for
// later (the history for the inspector and for export, the pool-wide prediction and truth of every
// step for the scatter) and turns each step into the small record that is streamed to the page.
//
// Cost: the recording is a few typed-array copies per step into buffers allocated once per run
// (no per-step objects beyond the streamed record); observations become SPEC 12 objects only when
// the inspector or an export first asks for them.
import type { Config, LoadedGraph, Observation } from '../engine/types.ts';
import { SimulationRun, type RunResult, type RunWasm } from '../sim/run.ts';
import type { SimModelParams } from '../sim/model-params.ts';
import type { PoolSnapshot, StepRecord } from './api.ts';

/** The groups of one step, as the scheduler observed them (copied out of WASM memory). */
interface StepGroupsCopy {
  tasks: Int32Array;
  /** rewards[b*K + k] */
  rewards: Float64Array;
  /** Confirmed suspicious rollouts (SPEC 8), null when none was flagged at this step. */
  flags: Uint8Array | null;
}

export class RunSession {
  readonly run: SimulationRun;
  readonly nTasks: number;
  /** Step t's pool-wide values sit at [t*nTasks, (t+1)*nTasks) (Float32: what the scatter draws). */
  private readonly predictedBuf: Float32Array;
  private readonly hasPredicted: Uint8Array;
  private readonly truthVarianceBuf: Float32Array;
  private readonly truthMeanBuf: Float32Array;
  private readonly groups: StepGroupsCopy[] = [];
  private observationCache: Observation[] | null = null;
  result: RunResult | null = null;

  constructor(
    wasm: RunWasm,
    loaded: LoadedGraph,
    readonly config: Config,
    readonly runId: number,
    source: string,
    model?: SimModelParams,
  ) {
    this.run = new SimulationRun(wasm, loaded, config, source, { model });
    this.nTasks = loaded.packed.nTasks;
    const cells = this.run.totalSteps * this.nTasks;
    this.predictedBuf = new Float32Array(cells);
    this.hasPredicted = new Uint8Array(this.run.totalSteps);
    this.truthVarianceBuf = new Float32Array(cells);
    this.truthMeanBuf = new Float32Array(cells);
  }

  get done(): boolean {
    return this.run.done;
  }

  get stepsDone(): number {
    return this.run.stepsDone;
  }

  /** Takes the next step, records it, and returns the record streamed to the page. */
  step(): StepRecord {
    const d = this.run.step();
    const t = d.metrics.step;
    const at = t * this.nTasks;
    this.truthVarianceBuf.set(d.truthVariance, at);
    this.truthMeanBuf.set(d.truthMean, at);
    let predictedBatchVariance: number | null = null;
    if (d.predicted) {
      this.hasPredicted[t] = 1;
      this.predictedBuf.set(d.predicted, at);
      const batch = d.metrics.batch;
      if (batch.length > 0) {
        let s = 0;
        for (const task of batch) s += d.predicted[task];
        predictedBatchVariance = s / batch.length;
      }
    }
    const g = d.groups;
    const flagged = g.flags.some((f) => f === 1);
    this.groups.push({
      tasks: g.tasks.slice(),
      rewards: g.rewards.slice(0, g.tasks.length * g.K),
      flags: flagged ? Uint8Array.from(g.flags) : null,
    });
    this.observationCache = null;
    if (this.run.done) this.result = this.run.result();
    return { metrics: d.metrics, phases: d.phases ? [...d.phases] : null, predictedBatchVariance };
  }

  /** The history so far as SPEC 12 observations (flags only on groups with a confirmed flag). */
  get observations(): Observation[] {
    if (this.observationCache) return this.observationCache;
    const K = this.config.K;
    const out: Observation[] = [];
    this.groups.forEach((g, step) => {
      for (let b = 0; b < g.tasks.length; b++) {
        const rewards = Array.from(g.rewards.subarray(b * K, (b + 1) * K));
        const flags = g.flags ? Array.from(g.flags.subarray(b * K, (b + 1) * K), (f) => f === 1) : null;
        out.push(flags && flags.some((f) => f) ? { step, task: g.tasks[b], rewards, flags } : { step, task: g.tasks[b], rewards });
      }
    });
    return (this.observationCache = out);
  }

  /** Predicted vs true variance over the pool at `step` (fresh copies: the caller may transfer them). */
  pool(step: number): PoolSnapshot | null {
    if (step < 0 || step >= this.stepsDone) return null;
    const from = step * this.nTasks;
    const to = from + this.nTasks;
    return {
      step,
      predicted: this.hasPredicted[step] ? this.predictedBuf.slice(from, to) : null,
      truth: this.truthVarianceBuf.slice(from, to),
      truthMean: this.truthMeanBuf.slice(from, to),
    };
  }

  /** The simulator's exact expected reward and variance of one task at one step. */
  truthAt(step: number, task: number): { mean: number; variance: number } | null {
    if (step < 0 || step >= this.stepsDone || task < 0 || task >= this.nTasks) return null;
    const i = step * this.nTasks + task;
    return { mean: this.truthMeanBuf[i], variance: this.truthVarianceBuf[i] };
  }
}
