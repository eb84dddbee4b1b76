// `envsched reproduce`: the paper's Table 2, Table 3(a) and 3(b) configurations in simulation,
// averaged over seeds, beside the paper's figures; Table 4's cold-start experiment; the
// environment-scaling experiment; and the checks of docs/calibration.md with their verdicts.
import type { Config, LoadedGraph, SchedulerName } from '../engine/types.ts';
import { evaluateChecks, type CheckResult } from './checks.ts';
import { randomTraining } from './env-scaling.ts';
import { hitsOfHighest, mean } from './metrics.ts';
import { DEFAULT_SIM_MODEL, worldDifferences, type SimModelParams } from './model-params.ts';
import { PAPER_BASE, PAPER_FIGURE1, PAPER_GAIN_SHARE_RANGE, PAPER_ROWS, PAPER_TABLE4, type PaperRow } from './paper.ts';
import { SimulationRun, type RunResult, type RunWasm, type StepDetail } from './run.ts';

/** Table 2 (baselines vs EnvSched) and Table 3(a) (ablations), in one list. */
export const REPRODUCE_SCHEDULERS: readonly SchedulerName[] = [
  'random',
  'dapo',
  'mopps',
  'dps',
  'envsched',
  'within-only',
  'cross-only',
  'coverage-only',
  'exploitation-only',
];

export const HELDOUT_STEPS = [40, 120, 200] as const;
/** Rollout budgets, as shares of random's rollouts over the run. */
export const ROLLOUT_SHARES = [0.25, 0.5, 1] as const;
/** Table 3(b): halving and doubling K_within (6) and K_cross (12). */
export const TABLE3B: readonly { K_within: number; K_cross: number }[] = [
  { K_within: 3, K_cross: 12 },
  { K_within: 12, K_cross: 12 },
  { K_within: 6, K_cross: 6 },
  { K_within: 6, K_cross: 24 },
];
/** The environment-scaling experiment: random training on the first n environments. */
export const ENV_SCALING_COUNTS = [1, 5, 10, 20, 51] as const;
export const TABLE4_STEPS = 7;

export interface ReproduceRow {
  scheduler: SchedulerName;
  meanVariance: number;
  medianVariance: number;
  medianReward: number;
  envsPerBatch: number;
  /** Distinct (environment, tool) pairs of the batch's tasks, step mean. */
  toolsPerBatch: number;
  /** Rollouts spent over the run (dropped DAPO groups included), mean over seeds. */
  rollouts: number;
  /** Held-out score after 40, 120 and 200 steps (seed-mean curve); null beyond the run. */
  heldout: Record<string, number | null>;
  /** Held-out score at every step 0..T (0 = before training), mean over seeds. */
  heldoutCurve: number[];
  /** Mean variance of the selected groups at every step 0..T-1, mean over seeds (Figure 4). */
  varianceCurve: number[];
  /** Environments per batch at every step 0..T-1, mean over seeds (Figure 4). */
  envsCurve: number[];
  /** First step at which the seed-mean curve reaches random's best (over the whole run); null if never. */
  stepsToRandomBest: number | null;
  /** Rollouts spent (seed mean) by that step; null if never. */
  rolloutsToRandomBest: number | null;
  /** Held-out score after the last step whose rollouts (seed mean) fit in 25%, 50% and 100% of random's. */
  heldoutAtRollouts: Record<string, number>;
  fingerprints: string[];
}

export interface Table3bRow extends ReproduceRow {
  K_within: number;
  K_cross: number;
}

export interface Table4Step {
  step: number;
  meanVariance: number;
  /** Mean realised variance over every group of steps 0..step. */
  cumulativeVariance: number;
  /** Exploitation picks of the step in the pool's top quartile of true variance; null at the random step 0. */
  hitRate: number | null;
  /**
   * The same for the step's highest priorities q, as many as its exploitation picks, before the
   * batch's rules (exposure, similarity penalty, eligibility): how good the prediction itself is.
   * Not a paper figure (docs/reproduction.md, "Table 4: where the hit rate is lost"); null at step 0.
   */
  predictionHitRate: number | null;
  /** 95% interval of the mean over runs (mean +- 1.96 sd / sqrt(runs)) of the batch variance. */
  meanVarianceCi: [number, number];
}

