// Drives the scheduler kernels of build/envsched.wasm (SPEC 2-8): packs a graph and a history into
// linear memory once, then scores any step t (observations with s < t) into the SPEC 12 Scores
// shape, or exposes the raw per-task arrays as typed-array views (no copies) for callers such as
// the library (src/api) and the simulator's EnvSched driver.
import { effectiveRho } from '../config.ts';
import {
  SCORABLE_SCHEDULERS,
  type CapRule,
  type Config,
  type CsrList,
  type Observation,
  type PackedGraph,
  type Scores,
  type TaskScores,
} from '../types.ts';
import { CFG_SLOTS, CONFIG_NAMES, INFO, INFO_SLOTS, PHASES, PRIOR, PTR, RELAXED } from './layout.ts';
import type { EnvschedWasm } from './loader.ts';

/** Zero-copy views of one score's outputs; invalid after the next call that may allocate. */
export interface SchedulerViews {
  longV: Float64Array;
  longM: Float64Array;
  longD: Float64Array;
  longU: Float64Array;
  shortV: Float64Array;
  shortM: Float64Array;
  shortD: Float64Array;
  shortU: Float64Array;
  u: Float64Array;
  q: Float64Array;
  /** 1 = removed by the identifier filter (SPEC 8). */
  removed: Uint8Array;
  /** 1 = excluded from exploitation by the progress filter (SPEC 8). */
  excluded: Uint8Array;
  /** B_t: long v, m, d, short v, m, d. */
  reference: Float64Array;
  /** The batch in pick order (length = batchLength). */
  batchTask: Int32Array;
  /** Phase codes (index into PHASES). */
  batchPhase: Uint8Array;
  info: Int32Array;
}

export interface StepResult {
  step: number;
  batchLength: number;
  coldStart: boolean;
  relaxed: CapRule[];
}

const MAX_STEP = 2 ** 31 - 2;

/** Sizes of a graph, for beginGraph. */
export interface GraphSizes {
  nTasks: number;
  nEnvs: number;
  nCategories: number;
  nnzWithin: number;
  nnzCross: number;
  nnzFullCross: number;
}

/** Views of the graph buffers in linear memory (SPEC 1 lists as CSR). */
export interface GraphBuffers {
  taskEnv: Int32Array;
  envCategory: Int32Array;
  within: CsrList;
  cross: CsrList;
  fullCross: CsrList;
}

function priorOf(scheduler: Config['scheduler']): number {
  if (scheduler === 'within-only') return PRIOR.withinOnly;
  if (scheduler === 'cross-only') return PRIOR.crossOnly;
  return PRIOR.fused;
}

export class WasmScheduler {
  private taskIds: readonly string[] = [];
  private nTasks = 0;
  private lastStep = -1;

  constructor(readonly wasm: EnvschedWasm) {}

  private get x() {
    return this.wasm.exports;
  }

  private ptr(slot: number): number {
    return this.x.sched_ptr(slot) >>> 0; // pointers above 2 GiB come back as negative i32
  }

  private f64(slot: number, length: number): Float64Array {
    return new Float64Array(this.wasm.memory.buffer, this.ptr(slot), length);
  }

  private i32(slot: number, length: number): Int32Array {
    return new Int32Array(this.wasm.memory.buffer, this.ptr(slot), length);
  }

  private u8(slot: number, length: number): Uint8Array {
    return new Uint8Array(this.wasm.memory.buffer, this.ptr(slot), length);
  }

  /** The last stored step (-1 when the history is empty). */
  get lastStoredStep(): number {
    return this.lastStep;
  }

