// One simulated training run (SPEC 10): each step the scheduler chooses a batch, the
// simulator rolls it out in WASM, the step's metrics are taken against the exact truth, the
// scheduler observes the groups and the policy learns. One PCG32 seed drives every draw.
import type { CapRule, Config, Graph, LoadedGraph, Phase, SchedulerName } from '../engine/types.ts';
import { unpackGraph } from '../engine/graph-json.ts';
import { averageRanks, DistinctCounter, groupMeanVariance, mean, median, pearsonOfRanks, ranksAndQuantile } from './metrics.ts';
import { DEFAULT_SIM_MODEL, type SimModelParams } from './model-params.ts';
import type { BatchScheduler, ChosenBatch, StepGroups } from './scheduler.ts';
import { createScheduler } from './schedulers/index.ts';
import { readSimParams } from './sim-params-read.ts';
import { Simulator } from './simulator.ts';
import type { SimWasmExports } from './wasm.ts';
import type { EnvschedWasm } from '../engine/wasm/index.ts';

/** The WASM instances of one run: the simulator's (baselines included) and, for the EnvSched family, the scheduler's. */
export interface RunWasm {
  sim: SimWasmExports;
  /** null: the EnvSched family falls back to the TypeScript reference scheduler (exact, slow). */
  scheduler: EnvschedWasm | null;
}

/** Metrics of one step. Held-out scores are taken after the step's learning. */
export interface StepMetrics {
  step: number;
  batchSize: number;
  /** The batch (task indices, pick order; for DAPO the kept groups). */
  batch: number[];
  /** Tasks the identifier filter removed at this step. */
  removedTasks: number[];
  /** Realised population variance of the selected groups (SPEC 2 `v`): mean and median. */
  meanVariance: number;
  medianVariance: number;
  /** Group mean rewards of the selected groups: mean and median. */
  meanReward: number;
  medianReward: number;
  envs: number;
  tools: number;
  families: number;
  /** Rollouts spent so far, dropped DAPO groups included. */
  rollouts: number;
  /** Picks counted for the hit rate (EnvSched family: exploitation phase; baselines: every pick) and hits among them. */
  exploitationPicks: number;
  exploitationHits: number;
  /** Hits / picks, null without picks. A hit's true expected variance is in the pool's top quartile. */
  hitRate: number | null;
  /** Spearman correlation of the scheduler's prediction with the true expected variance over the pool. */
  rankCorrelation: number | null;
  /** Held-out score per suite and their mean. */
  heldout: number[];
  heldoutOverall: number;
  removals: number;
  removedTotal: number;
  progressExcluded: number;
  relaxed: CapRule[];
}

export interface RunSummary {
  meanVariance: number;
  medianVariance: number;
  meanReward: number;
  medianReward: number;
  envsPerBatch: number;
  toolsPerBatch: number;
  familiesPerBatch: number;
  rollouts: number;
  hitRate: number | null;
  meanRankCorrelation: number | null;
  heldoutInitial: number;
  heldoutFinal: number;
  heldoutBest: number;
  removed: number;
}

export interface RunResult {
  scheduler: SchedulerName;
  seed: number;
  dataset: string;
  graphName: string;
  steps: StepMetrics[];
  suites: string[];
  fingerprint: string;
  summary: RunSummary;
}

export interface RunOptions {
  /** Steps to run (default config.T). */
  steps?: number;
  model?: SimModelParams;
  /** Called after every step (progress bars, live charts). */
  onStep?: (metrics: StepMetrics) => void;
  /** Table 4: step 0 is a uniform random batch whatever the scheduler. */
  randomColdStart?: boolean;
}

/** One step as `SimulationRun.step()` returns it. Typed arrays are only valid until the next step. */
export interface StepDetail {
  metrics: StepMetrics;
  /** Phase of each pick, aligned with metrics.batch; null for baselines, and for DAPO when its kept groups no longer line up with its candidates. */
  phases: Phase[] | null;
  /** The scheduler's pool-wide prediction behind this step's choice (null: cold start, baselines, Table 4's random step 0). */
  predicted: ArrayLike<number> | null;
  /** The simulator's exact expected within-group variance and reward of every pool task before this step's rollouts (SPEC 10; buffers the next step rewrites). */
  truthVariance: Float64Array;
  truthMean: Float64Array;
  /** The groups exactly as the scheduler observed them (flags = confirmed suspicious rollouts, SPEC 8). */
  groups: StepGroups;
}

