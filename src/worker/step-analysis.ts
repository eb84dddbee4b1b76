// The analysis of one step behind Explain mode and the inspector, fast enough to open at once on
// 2,550 tasks. The pool-wide numbers (predictions, u, q, the filters, B_t, the batch) come from
// the WASM kernels (src/engine/pool-scores.ts: what `envsched score --step t` prints); the reference
// code (src/reference/) computes only what is cheap or concerns one task: the history index, the
// SPEC 6 counts, the identifier filter's removals, the step references, the progress filter's
// residuals (fixed once computed, so scored once per history), and one task's terms: its centred
// history, observed neighbours, relation estimates and prediction. Those are checked against the
// kernels' prediction for the task, so an explanation never shows numbers other than the
// scheduler's. The reference's whole-pool `analyse` stays the oracle: test/explain-fast.test.ts
// compares the two on random cases.
import type { PoolScores } from '../engine/pool-scores.ts';
import type { Config, Graph, Neighbour, Observation, StatTriple } from '../engine/types.ts';
import type { ScalarMath } from '../reference/math.ts';
import type { TaskExplanation, Removal } from '../reference/score.ts';
import { halfLifeExplanation, removals, taskStanding } from '../reference/score.ts';
import { declineTerm, isProgressExcluded, mean, progressScore } from '../reference/formulas.ts';
import { indexHistory, type HistoryIndex, type ObservedGroup } from '../reference/history.ts';
import { firstObserved } from '../reference/neighbours.ts';
import { selectionCounts, type SelectionCounts } from '../reference/batch.ts';
import { globalReference, stepReferences, taskHistory, taskPrediction, type StepReference } from '../reference/predict.ts';
import {
  listTransitions,
  neighbourReference,
  residualsByTask,
  scoreTransitions,
  sumInOrder,
  type TaskProgress,
  type Transition,
} from '../reference/progress-filter.ts';
import type { BatchFacts } from '../reference/why.ts';

/** A whole history, indexed once (per run or import): every step's analysis reads a prefix of it. */
export class PreparedHistory {
  readonly full: HistoryIndex;
  private readonly scored = new Map<number, Transition[]>();

  constructor(
    readonly observations: readonly Observation[],
    nTasks: number,
  ) {
    this.full = indexHistory(observations, nTasks, Number.MAX_SAFE_INTEGER); // refuses a task twice in a step
  }

  /**
   * SPEC 8's transitions of the whole history with their residuals. A residual depends only on
   * the transitions that end before it, so step t's are exactly those with s2 < t.
   */
  transitions(graph: Graph, lambdaRidge: number, math: ScalarMath): Transition[] {
    let list = this.scored.get(lambdaRidge);
    if (!list) {
      list = scoreTransitions(listTransitions(graph, this.full, math), lambdaRidge);
      this.scored.set(lambdaRidge, list);
    }
    return list;
  }
}

/** SPEC 2's history as of step t, from the indexed whole history (the same groups as indexHistory). */
export function historyBefore(full: HistoryIndex, t: number): HistoryIndex {
  const byTask = full.byTask.map((groups) => {
    let end = groups.length;
    while (end > 0 && groups[end - 1].step >= t) end--;
    return end === groups.length ? groups : groups.slice(0, end);
  });
  const steps = full.steps.filter((s) => s < t);
  const byStep = new Map<number, ObservedGroup[]>();
  for (const s of steps) byStep.set(s, full.byStep.get(s)!);
  return { t, byTask, steps, byStep };
}

/** One half-life's step references and B_t (SPEC 3). */
export interface HalfLifeBasis {
  h: number;
  stepReferences: StepReference[];
  reference: StatTriple;
  refByStep: Map<number, StepReference>;
}

/** Step t analysed: the kernels' pool-wide scores and the reference's cheap parts. */
export interface StepAnalysis extends BatchFacts {
  step: number;
  coldStart: boolean;
  history: HistoryIndex;
  pool: PoolScores;
  q: Float64Array | null;
  counts: SelectionCounts;
  removedAt: (Removal | null)[];
  /** Null at the cold start. `perTask[i].excluded` is the kernels' flag. */
  progress: { perTask: { excluded: boolean }[]; transitions: Transition[]; residualsOf: number[][] } | null;
  result: { batch: { task: number; phase: PoolScores['batch'][number]['phase'] }[]; relaxed: PoolScores['relaxed'] };
  halfLives: { long: HalfLifeBasis; short: HalfLifeBasis } | null;
}

function basis(history: HistoryIndex, h: number, math: ScalarMath): HalfLifeBasis {
  const refs = stepReferences(history, h, math);
  return {
    h,
    stepReferences: refs,
    reference: globalReference(refs, history.t, h, math),
    refByStep: new Map(refs.map((r) => [r.step, r])),
  };
}

/** Throws unless the reference's value is the kernels' (to 1e-9): the explanation would describe another step. */
function agree(what: string, reference: number, kernels: number): void {
  if (!(Math.abs(reference - kernels) <= 1e-9 * Math.max(1, Math.abs(kernels)))) {
    throw new Error(`explain: ${what} is ${reference} in the reference terms but ${kernels} in the scheduler's scores`);
  }
}

