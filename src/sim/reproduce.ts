// `envsched reproduce`: the paper's Table 2 and Table 3(a) configurations in simulation, averaged
// over seeds, beside the paper's figures, plus Table 4's cold-start experiment.
import type { Config, LoadedGraph, SchedulerName } from '../engine/types.ts';
import { mean } from './metrics.ts';
import { runSimulation, type RunResult, type RunWasm } from './run.ts';

/** Table 2 (baselines vs EnvSched) and Table 3(a) (ablations), in one list. */
export const REPRODUCE_SCHEDULERS: readonly SchedulerName[] = [
  'random', 'dapo', 'mopps', 'dps', 'envsched', 'within-only', 'cross-only', 'coverage-only', 'exploitation-only',
];

export const HELDOUT_STEPS = [40, 120, 200] as const;

export interface ReproduceRow {
  scheduler: SchedulerName;
  meanVariance: number;
  medianVariance: number;
  medianReward: number;
  envsPerBatch: number;
  toolsPerBatch: number;
  /** Held-out score after 40, 120 and 200 steps (seed-averaged curve). */
  heldout: Record<string, number | null>;
  /** First step (1-based count of steps run) at which the seed-averaged held-out curve reaches random's best; null if never. */
  stepsToRandomBest: number | null;
  rollouts: number;
  fingerprints: string[];
}

export type PaperRow = Partial<Record<'meanVariance' | 'medianVariance' | 'medianReward' | 'envsPerBatch' | 'toolsPerBatch', number>>;

/**
 * The paper's figures that this project has (quoted in the project's requirements): random scheduling's mean
 * within-task reward variance, median reward and environments per batch on envscaler-rl. The
 * paper itself was not available here, so every other cell is left empty rather than guessed.
 */
export const PAPER: Readonly<Record<string, PaperRow>> = Object.freeze({
  random: { meanVariance: 0.032, medianReward: 0.595, envsPerBatch: 36.53 },
});

export interface Table4 {
  runs: number;
  steps: number;
  scheduler: SchedulerName;
  /** Mean realised variance of the batch at step 1 (the random cold start) and step 7. */
  meanVarianceStep1: number;
  meanVarianceStep7: number;
  /** Exploitation picks whose true expected variance was in the pool's top quartile. */
  hitRate: number | null;
}

export interface ReproduceResult {
  dataset: string;
  seeds: number;
  steps: number;
  rows: ReproduceRow[];
  paper: Record<string, PaperRow>;
  table4: Table4;
}

export interface ReproduceOptions {
  seeds: number;
  steps: number;
  table4Runs: number;
  schedulers?: readonly SchedulerName[];
  onProgress?: (done: number, total: number, label: string) => void;
}

function averagedCurve(runs: RunResult[]): number[] {
  const T = runs[0].steps.length;
  return Array.from({ length: T }, (_, t) => mean(runs.map((r) => r.steps[t].heldoutOverall)));
}

