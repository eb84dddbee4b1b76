// The rollout simulator (SPEC 10) over one WASM instance: packs a pool's hidden parameters into
// linear memory, then draws rollouts, computes exact expectations and applies learning through
// the kernels of assembly/sim/model.ts. Formulas: docs/simulator.md.
import type { SimParams, SimTask } from '../engine/sim-params.ts';
import { DEFAULT_SIM_MODEL, MODEL_PARAM_SLOTS, packModelParams, type SimModelParams } from './model-params.ts';
import { WasmHeap, type SimWasmExports } from './wasm.ts';

/** The rng stream of simulation runs (rng_seed's second argument); fixed so a seed names one run. */
export const SIM_RNG_STREAM = 54;

export interface HeldoutSuiteInfo {
  name: string;
  first: number; // index of the suite's first task among the held-out tasks
  count: number;
}

export interface RolloutView {
  /** rewards[b*K + k]: reward of rollout k of the b-th task of the batch. */
  rewards: Float64Array;
  /** 1 when the rollout used the exploit (its suspicious identifier is flagged). */
  flags: Int32Array;
  /** The reward the rollout scores with the exploit removed (the identifier filter's replay). */
  honest: Float64Array;
}

/** The equality test of DAPO's filter: a group whose K rewards are all equal has no spread. */
function hasSpread(rewards: ArrayLike<number>, offset: number, K: number): boolean {
  for (let k = 1; k < K; k++) if (rewards[offset + k] !== rewards[offset]) return true;
  return false;
}

/** A pool's hidden parameters as flat arrays (pool tasks, then held-out tasks): the same for every run. */
interface SimTables {
  nPoolEnvs: number;
  poolTaskEnv: Int32Array;
  suites: HeldoutSuiteInfo[];
  nEnvsTotal: number;
  nAll: number;
  nGates: number;
  maxGates: number;
  taskEnv: Int32Array;
  gateOff: Int32Array;
  gateFam: Int32Array;
  gateDifficulty: Float64Array;
  /** The hidden part of each gate's difficulty (0 when the gate has none). */
  gateNoise: Float64Array;
  gateChecks: Float64Array;
  taskInit: Float64Array;
  taskTotal: Float64Array;
  taskExploit: Int32Array;
  taskFamilies: Int32Array[];
}

/** Tables already flattened, per parameter set: a run of the app starts in milliseconds, not tens. */
const tablesOf = new WeakMap<SimParams, SimTables>();