  /**
   * Copies a packed graph into fresh linear memory. Resets the whole heap (mem_reset): every
   * earlier pointer into this instance, the simulator's included, becomes invalid.
   */
  loadGraph(packed: PackedGraph, taskIds: readonly string[]): void {
    const n = packed.nTasks;
    if (!Number.isInteger(n) || n < 1) throw new Error(`loadGraph: a graph needs at least one task, got ${n}`);
    if (taskIds.length !== n) throw new Error(`loadGraph: ${taskIds.length} task ids for ${n} tasks`);
    if (packed.taskEnv.length !== n || packed.envCategory.length !== packed.nEnvs)
      throw new Error('loadGraph: taskEnv / envCategory sizes do not match the graph');
    for (const [name, list] of [
      ['within', packed.within],
      ['cross', packed.cross],
      ['fullCross', packed.fullCross],
    ] as const) {
      if (list.offsets.length !== n + 1 || list.index.length !== list.sim.length || list.offsets[n] !== list.index.length) {
        throw new Error(`loadGraph: malformed ${name} lists`);
      }
    }
    const buffers = this.beginGraph({
      nTasks: n,
      nEnvs: packed.nEnvs,
      nCategories: packed.nCategories,
      nnzWithin: packed.within.index.length,
      nnzCross: packed.cross.index.length,
      nnzFullCross: packed.fullCross.index.length,
    });
    buffers.taskEnv.set(packed.taskEnv);
    buffers.envCategory.set(packed.envCategory);
    for (const name of ['within', 'cross', 'fullCross'] as const) {
      buffers[name].offsets.set(packed[name].offsets);
      buffers[name].index.set(packed[name].index);
      buffers[name].sim.set(packed[name].sim);
    }
    this.finishGraph(taskIds);
  }

  /**
   * First half of loading a graph without a JS copy (e.g. straight from a binary file, see
   * graph-file-node.ts): resets the heap, allocates the graph buffers and returns views of them to
   * fill. The views stay valid until finishGraph (nothing allocates in between).
   */
  beginGraph(sizes: GraphSizes): GraphBuffers {
    const { nTasks: n, nEnvs, nnzWithin, nnzCross, nnzFullCross } = sizes;
    if (!Number.isInteger(n) || n < 1) throw new Error(`loadGraph: a graph needs at least one task, got ${n}`);
    this.nTasks = 0; // no graph until finishGraph
    this.lastStep = -1;
    const x = this.x;
    x.mem_reset();
    x.sched_graph_init(n, nEnvs, Math.max(1, sizes.nCategories), nnzWithin, nnzCross, nnzFullCross);
    const list = (off: number, idx: number, sim: number, nnz: number): CsrList => ({
      offsets: this.i32(off, n + 1),
      index: this.i32(idx, nnz),
      sim: this.f64(sim, nnz),
    });
    return {
      taskEnv: this.i32(PTR.taskEnv, n),
      envCategory: this.i32(PTR.envCategory, nEnvs),
      within: list(PTR.withinOffsets, PTR.withinIndex, PTR.withinSim, nnzWithin),
      cross: list(PTR.crossOffsets, PTR.crossIndex, PTR.crossSim, nnzCross),
      fullCross: list(PTR.fullCrossOffsets, PTR.fullCrossIndex, PTR.fullCrossSim, nnzFullCross),
    };
  }

  /** Second half: validates the CSR structure in the kernels and builds every per-graph structure. */
  finishGraph(taskIds: readonly string[]): void {
    this.x.sched_graph_ready();
    this.taskIds = taskIds;
    this.nTasks = taskIds.length;
    this.lastStep = -1;
  }

  private requireGraph(): void {
    if (this.nTasks === 0) throw new Error('no graph loaded (call loadGraph first)');
  }

  /** Replaces the stored history (any order; a task at most once per step). */
  setHistory(observations: readonly Observation[]): void {
    this.requireGraph();
    this.x.sched_history_clear();
    this.lastStep = -1;
    const sorted = [...observations].sort((a, b) => a.step - b.step || a.task - b.task);
    let steps = 0;
    for (let k = 0; k < sorted.length; k++) if (k === 0 || sorted[k].step !== sorted[k - 1].step) steps++;
    this.x.sched_history_reserve(sorted.length, steps);
    let start = 0;
    while (start < sorted.length) {
      let end = start + 1;
      while (end < sorted.length && sorted[end].step === sorted[start].step) end++;
      this.appendStep(sorted[start].step, sorted.slice(start, end));
      start = end;
    }
  }

