// One simulated training run (SPEC 10). Each step: the scheduler chooses a batch (it never tells
// the world who it is), the simulator plays it (rollouts, DAPO's resampling, the identifier
// filter's replay, the fingerprint), the step meter measures it against the exact truth, the
// scheduler observes the groups (and says which tasks its identifier filter removes) and the
// policy learns. One PCG32 seed drives every draw.
import type { CapRule, Config, LoadedGraph, Phase, SchedulerName } from '../engine/types.ts';
import { mean, median } from './metrics.ts';
import { DEFAULT_SIM_MODEL, worldDifferences, type SimModelParams } from './model-params.ts';
import type { BatchScheduler, ChosenBatch, StepGroups } from './scheduler.ts';
import { createScheduler } from './schedulers/index.ts';
import { readSimParams } from './sim-params-read.ts';
import { Simulator } from './simulator.ts';
import { StepMeter } from './step-meter.ts';
import type { SimWasmExports } from './wasm.ts';
import type { EnvschedWasm } from '../engine/wasm/index.ts';

/** The WASM instances of one run: the simulator's (baselines included) and the EnvSched family's scheduler. */
export interface RunWasm {
  sim: SimWasmExports;
  scheduler: EnvschedWasm;
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
  /** Distinct (environment, tool) pairs of the batch's tasks. */
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
  /** The world's parameters that differ from the calibrated defaults (empty: the calibrated world). */
  world: Partial<SimModelParams>;
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
  /** The pool's Q(0.75) of truthVariance (SPEC 5 convention): a task at or above it is a hit. */
  hitThreshold: number;
  /** The groups exactly as the scheduler observed them (flags = confirmed suspicious rollouts, SPEC 8). */
  groups: StepGroups;
}

/** A prepared run: simulator + scheduler over one WASM instance; `run()` runs it, `step()` takes one step at a time. */
export class SimulationRun {
  readonly sim: Simulator;
  readonly scheduler: BatchScheduler;
  private readonly meter: StepMeter;
  private readonly removed: Uint8Array;
  private readonly coldPerm: number;
  private readonly coldOut: number;
  private rollouts = 0;
  private readonly steps: StepMetrics[] = [];
  private heldoutInitial = NaN;
  private removedTotal = 0;
  /** The truth before the step's rollouts, copied (the simulator's buffer is rewritten next step). */
  private readonly trueVarBuf: Float64Array;

  constructor(
    wasm: RunWasm,
    readonly loaded: LoadedGraph,
    readonly config: Config,
    readonly source: string,
    private readonly options: RunOptions = {},
  ) {
    const params = readSimParams(loaded.meta, source);
    this.sim = new Simulator(wasm.sim, loaded.packed.nEnvs, loaded.packed.taskEnv, params, config.K, options.model ?? DEFAULT_SIM_MODEL);
    this.sim.reset(config.seed);
    this.scheduler = createScheduler(config.scheduler, this.sim, loaded, config, wasm.scheduler);
    this.meter = new StepMeter(loaded, this.sim.taskFamilies, this.sim.nFamilies, this.sim.heap);
    this.removed = new Uint8Array(this.sim.nTasks);
    this.trueVarBuf = new Float64Array(this.sim.nTasks);
    this.coldPerm = this.sim.heap.allocI32(this.sim.nTasks);
    this.coldOut = this.sim.heap.allocI32(this.sim.nTasks);
    wasm.sim.base_perm_init(this.coldPerm, this.sim.nTasks);
  }

  private choose(step: number): ChosenBatch {
    if (step === 0 && this.options.randomColdStart) {
      const m = Math.min(this.config.B, this.sim.nTasks);
      this.sim.wasm.base_random_choose(this.coldPerm, this.sim.nTasks, m, this.coldOut);
      return {
        tasks: this.sim.heap.i32(this.coldOut, m).slice(),
        phases: new Array<Phase>(m).fill('random'),
        relaxed: [],
        progressExcluded: 0,
      };
    }
    return this.scheduler.choose(step);
  }