/** The equality test of DAPO's filter: a group whose K rewards are all equal has no spread. */
function hasSpread(rewards: ArrayLike<number>, offset: number, K: number): boolean {
  for (let k = 1; k < K; k++) if (rewards[offset + k] !== rewards[offset]) return true;
  return false;
}

/** A prepared run: simulator + scheduler over one WASM instance; `run()` runs it, `step()` takes one step at a time. */
export class SimulationRun {
  readonly sim: Simulator;
  readonly scheduler: BatchScheduler;
  private readonly toolIds: Int32Array[];
  private readonly nTools: number;
  private readonly taskEnv: Int32Array;
  private readonly removed: Uint8Array;
  private readonly coldPerm: number;
  private readonly coldOut: number;
  private rollouts = 0;
  private graphCache: Graph | null = null;

  constructor(wasm: RunWasm, readonly loaded: LoadedGraph, readonly config: Config, readonly source: string, private readonly options: RunOptions = {}) {
    const params = readSimParams(loaded.meta, source);
    this.taskEnv = loaded.packed.taskEnv;
    this.sim = new Simulator(wasm.sim, loaded.packed.nEnvs, this.taskEnv, params, config.K, options.model ?? DEFAULT_SIM_MODEL);
    this.sim.reset(config.seed);
    this.scheduler = createScheduler(config.scheduler, this.sim, loaded, () => (this.graphCache ??= unpackGraph(loaded)), config, wasm.scheduler);
    const toolIndex = new Map<string, number>();
    this.toolIds = loaded.meta.tasks.map((t) =>
      Int32Array.from(t.tools, (name) => {
        let id = toolIndex.get(name);
        if (id === undefined) toolIndex.set(name, (id = toolIndex.size));
        return id;
      }),
    );
    this.nTools = toolIndex.size;
    this.removed = new Uint8Array(this.sim.nTasks);
    this.trueRanksBuf = new Float64Array(this.sim.nTasks);
    this.predictedRanksBuf = new Float64Array(this.sim.nTasks);
    this.trueVarBuf = new Float64Array(this.sim.nTasks);
    this.coldPerm = this.sim.heap.allocI32(this.sim.nTasks);
    this.coldOut = this.sim.heap.allocI32(this.sim.nTasks);
    wasm.sim.base_perm_init(this.coldPerm, this.sim.nTasks);
  }

  private choose(step: number): ChosenBatch {
    if (step === 0 && this.options.randomColdStart) {
      const m = Math.min(this.config.B, this.sim.nTasks);
      this.sim.wasm.base_random_choose(this.coldPerm, this.sim.nTasks, m, this.coldOut);
      return { tasks: this.sim.heap.i32(this.coldOut, m).slice(), phases: new Array<Phase>(m).fill('random'), relaxed: [], progressExcluded: 0 };
    }
    return this.scheduler.choose(step);
  }

  /** Rolls out the chosen batch into the simulator's buffers; DAPO keeps drawing until B groups have spread. Returns the batch size. */
  private rollOut(chosen: ChosenBatch): number {
    const { sim, config } = this;
    const K = config.K;
    if (!this.scheduler.dynamicSampling || (this.options.randomColdStart && chosen.phases?.[0] === 'random')) {
      sim.batchView(chosen.tasks.length).set(chosen.tasks);
      sim.rollout(chosen.tasks.length);
      this.rollouts += chosen.tasks.length * K;
      return chosen.tasks.length;
    }
    // DAPO dynamic sampling: roll out the candidates in order, as many as are still needed each round.
    const target = Math.min(config.B, chosen.tasks.length);
    const keptTasks: number[] = [];
    const keptRewards = new Float64Array(target * K);
    const keptFlags = new Int32Array(target * K);
    const keptHonest = new Float64Array(target * K);
    let pos = 0;
    while (keptTasks.length < target && pos < chosen.tasks.length) {
      const chunk = Math.min(target - keptTasks.length, chosen.tasks.length - pos);
      sim.batchView(chunk).set(chosen.tasks.subarray(pos, pos + chunk));
      const r = sim.rollout(chunk);
      this.rollouts += chunk * K;
      for (let b = 0; b < chunk; b++) {
        if (!hasSpread(r.rewards, b * K, K)) continue;
        const at = keptTasks.length * K;
        keptRewards.set(r.rewards.subarray(b * K, (b + 1) * K), at);
        keptFlags.set(r.flags.subarray(b * K, (b + 1) * K), at);
        keptHonest.set(r.honest.subarray(b * K, (b + 1) * K), at);
        keptTasks.push(chosen.tasks[pos + b]);
      }
      pos += chunk;
    }
    const n = keptTasks.length;
    sim.batchView(n).set(keptTasks);
    const view = sim.rolloutView(n);
    view.rewards.set(keptRewards.subarray(0, n * K));
    view.flags.set(keptFlags.subarray(0, n * K));
    view.honest.set(keptHonest.subarray(0, n * K));
    return n;
  }