export interface Table4 {
  runs: number;
  /** EnvSched steps after the cold start (the paper's steps 1..7). */
  steps: Table4Step[];
  /** The same per step over the quarter of runs whose step-0 batch had the lowest (highest) variance. */
  lowQuartile: Table4Step[];
  highQuartile: Table4Step[];
  /** 5th and 95th percentiles over runs of the step-7 hit rate. */
  step7HitRange: [number, number] | null;
}

export interface EnvScalingPoint {
  envs: number;
  /** Held-out gain at the last step over the untrained policy, mean over seeds. */
  gain: number;
  /** gain / gain with every environment. */
  share: number;
}

export interface ReproducePaper {
  rows: Record<string, PaperRow>;
  base: number;
  gainShareRange: readonly [number, number];
  table4: typeof PAPER_TABLE4;
  figure1: typeof PAPER_FIGURE1;
}

export interface ReproduceResult {
  dataset: string;
  seeds: number;
  steps: number;
  /** The world's parameters that differ from the calibrated defaults (empty: the calibrated world, the one the checks are for). */
  world: Partial<SimModelParams>;
  rows: ReproduceRow[];
  /** Held-out score of the untrained policy (every run starts from it). */
  base: number;
  table3b: Table3bRow[];
  table4: Table4;
  envScaling: EnvScalingPoint[];
  paper: ReproducePaper;
  /** docs/calibration.md: the fit targets and the checks, measured on these (fresh) seeds. */
  checks: CheckResult[];
}

export interface ReproduceOptions {
  seeds: number;
  steps: number;
  table4Runs: number;
  /** First seed of the runs (default 0; the calibration never uses 0..9999). */
  seedBase?: number;
  schedulers?: readonly SchedulerName[];
  /** Table 3(b) and the environment-scaling experiment (default true). */
  extras?: boolean;
  model?: SimModelParams;
  onProgress?: (done: number, total: number, label: string) => void;
}

/** Runs `config` to the end, yielding nothing (one SimulationRun per seed). */
function runOne(wasm: RunWasm, loaded: LoadedGraph, config: Config, source: string, model: SimModelParams): RunResult {
  return new SimulationRun(wasm, loaded, config, source, { model }).run();
}

/** A Table 4 run: the run, and per step the prediction's own hits and picks (Table4Step.predictionHitRate). */
interface Table4Run {
  result: RunResult;
  prediction: { hits: number; picks: number }[];
}

/** Of the step's highest priorities q, as many as its exploitation picks, those in the pool's top quartile of true variance. */
function predictionHits(run: SimulationRun, d: StepDetail): { hits: number; picks: number } {
  const q = run.scheduler.priorities?.() ?? null;
  const picks = d.metrics.exploitationPicks;
  if (!q || picks === 0) return { hits: 0, picks: 0 };
  return { hits: hitsOfHighest(q, picks, d.truthVariance, d.hitThreshold), picks };
}

/** Runs a Table 4 configuration step by step (step 0 a random cold start), keeping the prediction's hits. */
function runTable4(wasm: RunWasm, loaded: LoadedGraph, config: Config, source: string, model: SimModelParams): Table4Run {
  const run = new SimulationRun(wasm, loaded, config, source, { model, randomColdStart: true });
  const prediction: Table4Run['prediction'] = [];
  while (!run.done) prediction.push(predictionHits(run, run.step()));
  return { result: run.result(), prediction };
}

/** Seed-mean curve at steps 0..T (index 0 = before training). */
function averagedCurve(runs: RunResult[]): number[] {
  const T = runs[0].steps.length;
  const curve = [mean(runs.map((r) => r.summary.heldoutInitial))];
  for (let t = 0; t < T; t++) curve.push(mean(runs.map((r) => r.steps[t].heldoutOverall)));
  return curve;
}

/** Seed-mean of a step metric at steps 0..T-1. */
function averagedStepCurve(runs: RunResult[], metric: (m: RunResult['steps'][number]) => number): number[] {
  return runs[0].steps.map((_, t) => mean(runs.map((r) => metric(r.steps[t]))));
}

/** Seed-mean cumulative rollouts at steps 0..T. */
function averagedRollouts(runs: RunResult[]): number[] {
  const T = runs[0].steps.length;
  const out = [0];
  for (let t = 0; t < T; t++) out.push(mean(runs.map((r) => r.steps[t].rollouts)));
  return out;
}

