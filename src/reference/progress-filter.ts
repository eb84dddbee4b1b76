// SPEC 8 progress filter: transitions, the ridge fits on earlier transitions, residuals and p_i.
import type { Config, Graph, Neighbour } from '../engine/types.ts';
import { dot, isProgressExcluded, mean, NormalEquations, progressScore, transitionFeatures } from './formulas.ts';
import { environmentCategories } from './graph.ts';
import type { HistoryIndex } from './history.ts';
import type { ScalarMath } from './math.ts';

/** A pair of consecutive observations of one task (SPEC 8). All of them are complete: s2 < t. */
export interface Transition {
  task: number;
  s1: number;
  s2: number;
  features: number[];
  /** The target m2. */
  target: number;
  /** m2 - x . beta, or null when fewer than 8 complete transitions end before s2 (not scorable). */
  residual: number | null;
}

export interface TaskProgress {
  /** The task's scorable residuals R_i, by step. */
  residuals: number[];
  refEnv: number;
  refNb: number;
  /** p_i. */
  p: number;
  excluded: boolean;
}

export interface ProgressResult {
  transitions: Transition[];
  perTask: TaskProgress[];
}

/** The minimum number of earlier complete transitions for a transition to be scorable (SPEC 8). */
export const MIN_EARLIER_TRANSITIONS = 8;

/** SPEC 8: every transition of the history (observations at s < t only), by s2 then task index. */
export function listTransitions(graph: Graph, history: HistoryIndex, math: ScalarMath): Omit<Transition, 'residual'>[] {
  const { envCategory, nCategories } = environmentCategories(graph);
  const out: Omit<Transition, 'residual'>[] = [];
  history.byTask.forEach((groups, task) => {
    const category = envCategory[graph.tasks[task].env];
    for (let k = 0; k + 1 < groups.length; k++) {
      const first = groups[k];
      const second = groups[k + 1];
      // n1 = the task's observation count up to and including s1 = k + 1.
      const features = transitionFeatures(first.stats.m, first.stats.v, first.step, k + 1, category, nCategories, math);
      out.push({ task, s1: first.step, s2: second.step, features, target: second.stats.m });
    }
  });
  out.sort((a, b) => a.s2 - b.s2 || a.task - b.task);
  return out;
}

/**
 * SPEC 8: a transition's residual uses the ridge fit on exactly the complete transitions with
 * s2' < s2 (at least 8 of them). That set does not depend on t, so residuals are fixed once
 * computed. Walking the transitions by s2, the normal equations of "every transition before this
 * s2" grow by one s2 group at a time (rows added in (s2, task) order, as a fit from scratch would).
 */
export function scoreTransitions(transitions: readonly Omit<Transition, 'residual'>[], lambdaRidge: number): Transition[] {
  const sorted = [...transitions].sort((a, b) => a.s2 - b.s2 || a.task - b.task);
  if (sorted.length === 0) return [];
  const earlier = new NormalEquations(sorted[0].features.length);
  const out: Transition[] = [];
  let start = 0;
  while (start < sorted.length) {
    let end = start; // [start, end) = the transitions ending at this s2
    while (end < sorted.length && sorted[end].s2 === sorted[start].s2) end++;
    const beta = earlier.rows >= MIN_EARLIER_TRANSITIONS ? earlier.solveRidge(lambdaRidge) : null;
    for (let k = start; k < end; k++) {
      const tr = sorted[k];
      out.push({ ...tr, residual: beta === null ? null : tr.target - dot(tr.features, beta) });
    }
    for (let k = start; k < end; k++) earlier.add(sorted[k].features, sorted[k].target);
    start = end;
  }
  return out;
}

/** SPEC 8: p_i and the exclusion of every task. `neighbours[i]` is N_in(i) followed by N_cross(i). */
export function progressFilter(
  graph: Graph,
  history: HistoryIndex,
  neighbours: readonly (readonly Neighbour[])[],
  config: Pick<Config, 'lambda_ridge' | 'kappa'>,
  math: ScalarMath,
): ProgressResult {
  const transitions = scoreTransitions(listTransitions(graph, history, math), config.lambda_ridge);
  const residualsOf = residualsByTask(graph.tasks.length, transitions);

  const envResiduals: number[][] = graph.envs.map(() => []);
  graph.tasks.forEach((task, i) => envResiduals[task.env].push(...residualsOf[i]));

  const taskSums = residualsOf.map(sumInOrder);
  const perTask = graph.tasks.map((task, i) => {
    const residuals = residualsOf[i];
    const refEnv = mean(envResiduals[task.env]); // SPEC 8: 0 if none
    const refNb = neighbourReference(neighbours[i], residualsOf, taskSums);
    const p = progressScore(residuals, refEnv, refNb, config.kappa);
    return { residuals, refEnv, refNb, p, excluded: isProgressExcluded(residuals.length, p) };
  });
  return { transitions, perTask };
}

/** R_i for every task: the scorable residuals of its transitions, in the transitions' (s2, task) order. */
export function residualsByTask(nTasks: number, transitions: readonly Transition[]): number[][] {
  const residualsOf: number[][] = [];
  for (let i = 0; i < nTasks; i++) residualsOf.push([]);
  for (const tr of transitions) if (tr.residual !== null) residualsOf[tr.task].push(tr.residual);
  return residualsOf;
}

export function sumInOrder(values: readonly number[]): number {
  let sum = 0;
  for (const x of values) sum += x;
  return sum;
}

/**
 * SPEC 8 ref_nb: the mean of the pooled scorable residuals of N_in(i) followed by N_cross(i),
 * summed neighbour by neighbour in list order: each neighbour's residuals are summed by step
 * first (`taskSums`), then those sums are added (docs/spec-decisions.md; the WASM kernel does the
 * same additions). 0 when no neighbour has a residual.
 */
export function neighbourReference(
  list: readonly Neighbour[],
  residualsOf: readonly (readonly number[])[],
  taskSums: readonly number[],
): number {
  let sum = 0;
  let count = 0;
  for (const [j] of list) {
    const n = residualsOf[j].length;
    if (n === 0) continue;
    sum += taskSums[j];
    count += n;
  }
  return count > 0 ? sum / count : 0;
}