export async function reproduce(
  newWasm: () => Promise<RunWasm>,
  loaded: LoadedGraph,
  base: Config,
  source: string,
  options: ReproduceOptions,
): Promise<ReproduceResult> {
  const schedulers = options.schedulers ?? REPRODUCE_SCHEDULERS;
  const total = schedulers.length * options.seeds + options.table4Runs;
  let done = 0;
  const runsBy = new Map<SchedulerName, RunResult[]>();
  for (const scheduler of schedulers) {
    const runs: RunResult[] = [];
    for (let seed = 0; seed < options.seeds; seed++) {
      runs.push(runSimulation(await newWasm(), loaded, { ...base, scheduler, seed, T: options.steps }, source));
      options.onProgress?.(++done, total, `${scheduler} seed ${seed}`);
    }
    runsBy.set(scheduler, runs);
  }
  const randomRuns = runsBy.get('random');
  const randomBest = randomRuns ? Math.max(...averagedCurve(randomRuns)) : null;
  const rows: ReproduceRow[] = schedulers.map((scheduler) => {
    const runs = runsBy.get(scheduler)!;
    const curve = averagedCurve(runs);
    const heldout: Record<string, number | null> = {};
    for (const s of HELDOUT_STEPS) heldout[String(s)] = s <= curve.length ? curve[s - 1] : null;
    const reach = randomBest === null ? -1 : curve.findIndex((h) => h >= randomBest);
    const avg = (f: (r: RunResult) => number) => mean(runs.map(f));
    return {
      scheduler,
      meanVariance: avg((r) => r.summary.meanVariance),
      medianVariance: avg((r) => r.summary.medianVariance),
      medianReward: avg((r) => r.summary.medianReward),
      envsPerBatch: avg((r) => r.summary.envsPerBatch),
      toolsPerBatch: avg((r) => r.summary.toolsPerBatch),
      heldout,
      stepsToRandomBest: reach < 0 ? null : reach + 1,
      rollouts: avg((r) => r.summary.rollouts),
      fingerprints: runs.map((r) => r.fingerprint),
    };
  });

  // Table 4: short runs of EnvSched from random cold-start batches.
  const t4Steps = 7;
  const step1: number[] = [];
  const step7: number[] = [];
  let picks = 0;
  let hits = 0;
  for (let k = 0; k < options.table4Runs; k++) {
    const run = runSimulation(await newWasm(), loaded, { ...base, scheduler: 'envsched', seed: 1000 + k, T: t4Steps }, source, { randomColdStart: true });
    step1.push(run.steps[0].meanVariance);
    step7.push(run.steps[t4Steps - 1].meanVariance);
    for (const s of run.steps.slice(1)) {
      picks += s.exploitationPicks;
      hits += s.exploitationHits;
    }
    options.onProgress?.(++done, total, `table 4 run ${k + 1}`);
  }
  return {
    dataset: base.dataset,
    seeds: options.seeds,
    steps: options.steps,
    rows,
    paper: { ...PAPER },
    table4: {
      runs: options.table4Runs,
      steps: t4Steps,
      scheduler: 'envsched',
      meanVarianceStep1: mean(step1),
      meanVarianceStep7: mean(step7),
      hitRate: picks > 0 ? hits / picks : null,
    },
  };
}

function fmt(x: number | null | undefined, digits: number): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(digits);
}

/** The one table `reproduce` prints: simulated figures, the paper's beside them where known. */
export function reproduceTable(result: ReproduceResult): string {
  const header = ['scheduler', 'meanVar', '(paper)', 'medVar', '(paper)', 'medReward', '(paper)', 'envs/batch', '(paper)', 'tools/batch', '(paper)', ...HELDOUT_STEPS.map((s) => `held@${s}`), 'steps->rnd best'];
  const rows = result.rows.map((r) => {
    const p = result.paper[r.scheduler] ?? {};
    return [
      r.scheduler,
      fmt(r.meanVariance, 4), fmt(p.meanVariance, 4),
      fmt(r.medianVariance, 4), fmt(p.medianVariance, 4),
      fmt(r.medianReward, 3), fmt(p.medianReward, 3),
      fmt(r.envsPerBatch, 2), fmt(p.envsPerBatch, 2),
      fmt(r.toolsPerBatch, 1), fmt(p.toolsPerBatch, 1),
      ...HELDOUT_STEPS.map((s) => fmt(r.heldout[String(s)], 2)),
      r.stepsToRandomBest === null ? 'never' : String(r.stepsToRandomBest),
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
  const t4 = result.table4;
  return [
    `dataset ${result.dataset}, ${result.steps} steps, averaged over ${result.seeds} seed(s); "-" = figure not available`,
    line(header),
    ...rows.map(line),
    '',
    `Table 4 (${t4.runs} runs of ${t4.steps} steps of ${t4.scheduler} from random cold-start batches): mean batch variance ${fmt(t4.meanVarianceStep1, 4)} at step 1, ${fmt(t4.meanVarianceStep7, 4)} at step 7; exploitation hit rate ${fmt(t4.hitRate, 3)}`,
    '',
  ].join('\n');
}

/** The `--json` object: rows without fingerprints' noise removed (they stay: they identify the runs). */
export function reproduceJson(result: ReproduceResult): string {
  return `${JSON.stringify({ dataset: result.dataset, seeds: result.seeds, steps: result.steps, rows: result.rows, paper: result.paper, table4: result.table4 }, null, 1)}\n`;
}