  // ---- step-by-step API (the web app's worker drives a run step by step; `run()` is the same loop) ----

  private readonly steps: StepMetrics[] = [];
  // per-step scratch, reused (no pool-sized garbage per step)
  private readonly trueRanksBuf: Float64Array;
  private readonly predictedRanksBuf: Float64Array;
  private readonly trueVarBuf: Float64Array;
  private readonly allVariance: number[] = [];
  private readonly allReward: number[] = [];
  private envCounter: DistinctCounter | null = null;
  private toolCounter: DistinctCounter | null = null;
  private familyCounter: DistinctCounter | null = null;
  private heldoutInitial = NaN;
  private removedTotal = 0;
  private picksTotal = 0;
  private hitsTotal = 0;

  /** Steps this run takes in all (options.steps, else config.T). */
  get totalSteps(): number {
    return this.options.steps ?? this.config.T;
  }

  /** Steps taken so far. */
  get stepsDone(): number {
    return this.steps.length;
  }

  get done(): boolean {
    return this.steps.length >= this.totalSteps;
  }

  /** State taken before the first step (the held-out score before any learning). */
  private begin(): void {
    this.envCounter = new DistinctCounter(this.loaded.packed.nEnvs);
    this.toolCounter = new DistinctCounter(Math.max(1, this.nTools));
    this.familyCounter = new DistinctCounter(this.sim.nFamilies);
    this.heldoutInitial = mean(this.sim.heldoutScores());
  }