function summarise(scheduler: SchedulerName, runs: RunResult[], randomBest: number | null, randomRollouts: number | null): ReproduceRow {
  const curve = averagedCurve(runs);
  const rollouts = averagedRollouts(runs);
  const heldout: Record<string, number | null> = {};
  for (const s of HELDOUT_STEPS) heldout[String(s)] = s < curve.length ? curve[s] : null;
  const reach = randomBest === null ? -1 : curve.findIndex((h, t) => t > 0 && h >= randomBest);
  const heldoutAtRollouts: Record<string, number> = {};
  if (randomRollouts !== null) {
    for (const share of ROLLOUT_SHARES) {
      let t = 0;
      while (t + 1 < rollouts.length && rollouts[t + 1] <= share * randomRollouts + 1e-9) t++;
      heldoutAtRollouts[`${share * 100}%`] = curve[t];
    }
  }
  const avg = (f: (r: RunResult) => number) => mean(runs.map(f));
  return {
    scheduler,
    meanVariance: avg((r) => r.summary.meanVariance),
    medianVariance: avg((r) => r.summary.medianVariance),
    medianReward: avg((r) => r.summary.medianReward),
    envsPerBatch: avg((r) => r.summary.envsPerBatch),
    toolsPerBatch: avg((r) => r.summary.toolsPerBatch),
    rollouts: avg((r) => r.summary.rollouts),
    heldout,
    heldoutCurve: curve,
    varianceCurve: averagedStepCurve(runs, (m) => m.meanVariance),
    envsCurve: averagedStepCurve(runs, (m) => m.envs),
    stepsToRandomBest: reach < 0 ? null : reach,
    rolloutsToRandomBest: reach < 0 ? null : rollouts[reach],
    heldoutAtRollouts,
    fingerprints: runs.map((r) => r.fingerprint),
  };
}

function table4Steps(t4runs: Table4Run[]): Table4Step[] {
  const runs = t4runs.map((r) => r.result);
  const steps: Table4Step[] = [];
  for (let t = 0; t <= TABLE4_STEPS; t++) {
    const v = runs.map((r) => r.steps[t].meanVariance);
    const cum = runs.map((r) => {
      let s = 0;
      let n = 0;
      for (let u = 0; u <= t; u++) {
        s += r.steps[u].meanVariance * r.steps[u].batchSize;
        n += r.steps[u].batchSize;
      }
      return s / n;
    });
    let picks = 0;
    let hits = 0;
    let predictedPicks = 0;
    let predictedHits = 0;
    for (const r of t4runs) {
      picks += r.result.steps[t].exploitationPicks;
      hits += r.result.steps[t].exploitationHits;
      predictedPicks += r.prediction[t].picks;
      predictedHits += r.prediction[t].hits;
    }
    const m = mean(v);
    const sd = Math.sqrt(mean(v.map((x) => (x - m) ** 2)));
    const half = runs.length > 1 ? (1.96 * sd) / Math.sqrt(runs.length) : 0;
    steps.push({
      step: t,
      meanVariance: m,
      cumulativeVariance: mean(cum),
      hitRate: t === 0 || picks === 0 ? null : hits / picks,
      predictionHitRate: t === 0 || predictedPicks === 0 ? null : predictedHits / predictedPicks,
      meanVarianceCi: [m - half, m + half],
    });
  }
  return steps;
}