/** Analyses step t of a prepared history from the kernels' scores of that step. */
export function analyseStep(graph: Graph, prepared: PreparedHistory, config: Config, pool: PoolScores, math: ScalarMath): StepAnalysis {
  const t = pool.step;
  const history = historyBefore(prepared.full, t);
  const removedAt = removals(history);
  removedAt.forEach((r, i) => agree(`the identifier filter's flag of task ${i}`, r === null ? 0 : 1, pool.removed[i]));
  const counts = selectionCounts(graph, history, config.C_task);
  const result = { batch: pool.batch, relaxed: pool.relaxed };
  agree('the cold start flag', history.steps.length === 0 ? 1 : 0, pool.coldStart ? 1 : 0);
  if (pool.coldStart) {
    return { step: t, coldStart: true, history, pool, q: null, counts, removedAt, progress: null, result, halfLives: null };
  }
  const halfLives = { long: basis(history, config.h_long, math), short: basis(history, config.h_short, math) };
  const r = pool.reference;
  (['v', 'm', 'd'] as const).forEach((y, k) => {
    agree(`B_t ${y} (long half-life)`, halfLives.long.reference[y], r[k]);
    agree(`B_t ${y} (short half-life)`, halfLives.short.reference[y], r[3 + k]);
  });
  const transitions = prepared.transitions(graph, config.lambda_ridge, math).filter((tr) => tr.s2 < t);
  const progress = {
    perTask: Array.from(pool.excluded, (x) => ({ excluded: x === 1 })),
    transitions,
    residualsOf: residualsByTask(graph.tasks.length, transitions),
  };
  return { step: t, coldStart: false, history, pool, q: pool.q, counts, removedAt, progress, result, halfLives };
}

/** SPEC 8's p_i for one task (the reference's progressFilter, for task i alone). */
function progressOf(
  graph: Graph,
  residualsOf: readonly number[][],
  neighbours: readonly Neighbour[],
  kappa: number,
  i: number,
): TaskProgress {
  const env = graph.tasks[i].env;
  const envResiduals: number[] = [];
  graph.tasks.forEach((task, k) => {
    if (task.env === env) envResiduals.push(...residualsOf[k]);
  });
  const taskSums = residualsOf.map(sumInOrder);
  const residuals = residualsOf[i];
  const refEnv = mean(envResiduals);
  const refNb = neighbourReference(neighbours, residualsOf, taskSums);
  const p = progressScore(residuals, refEnv, refNb, kappa);
  return { residuals, refEnv, refNb, p, excluded: isProgressExcluded(residuals.length, p) };
}

/** The inspector's explanation of task i at the analysed step: `explainFromAnalysis`'s result, from one task's terms. */
export function explainTaskAt(graph: Graph, a: StepAnalysis, config: Config, math: ScalarMath, i: number): TaskExplanation {
  if (!Number.isInteger(i) || i < 0 || i >= graph.tasks.length) {
    throw new Error(`task index ${i} is outside the pool of ${graph.tasks.length} tasks`);
  }
  const { history, pool } = a;
  const observed = (j: number) => history.byTask[j].length > 0;
  const within = firstObserved(graph.within[i], config.K_within, observed);
  const cross = firstObserved(graph.cross[i], config.K_cross, observed);

  const halfLife = (b: HalfLifeBasis, kernels: { v: Float64Array; m: Float64Array; d: Float64Array; u: Float64Array }, name: string) => {
    // W and ybar of the task and of its observed neighbours only (taskPrediction reads no others).
    const perTask: ReturnType<typeof taskHistory>[] = [];
    for (const j of [i, ...within.map(([j]) => j), ...cross.map(([j]) => j)])
      perTask[j] ??= taskHistory(history, j, b.refByStep, b.reference, b.h, math);
    const task = taskPrediction(perTask[i], within, cross, history, perTask, b.reference, config, math);
    for (const y of ['v', 'm', 'd'] as const) agree(`task ${i}'s predicted ${y} (${name} half-life)`, task.predicted[y], kernels[y][i]);
    return halfLifeExplanation(b.h, b.reference, task, kernels.u[i]); // u: calibrated over the whole pool (SPEC 5), the kernels' value
  };

  const hl = a.halfLives;
  const long = hl ? halfLife(hl.long, { v: pool.longV, m: pool.longM, d: pool.longD, u: pool.longU }, 'long') : null;
  const short = hl ? halfLife(hl.short, { v: pool.shortV, m: pool.shortM, d: pool.shortD, u: pool.shortU }, 'short') : null;
  let progress: TaskExplanation['progress'] = null;
  if (a.progress) {
    const own = progressOf(graph, a.progress.residualsOf, [...within, ...cross], config.kappa, i);
    agree(`task ${i}'s progress-filter flag`, own.excluded ? 1 : 0, pool.excluded[i]);
    progress = { ...own, transitions: a.progress.transitions.filter((tr) => tr.task === i) };
  }
  return {
    step: a.step,
    taskIndex: i,
    id: graph.tasks[i].id,
    env: graph.tasks[i].env,
    coldStart: a.coldStart,
    long,
    short,
    u: hl ? pool.u[i] : null,
    decline: hl ? declineTerm(pool.longU[i], pool.shortU[i], config.eta_decline) : null,
    q: hl ? pool.q[i] : null,
    progress,
    progressExcluded: progress ? progress.excluded : false,
    ...taskStanding(history, a.removedAt, a.counts, a.result.batch, i),
  };
}