  /** Appends the observations of one step, later than every stored step (incremental use). */
  appendStep(step: number, observations: readonly Observation[]): void {
    this.requireGraph();
    if (!Number.isInteger(step) || step < 0 || step > MAX_STEP) throw new Error(`appendStep: bad step ${step}`);
    if (step <= this.lastStep) throw new Error(`appendStep: step ${step} is not after the last stored step ${this.lastStep}`);
    const x = this.x;
    let maxK = 1;
    for (const o of observations) maxK = Math.max(maxK, o.rewards.length);
    x.sched_reward_buffer(maxK);
    const memory = this.wasm.memory;
    const rewards = new Float64Array(memory.buffer, this.ptr(PTR.rewards), maxK);
    const flags = new Uint8Array(memory.buffer, this.ptr(PTR.rewardFlags), maxK);
    try {
      for (const o of observations) {
        if (o.step !== step) throw new Error(`appendStep(${step}): observation of step ${o.step}`);
        if (!Number.isInteger(o.task) || o.task < 0 || o.task >= this.nTasks)
          throw new Error(`appendStep(${step}): task index ${o.task} out of range`);
        rewards.set(o.rewards);
        const hasFlags = o.flags !== undefined && o.flags.length > 0;
        if (o.flags) for (let r = 0; r < o.rewards.length; r++) flags[r] = o.flags[r] ? 1 : 0;
        x.sched_stage_group(o.task, o.rewards.length, hasFlags ? 1 : 0);
      }
      x.sched_commit_step(step);
    } catch (error) {
      x.sched_stage_discard();
      throw error;
    }
    if (observations.length > 0) this.lastStep = step;
  }

  /**
   * appendStep without Observation objects: group b is task tasks[b] with rewards
   * rewards[b*K .. b*K+K) and flags (1 = flagged) at the same places. Stages exactly what appendStep
   * stages for the equivalent observations (flags only for a group with a flagged rollout).
   */
  appendGroups(step: number, tasks: Int32Array, K: number, rewards: Float64Array, flags: Int32Array): void {
    this.requireGraph();
    if (!Number.isInteger(step) || step < 0 || step > MAX_STEP) throw new Error(`appendGroups: bad step ${step}`);
    if (step <= this.lastStep) throw new Error(`appendGroups: step ${step} is not after the last stored step ${this.lastStep}`);
    const n = tasks.length;
    if (n === 0) return;
    if (rewards.length < n * K || flags.length < n * K)
      throw new Error(`appendGroups(${step}): ${n} groups of ${K} need ${n * K} rewards and flags`);
    const x = this.x;
    x.sched_reward_buffer(Math.max(1, K));
    const memory = this.wasm.memory;
    const staged = new Float64Array(memory.buffer, this.ptr(PTR.rewards), K);
    const stagedFlags = new Uint8Array(memory.buffer, this.ptr(PTR.rewardFlags), K);
    try {
      for (let b = 0; b < n; b++) {
        const task = tasks[b];
        if (task < 0 || task >= this.nTasks) throw new Error(`appendGroups(${step}): task index ${task} out of range`);
        const at = b * K;
        staged.set(rewards.subarray(at, at + K));
        let hasFlags = false;
        for (let r = 0; r < K; r++) if (flags[at + r] === 1) hasFlags = true;
        if (hasFlags) for (let r = 0; r < K; r++) stagedFlags[r] = flags[at + r] === 1 ? 1 : 0;
        x.sched_stage_group(task, K, hasFlags ? 1 : 0);
      }
      x.sched_commit_step(step);
    } catch (error) {
      x.sched_stage_discard();
      throw error;
    }
    this.lastStep = step;
  }

  /** Observations stored so far (all steps). */
  get observationCount(): number {
    return this.x.sched_obs_count();
  }

  /**
   * Tasks of the stored observations first..last whose group the SPEC 8 identifier filter removes
   * (the kernel's rule, applied when the group was appended), in storage order.
   */
  removalsSince(first: number): number[] {
    const n = this.x.sched_obs_count();
    const removes = this.u8(PTR.obsRemoves, n);
    const tasks = this.i32(PTR.obsTask, n);
    const out: number[] = [];
    for (let o = Math.max(0, first); o < n; o++) if (removes[o] !== 0) out.push(tasks[o]);
    return out;
  }

  /** Writes the configuration block (SPEC 11 keys; SPEC 12 ablations mapped to rho / prior). */
  configure(config: Config): void {
    if (!(SCORABLE_SCHEDULERS as readonly string[]).includes(config.scheduler)) {
      throw new Error(
        `scheduler "${config.scheduler}" is not scorable: scores are defined for ${SCORABLE_SCHEDULERS.join(', ')} (SPEC 12)`,
      );
    }
    const block = this.f64(PTR.config, CFG_SLOTS);
    CONFIG_NAMES.forEach((name, slot) => {
      block[slot] = name === 'rho' ? effectiveRho(config) : name === 'prior' ? priorOf(config.scheduler) : config[name];
    });
  }