function sameInts(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function simTables(nPoolEnvs: number, taskEnv: ArrayLike<number>, params: SimParams): SimTables {
  const known = tablesOf.get(params);
  if (known && known.nPoolEnvs === nPoolEnvs && sameInts(known.poolTaskEnv, taskEnv)) return known;
  const nTasks = params.tasks.length;
  const all: { task: SimTask; env: number }[] = params.tasks.map((task, i) => ({ task, env: taskEnv[i] }));
  const suites: HeldoutSuiteInfo[] = [];
  let envBase = nPoolEnvs;
  for (const suite of params.heldout) {
    suites.push({ name: suite.name, first: all.length - nTasks, count: suite.tasks.length });
    for (const t of suite.tasks) all.push({ task: t, env: envBase + t.env });
    envBase += suite.envs.length;
  }
  const nAll = all.length;
  const nGates = all.reduce((s, t) => s + t.task.gates.length, 0);
  const t: SimTables = {
    nPoolEnvs,
    poolTaskEnv: Int32Array.from(taskEnv),
    suites,
    nEnvsTotal: envBase,
    nAll,
    nGates,
    maxGates: all.reduce((m, x) => Math.max(m, x.task.gates.length), 0),
    taskEnv: new Int32Array(nAll),
    gateOff: new Int32Array(nAll + 1),
    gateFam: new Int32Array(nGates),
    gateDifficulty: new Float64Array(nGates),
    gateNoise: new Float64Array(nGates),
    gateChecks: new Float64Array(nGates),
    taskInit: new Float64Array(nAll),
    taskTotal: new Float64Array(nAll),
    taskExploit: new Int32Array(nAll),
    taskFamilies: params.tasks.map((task) => Int32Array.from(new Set(task.gates.map((gate) => gate.family)))),
  };
  let g = 0;
  all.forEach(({ task, env }, i) => {
    t.taskEnv[i] = env;
    t.gateOff[i] = g;
    t.taskInit[i] = task.initiallySatisfied;
    let total = task.initiallySatisfied;
    for (const gate of task.gates) {
      t.gateFam[g] = gate.family;
      t.gateDifficulty[g] = gate.difficulty;
      t.gateNoise[g] = gate.noise ?? 0;
      t.gateChecks[g] = gate.checks;
      total += gate.checks;
      g++;
    }
    t.taskTotal[i] = total;
    t.taskExploit[i] = task.exploitable ? 1 : 0;
  });
  t.gateOff[nAll] = g;
  tablesOf.set(params, t);
  return t;
}

export class Simulator {
  readonly heap: WasmHeap;
  readonly nTasks: number;
  readonly nHeldout: number;
  readonly nFamilies: number;
  readonly K: number;
  readonly suites: HeldoutSuiteInfo[];
  /** Distinct operation families on each pool task's chain (for "families covered"). */
  readonly taskFamilies: readonly Int32Array[];
  private readonly model: SimModelParams;
  private readonly nEnvsTotal: number;
  private readonly ptr: Record<
    | 'competence'
    | 'familiarity'
    | 'memo'
    | 'practice'
    | 'batch'
    | 'rewards'
    | 'flags'
    | 'honest'
    | 'truthMean'
    | 'truthVar'
    | 'heldMean'
    | 'heldVar'
    | 'hashTmp',
    number
  >;
  readonly capacity: number;

  constructor(
    readonly wasm: SimWasmExports,
    nPoolEnvs: number,
    taskEnv: ArrayLike<number>,
    params: SimParams,
    K: number,
    model: SimModelParams = DEFAULT_SIM_MODEL,
  ) {
    this.heap = new WasmHeap(wasm);
    this.model = { ...model };
    this.K = K;
    this.nTasks = params.tasks.length;
    this.nFamilies = params.families.length;
    const tables = simTables(nPoolEnvs, taskEnv, params);
    this.suites = tables.suites;
    this.nEnvsTotal = tables.nEnvsTotal;
    this.nHeldout = tables.nAll - this.nTasks;
    this.taskFamilies = tables.taskFamilies;
    const { nAll, nGates } = tables;

    const h = this.heap;
    const p = {
      taskEnv: h.allocI32(nAll),
      gateOff: h.allocI32(nAll + 1),
      gateFam: h.allocI32(nGates),
      gateDiff: h.allocF64(nGates),
      gateChecks: h.allocF64(nGates),
      taskInit: h.allocF64(nAll),
      taskTotal: h.allocF64(nAll),
      taskExploit: h.allocI32(nAll),
      competence: h.allocF64(this.nFamilies),
      familiarity: h.allocF64(this.nEnvsTotal),
      memo: h.allocF64(nAll),
      scratch: h.allocF64(Math.max(tables.maxGates, this.nFamilies + 2 * this.nEnvsTotal + 2 * tables.maxGates) + 1),
      params: h.allocF64(MODEL_PARAM_SLOTS),
      practice: h.allocF64(nAll),
    };
    // Buffers of one step. Capacity N: DAPO may roll out the whole pool in one step.
    this.capacity = this.nTasks;
    this.ptr = {
      competence: p.competence,
      familiarity: p.familiarity,
      memo: p.memo,
      practice: p.practice,
      batch: h.allocI32(this.capacity),
      rewards: h.allocF64(this.capacity * K),
      flags: h.allocI32(this.capacity * K),
      honest: h.allocF64(this.capacity * K),
      truthMean: h.allocF64(this.nTasks),
      truthVar: h.allocF64(this.nTasks),
      heldMean: h.allocF64(Math.max(1, this.nHeldout)),
      heldVar: h.allocF64(Math.max(1, this.nHeldout)),
      hashTmp: h.alloc(16),
    };
    // Fill after every allocation (allocations may detach earlier views).
    h.i32(p.taskEnv, nAll).set(tables.taskEnv);
    h.i32(p.gateOff, nAll + 1).set(tables.gateOff);
    h.i32(p.gateFam, nGates).set(tables.gateFam);
    h.f64(p.gateChecks, nGates).set(tables.gateChecks);
    h.f64(p.taskInit, nAll).set(tables.taskInit);
    h.f64(p.taskTotal, nAll).set(tables.taskTotal);
    h.i32(p.taskExploit, nAll).set(tables.taskExploit);
    const diffV = h.f64(p.gateDiff, nGates);
    const noise = this.model.hiddenNoise;
    // Structure-determined difficulty: scale the hidden part (1 keeps the generated difficulty's bits).
    if (noise === 1) diffV.set(tables.gateDifficulty);
    else for (let g = 0; g < nGates; g++) diffV[g] = tables.gateDifficulty[g] + (noise - 1) * tables.gateNoise[g];
    h.f64(p.params, MODEL_PARAM_SLOTS).set(packModelParams(this.model));
    wasm.sim_bind(
      nAll,
      this.nEnvsTotal,
      this.nFamilies,
      p.taskEnv,
      p.gateOff,
      p.gateFam,
      p.gateDiff,
      p.gateChecks,
      p.taskInit,
      p.taskTotal,
      p.taskExploit,
      p.competence,
      p.familiarity,
      p.memo,
      p.scratch,
      p.params,
      p.practice,
    );
  }

  /** Starts a run: the initial policy (docs/simulator.md) and the generator seeded with `seed`. */
  reset(seed: number): void {
    const h = this.heap;
    h.f64(this.ptr.competence, this.nFamilies).fill(this.model.competence0);
    h.f64(this.ptr.familiarity, this.nEnvsTotal).fill(0);
    h.f64(this.ptr.memo, this.nTasks + this.nHeldout).fill(0);
    h.f64(this.ptr.practice, this.nTasks + this.nHeldout).fill(0);
    this.wasm.rng_seed(seed >>> 0, SIM_RNG_STREAM);
    this.wasm.sim_hash_reset();
  }

  /** Exact expected reward and expected within-group variance of every pool task now (views, valid until the next allocation). */
  truth(): { mean: Float64Array; variance: Float64Array } {
    this.wasm.sim_expect(0, this.nTasks, this.K, 0, this.ptr.truthMean, this.ptr.truthVar);
    return { mean: this.heap.f64(this.ptr.truthMean, this.nTasks), variance: this.heap.f64(this.ptr.truthVar, this.nTasks) };
  }

  /** Held-out score of each suite: 100 x the exact expected reward, averaged over the suite's tasks (no exploit). */
  heldoutScores(): number[] {
    if (this.nHeldout === 0) return [];
    this.wasm.sim_expect(this.nTasks, this.nHeldout, this.K, 1, this.ptr.heldMean, this.ptr.heldVar);
    const mean = this.heap.f64(this.ptr.heldMean, this.nHeldout);
    return this.suites.map((s) => {
      let sum = 0;
      for (let k = s.first; k < s.first + s.count; k++) sum += mean[k];
      return (100 * sum) / s.count;
    });
  }

  /** The batch buffer in WASM memory (capacity N). */
  batchView(n: number): Int32Array {
    return this.heap.i32(this.ptr.batch, n);
  }

  /** Draws K rollouts of each task in batchView()[0..n) (write the batch first). */
  rollout(n: number): RolloutView {
    this.wasm.sim_rollout(this.ptr.batch, n, this.K, this.ptr.rewards, this.ptr.flags, this.ptr.honest);
    return this.rolloutView(n);
  }

  rolloutView(n: number): RolloutView {
    const m = n * this.K;
    return {
      rewards: this.heap.f64(this.ptr.rewards, m),
      flags: this.heap.i32(this.ptr.flags, m),
      honest: this.heap.f64(this.ptr.honest, m),
    };
  }

  /**
   * Rolls out `tasks` into the batch and rollout buffers and returns the number of groups kept.
   * With dynamic sampling (DAPO) the tasks are candidates in draw order: roll out as many as are
   * still needed at a time, drop groups whose K rewards are all equal, stop at `target` kept
   * groups or when the candidates run out. `rollouts` counts every rollout drawn, dropped ones too.
   */
  play(tasks: Int32Array, dynamicSampling: boolean, target: number): { kept: number; rollouts: number } {
    const K = this.K;
    if (!dynamicSampling) {
      this.batchView(tasks.length).set(tasks);
      this.rollout(tasks.length);
      return { kept: tasks.length, rollouts: tasks.length * K };
    }
    const goal = Math.min(target, tasks.length);
    const keptTasks: number[] = [];
    const keptRewards = new Float64Array(goal * K);
    const keptFlags = new Int32Array(goal * K);
    const keptHonest = new Float64Array(goal * K);
    let pos = 0;
    let rollouts = 0;
    while (keptTasks.length < goal && pos < tasks.length) {
      const chunk = Math.min(goal - keptTasks.length, tasks.length - pos);
      this.batchView(chunk).set(tasks.subarray(pos, pos + chunk));
      const r = this.rollout(chunk);
      rollouts += chunk * K;
      for (let b = 0; b < chunk; b++) {
        if (!hasSpread(r.rewards, b * K, K)) continue;
        const at = keptTasks.length * K;
        keptRewards.set(r.rewards.subarray(b * K, (b + 1) * K), at);
        keptFlags.set(r.flags.subarray(b * K, (b + 1) * K), at);
        keptHonest.set(r.honest.subarray(b * K, (b + 1) * K), at);
        keptTasks.push(tasks[pos + b]);
      }
      pos += chunk;
    }
    const n = keptTasks.length;
    this.batchView(n).set(keptTasks);
    const view = this.rolloutView(n);
    view.rewards.set(keptRewards.subarray(0, n * K));
    view.flags.set(keptFlags.subarray(0, n * K));
    view.honest.set(keptHonest.subarray(0, n * K));
    return { kept: n, rollouts };
  }

  /**
   * The identifier filter's replay (SPEC 8) of the n groups in the buffers: a flagged rollout is
   * confirmed when its replay without the suspicious action scores lower (the first replay, the
   * deterministic re-scoring, always agrees). Which confirmed rollouts remove a task is the
   * scheduler's rule, not the simulator's.
   */
  confirmedFlags(n: number): Int32Array {
    const view = this.rolloutView(n);
    const out = new Int32Array(n * this.K);
    for (let k = 0; k < out.length; k++) if (view.flags[k] === 1 && view.honest[k] < view.rewards[k] - 1e-4) out[k] = 1;
    return out;
  }

  /** Applies learning from the n groups now in the batch and rewards buffers. */
  learn(n: number): void {
    this.wasm.sim_learn(this.ptr.batch, n, this.K, this.ptr.rewards);
  }

  /** Feeds the step's batch indices (i32 LE) and rewards (f64 LE) into the run's FNV-1a 64 fingerprint. */
  hashStep(n: number): void {
    this.wasm.sim_hash_bytes(this.ptr.batch, n * 4);
    this.wasm.sim_hash_bytes(this.ptr.rewards, n * this.K * 8);
  }

  fingerprint(): string {
    const hi = this.wasm.sim_hash_hi() >>> 0;
    const lo = this.wasm.sim_hash_lo() >>> 0;
    return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
  }

  /** Policy state (copies), for tests and the UI. */
  policy(): { competence: Float64Array; familiarity: Float64Array; memo: Float64Array } {
    return {
      competence: this.heap.f64(this.ptr.competence, this.nFamilies).slice(),
      familiarity: this.heap.f64(this.ptr.familiarity, this.nEnvsTotal).slice(),
      memo: this.heap.f64(this.ptr.memo, this.nTasks + this.nHeldout).slice(),
    };
  }

  get pointers(): Readonly<typeof this.ptr> {
    return this.ptr;
  }
}