  // ---- step-by-step API (the web app's worker drives a run step by step; `run()` is the same loop) ----

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
    if (Number.isNaN(this.heldoutInitial)) this.heldoutInitial = mean(this.sim.heldoutScores());
  }

  /**
   * Takes the next step (choose, play, measure, observe, learn) and returns its metrics with what
   * live views need besides (phases, the pool-wide prediction and truth, the observed groups).
   * The typed arrays of the detail are views into WASM memory or buffers reused by the next step:
   * copy what you keep.
   */
  step(): StepDetail {
    const { sim, config, scheduler } = this;
    if (this.done) throw new Error(`this run has already taken its ${this.totalSteps} steps`);
    this.begin();
    const K = config.K;
    const t = this.steps.length;
    const chosen = this.choose(t);
    const coldRandom = t === 0 && this.options.randomColdStart === true;
    const predicted = coldRandom ? null : scheduler.predicted();
    const truth = sim.truth();
    const judged = this.meter.judge(truth.variance, predicted);
    const trueVar = this.trueVarBuf;
    trueVar.set(truth.variance);
    const played = sim.play(chosen.tasks, scheduler.dynamicSampling && !coldRandom, config.B);
    this.rollouts += played.rollouts;
    const n = played.kept;
    const batch = sim.batchView(n).slice();
    const flags = sim.confirmedFlags(n);
    sim.hashStep(n);
    const view = sim.rolloutView(n);
    const phases = n === chosen.tasks.length ? chosen.phases : null;
    const measured = this.meter.measure(batch, view.rewards, K, phases, trueVar, judged);
    const groups: StepGroups = {
      tasks: batch,
      K,
      rewards: view.rewards,
      flags,
      batchPtr: sim.pointers.batch,
      rewardsPtr: sim.pointers.rewards,
    };
    const removedTasks: number[] = [];
    for (const task of scheduler.observe(t, groups)) {
      if (this.removed[task]) continue;
      this.removed[task] = 1;
      removedTasks.push(task);
    }
    this.removedTotal += removedTasks.length;
    sim.learn(n);
    const heldout = sim.heldoutScores();
    const metrics: StepMetrics = {
      step: t,
      batchSize: n,
      batch: Array.from(batch),
      removedTasks,
      ...measured,
      rollouts: this.rollouts,
      hitRate: measured.exploitationPicks > 0 ? measured.exploitationHits / measured.exploitationPicks : null,
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
    return { metrics, phases, predicted, truthVariance: trueVar, truthMean: truth.mean, hitThreshold: judged.threshold, groups };
  }

  /** The run so far as a result (summary, fingerprint); after the last step, the whole run. */
  result(): RunResult {
    const { sim, config, steps, meter } = this;
    this.begin();
    const corr = steps.map((s) => s.rankCorrelation).filter((c): c is number => c !== null);
    const held = steps.map((s) => s.heldoutOverall);
    const summary: RunSummary = {
      meanVariance: mean(meter.allVariance),
      medianVariance: median(meter.allVariance),
      meanReward: mean(meter.allReward),
      medianReward: median(meter.allReward),
      envsPerBatch: mean(steps.map((s) => s.envs)),
      toolsPerBatch: mean(steps.map((s) => s.tools)),
      familiesPerBatch: mean(steps.map((s) => s.families)),
      rollouts: this.rollouts,
      hitRate: meter.picksTotal > 0 ? meter.hitsTotal / meter.picksTotal : null,
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
      world: worldDifferences(this.options.model ?? DEFAULT_SIM_MODEL),
    };
  }

  /** Runs the remaining steps; returns every step's metrics, the summary and the fingerprint. */
  run(): RunResult {
    this.begin();
    while (!this.done) this.step();
    return this.result();
  }
}

/** Convenience: prepare and run. */
export function runSimulation(wasm: RunWasm, loaded: LoadedGraph, config: Config, source: string, options: RunOptions = {}): RunResult {
  return new SimulationRun(wasm, loaded, config, source, options).run();
}