  /** Scores step t with the configured block and chooses its batch (results: views()). */
  scoreStep(step: number): StepResult {
    this.requireGraph();
    if (!Number.isInteger(step) || step < 0 || step > MAX_STEP) throw new Error(`score: bad step ${step}`);
    const batchLength = this.x.sched_score(step);
    const info = this.i32(PTR.info, INFO_SLOTS);
    const relaxed: CapRule[] = [];
    for (let k = 0; k < info[INFO.relaxedCount]; k++) relaxed.push(RELAXED[info[INFO.relaxed0 + k]]);
    return { step, batchLength, coldStart: info[INFO.coldStart] === 1, relaxed };
  }

  /** SPEC 12 scores of step t (default: one past the last stored step). */
  score(config: Config, step: number = this.lastStep + 1): Scores {
    this.configure(config);
    const result = this.scoreStep(step);
    return this.toScores(result);
  }

  /** The views of the latest run (re-read after every call: memory may have grown). */
  views(): SchedulerViews {
    const n = this.nTasks;
    const info = this.i32(PTR.info, INFO_SLOTS);
    const b = info[INFO.batchLength];
    return {
      longV: this.f64(PTR.longV, n),
      longM: this.f64(PTR.longM, n),
      longD: this.f64(PTR.longD, n),
      longU: this.f64(PTR.longU, n),
      shortV: this.f64(PTR.shortV, n),
      shortM: this.f64(PTR.shortM, n),
      shortD: this.f64(PTR.shortD, n),
      shortU: this.f64(PTR.shortU, n),
      u: this.f64(PTR.u, n),
      q: this.f64(PTR.q, n),
      removed: this.u8(PTR.removed, n),
      excluded: this.u8(PTR.excluded, n),
      reference: this.f64(PTR.reference, 6),
      batchTask: this.i32(PTR.batchTask, b),
      batchPhase: this.u8(PTR.batchPhase, b),
      info,
    };
  }

  /** Builds the SPEC 12 object from the views of the latest run. */
  toScores(result: StepResult): Scores {
    const v = this.views();
    const ids = this.taskIds;
    const tasks: TaskScores[] = new Array(this.nTasks);
    for (let i = 0; i < this.nTasks; i++) {
      tasks[i] = result.coldStart
        ? { id: ids[i], progressExcluded: v.excluded[i] === 1, removed: v.removed[i] === 1 }
        : {
            id: ids[i],
            long: { v: v.longV[i], m: v.longM[i], d: v.longD[i], u: v.longU[i] },
            short: { v: v.shortV[i], m: v.shortM[i], d: v.shortD[i], u: v.shortU[i] },
            u: v.u[i],
            q: v.q[i],
            progressExcluded: v.excluded[i] === 1,
            removed: v.removed[i] === 1,
          };
    }
    const r = v.reference;
    return {
      step: result.step,
      reference: result.coldStart ? {} : { long: { v: r[0], m: r[1], d: r[2] }, short: { v: r[3], m: r[4], d: r[5] } },
      tasks,
      batch: Array.from(v.batchTask, (task, k) => ({ id: ids[task], phase: PHASES[v.batchPhase[k]] })),
      relaxed: result.relaxed,
    };
  }
}

/** Schedulers whose graph was loaded ahead of their run, one per instance, taken once. */
const prepared = new WeakMap<EnvschedWasm, { packed: PackedGraph; taskIds: readonly string[]; scheduler: WasmScheduler }>();

/**
 * Loads a graph into a fresh instance ahead of the run that will use it (the app's worker does it
 * while idle, so a knob change's run starts without copying and indexing the graph).
 */
export function prepareScheduler(wasm: EnvschedWasm, packed: PackedGraph, taskIds: readonly string[]): void {
  const scheduler = new WasmScheduler(wasm);
  scheduler.loadGraph(packed, taskIds);
  prepared.set(wasm, { packed, taskIds, scheduler });
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((id, i) => id === b[i]));
}

/**
 * A scheduler on `wasm` holding `packed`: the prepared one when it holds this very graph (a
 * loaded instance is in the same state as one loaded now), else the graph is loaded here.
 */
export function schedulerFor(wasm: EnvschedWasm, packed: PackedGraph, taskIds: readonly string[]): WasmScheduler {
  const ready = prepared.get(wasm);
  prepared.delete(wasm);
  if (ready && ready.packed === packed && sameIds(ready.taskIds, taskIds)) return ready.scheduler;
  const scheduler = new WasmScheduler(wasm);
  scheduler.loadGraph(packed, taskIds);
  return scheduler;
}