function percentile(sorted: number[], p: number): number {
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

export async function reproduce(
  newWasm: () => Promise<RunWasm>,
  loaded: LoadedGraph,
  base: Config,
  source: string,
  options: ReproduceOptions,
): Promise<ReproduceResult> {
  const schedulers = options.schedulers ?? REPRODUCE_SCHEDULERS;
  const model = options.model ?? DEFAULT_SIM_MODEL;
  const extras = options.extras !== false;
  const seedBase = options.seedBase ?? 0;
  const seeds = Array.from({ length: options.seeds }, (_, k) => seedBase + k);
  const total =
    (schedulers.length + (extras ? TABLE3B.length : 0)) * seeds.length +
    options.table4Runs +
    (extras ? (ENV_SCALING_COUNTS.length - 1) * seeds.length : 0);
  let done = 0;
  const tick = (label: string) => options.onProgress?.(++done, total, label);
  const runsBy = new Map<SchedulerName, RunResult[]>();
  for (const scheduler of schedulers) {
    const runs: RunResult[] = [];
    for (const seed of seeds) {
      runs.push(runOne(await newWasm(), loaded, { ...base, scheduler, seed, T: options.steps }, source, model));
      tick(`${scheduler} seed ${seed}`);
    }
    runsBy.set(scheduler, runs);
  }
  const randomRuns = runsBy.get('random');
  const randomCurve = randomRuns ? averagedCurve(randomRuns) : null;
  const randomBest = randomCurve ? Math.max(...randomCurve.slice(1)) : null;
  const randomRollouts = randomRuns ? mean(randomRuns.map((r) => r.summary.rollouts)) : null;
  const rows = schedulers.map((s) => summarise(s, runsBy.get(s)!, randomBest, randomRollouts));
  const baseScore = mean([...runsBy.values()].flat().map((r) => r.summary.heldoutInitial));

  const table3b: Table3bRow[] = [];
  if (extras) {
    for (const k of TABLE3B) {
      const runs: RunResult[] = [];
      for (const seed of seeds) {
        runs.push(runOne(await newWasm(), loaded, { ...base, ...k, scheduler: 'envsched', seed, T: options.steps }, source, model));
        tick(`K_within ${k.K_within} K_cross ${k.K_cross} seed ${seed}`);
      }
      table3b.push({ ...k, ...summarise('envsched', runs, randomBest, randomRollouts) });
    }
  }

  // Table 4: step 0 a uniform random batch, then TABLE4_STEPS EnvSched steps (seeds 1000 + k).
  const t4runs: Table4Run[] = [];
  for (let k = 0; k < options.table4Runs; k++) {
    t4runs.push(runTable4(await newWasm(), loaded, { ...base, scheduler: 'envsched', seed: 1000 + k, T: TABLE4_STEPS + 1 }, source, model));
    tick(`table 4 run ${k + 1}`);
  }
  const byInitial = [...t4runs].sort((a, b) => a.result.steps[0].meanVariance - b.result.steps[0].meanVariance);
  const q = Math.max(1, Math.floor(t4runs.length / 4));
  const step7Hits = t4runs
    .map((r) => r.result.steps[TABLE4_STEPS].hitRate)
    .filter((h): h is number => h !== null)
    .sort((a, b) => a - b);
  const table4: Table4 = {
    runs: t4runs.length,
    steps: t4runs.length > 0 ? table4Steps(t4runs) : [],
    lowQuartile: t4runs.length > 0 ? table4Steps(byInitial.slice(0, q)) : [],
    highQuartile: t4runs.length > 0 ? table4Steps(byInitial.slice(-q)) : [],
    step7HitRange: step7Hits.length > 0 ? [percentile(step7Hits, 0.05), percentile(step7Hits, 0.95)] : null,
  };

  // Environment scaling: random training on the first n environments (n = all: the random rows' runs).
  const envScaling: EnvScalingPoint[] = [];
  if (extras && randomRuns) {
    const nEnvs = loaded.packed.nEnvs;
    const fullGain = mean(randomRuns.map((r) => r.summary.heldoutFinal - r.summary.heldoutInitial));
    for (const n of ENV_SCALING_COUNTS) {
      if (n >= nEnvs) {
        envScaling.push({ envs: nEnvs, gain: fullGain, share: 1 });
        continue;
      }
      const gains: number[] = [];
      for (const seed of seeds) {
        const r = randomTraining((await newWasm()).sim, loaded, { ...base, scheduler: 'random', seed }, source, n, options.steps, model);
        gains.push(r.heldout[r.heldout.length - 1] - r.heldoutInitial);
        tick(`random on ${n} environments seed ${seed}`);
      }
      const gain = mean(gains);
      envScaling.push({ envs: n, gain, share: fullGain !== 0 ? gain / fullGain : NaN });
    }
  }

  const paper: ReproducePaper = {
    rows: { ...PAPER_ROWS },
    base: PAPER_BASE,
    gainShareRange: PAPER_GAIN_SHARE_RANGE,
    table4: PAPER_TABLE4,
    figure1: PAPER_FIGURE1,
  };
  const partial = {
    dataset: base.dataset,
    seeds: options.seeds,
    steps: options.steps,
    world: worldDifferences(model),
    rows,
    base: baseScore,
    table3b,
    table4,
    envScaling,
    paper,
  };
  return { ...partial, checks: evaluateChecks(partial, loaded.packed.nEnvs) };
}