  /**
   * Takes the next step (choose, roll out, measure, observe, learn) and returns its metrics with
   * what live views need besides (phases, the pool-wide prediction and truth, the observed groups).
   * The typed arrays of the detail are views into WASM memory or buffers reused by the next step:
   * copy what you keep.
   */
  step(): StepDetail {
    const { sim, config, scheduler } = this;
    if (this.done) throw new Error(`this run has already taken its ${this.totalSteps} steps`);
    if (!this.envCounter) this.begin();
    const envCounter = this.envCounter!;
    const toolCounter = this.toolCounter!;
    const familyCounter = this.familyCounter!;
    const K = config.K;
    const t = this.steps.length;
    const chosen = this.choose(t);
    const coldRandom = t === 0 && this.options.randomColdStart === true;
    const predicted = scheduler.predicted();
    const truth = sim.truth();
    // one sort of the true variances for the hit-rate threshold and the rank correlation
    const trueStats = ranksAndQuantile(truth.variance, 0.75, this.trueRanksBuf);
    const threshold = trueStats.quantile;
    const rankCorrelation = predicted && !coldRandom ? pearsonOfRanks(averageRanks(predicted, this.predictedRanksBuf), trueStats.ranks) : null;
    const trueVar = this.trueVarBuf;
    trueVar.set(truth.variance);
    const n = this.rollOut(chosen);
    const batch = sim.batchView(n).slice();
    const view = sim.rolloutView(n);
    // SPEC 8 identifier filter (EnvSched family): a flagged rollout with reward >= 0.5 whose replay
    // without the suspicious action scores lower confirms the exploit and removes the task.
    const confirmed = new Int32Array(n * K);
    const removedTasks: number[] = [];
    for (let b = 0; b < n; b++) {
      for (let k = b * K; k < (b + 1) * K; k++) {
        if (view.flags[k] === 1 && view.rewards[k] >= 0.5 && view.honest[k] < view.rewards[k] - 1e-4) confirmed[k] = 1;
      }
      if (scheduler.identifierFilter && !this.removed[batch[b]] && confirmed.subarray(b * K, (b + 1) * K).some((f) => f === 1)) {
        this.removed[batch[b]] = 1;
        removedTasks.push(batch[b]);
      }
    }
    this.removedTotal += removedTasks.length;
    sim.hashStep(n);
    const variances = new Float64Array(n);
    const rewards = new Float64Array(n);
    envCounter.begin();
    toolCounter.begin();
    familyCounter.begin();
    let envs = 0;
    let tools = 0;
    let families = 0;
    let picks = 0;
    let hits = 0;
    const phases = n === chosen.tasks.length ? chosen.phases : null;
    for (let b = 0; b < n; b++) {
      const i = batch[b];
      const g = groupMeanVariance(view.rewards, b * K, K);
      variances[b] = g.v;
      rewards[b] = g.m;
      this.allVariance.push(g.v);
      this.allReward.push(g.m);
      if (envCounter.add(this.taskEnv[i])) envs++;
      for (const tool of this.toolIds[i]) if (toolCounter.add(tool)) tools++;
      for (const f of sim.taskFamilies[i]) if (familyCounter.add(f)) families++;
      const phase = phases ? phases[b] : null;
      if (phase === null || phase === 'exploitation') {
        picks++;
        if (trueVar[i] >= threshold) hits++;
      }
    }
    this.picksTotal += picks;
    this.hitsTotal += hits;
    const groups: StepGroups = { tasks: batch, K, rewards: view.rewards, flags: confirmed, batchPtr: sim.pointers.batch, rewardsPtr: sim.pointers.rewards };
    scheduler.observe(t, groups);
    sim.learn(n);
    const heldout = sim.heldoutScores();
    const metrics: StepMetrics = {
      step: t,
      batchSize: n,
      batch: Array.from(batch),
      removedTasks,
      meanVariance: mean(variances),
      medianVariance: median(variances),
      meanReward: mean(rewards),
      medianReward: median(rewards),
      envs,
      tools,
      families,
      rollouts: this.rollouts,
      exploitationPicks: picks,
      exploitationHits: hits,
      hitRate: picks > 0 ? hits / picks : null,
      rankCorrelation,
      heldout,
      heldoutOverall: heldout.length > 0 ? mean(heldout) : NaN,
      removals: removedTasks.length,
      removedTotal: this.removedTotal,
      progressExcluded: chosen.progressExcluded,
      relaxed: chosen.relaxed,
    };
    this.steps.push(metrics);
    this.options.onStep?.(metrics);
    // truth.mean is a view of the simulator's truth buffer: only the next step's truth() rewrites it.
    return { metrics, phases, predicted: coldRandom ? null : predicted, truthVariance: trueVar, truthMean: truth.mean, groups };
  }

  /** The run so far as a result (summary, fingerprint); after the last step, the whole run. */
  result(): RunResult {
    const { sim, config, steps } = this;
    if (!this.envCounter) this.begin();
    const corr = steps.map((s) => s.rankCorrelation).filter((c): c is number => c !== null);
    const held = steps.map((s) => s.heldoutOverall);
    const summary: RunSummary = {
      meanVariance: mean(this.allVariance),
      medianVariance: median(this.allVariance),
      meanReward: mean(this.allReward),
      medianReward: median(this.allReward),
      envsPerBatch: mean(steps.map((s) => s.envs)),
      toolsPerBatch: mean(steps.map((s) => s.tools)),
      familiesPerBatch: mean(steps.map((s) => s.families)),
      rollouts: this.rollouts,
      hitRate: this.picksTotal > 0 ? this.hitsTotal / this.picksTotal : null,
      meanRankCorrelation: corr.length > 0 ? mean(corr) : null,
      heldoutInitial: this.heldoutInitial,
      heldoutFinal: held.length > 0 ? held[held.length - 1] : this.heldoutInitial,
      heldoutBest: held.reduce((a, b) => Math.max(a, b), this.heldoutInitial),
      removed: this.removedTotal,
    };
    return {
      scheduler: config.scheduler,
      seed: config.seed,
      dataset: config.dataset,
      graphName: this.loaded.meta.name,
      steps: [...steps],
      suites: sim.suites.map((s) => s.name),
      fingerprint: sim.fingerprint(),
      summary,
    };
  }

  /** Runs the remaining steps; returns every step's metrics, the summary and the fingerprint. */
  run(): RunResult {
    if (!this.envCounter) this.begin();
    while (!this.done) this.step();
    return this.result();
  }
}

/** Convenience: prepare and run. */
export function runSimulation(wasm: RunWasm, loaded: LoadedGraph, config: Config, source: string, options: RunOptions = {}): RunResult {
  return new SimulationRun(wasm, loaded, config, source, options).run();
}
