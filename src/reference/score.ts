// Scoring a history for step t (SPEC 2-8, output of SPEC 12). `analyse` is the one code path:
// `referenceScore` prints it as a scores object, `explainTask` shows one task's part of it.
import type { Config, Graph, HalfLifeScores, Neighbour, Observation, Scores, StatTriple, TaskScores } from '../engine/types.ts';
import { SCORABLE_SCHEDULERS } from '../engine/types.ts';
import { combineHalfLives, declineTerm, groupTriggersRemoval, percentileRanks } from './formulas.ts';
import { chooseBatch, coldStartBatch, selectionCounts, type BatchResult, type SelectionCounts } from './batch.ts';
import { neighbourSets, type NeighbourSets } from './neighbours.ts';
import { computeHalfLife, type HalfLifeResult, type TaskUnderHalfLife } from './predict.ts';
import { defaultStep, indexHistory, type HistoryIndex } from './history.ts';
import { JS_MATH, type ScalarMath } from './math.ts';
import { progressFilter, type ProgressResult, type TaskProgress, type Transition } from './progress-filter.ts';

/** Where the identifier filter (SPEC 8) removed a task: its first flagged rollout with reward >= 0.5. */
export interface Removal {
  step: number;
  rollout: number;
}

/** Everything computed for step t; both outputs read from this. */
export interface Analysis {
  step: number;
  /** True when no observation precedes t: SPEC 7's cold start, no predictions. */
  coldStart: boolean;
  history: HistoryIndex;
  neighbours: NeighbourSets;
  /** Null at the cold start. */
  halfLives: { long: HalfLifeResult; short: HalfLifeResult } | null;
  u: number[] | null;
  decline: number[] | null;
  q: number[] | null;
  progress: ProgressResult | null;
  removedAt: (Removal | null)[];
  counts: SelectionCounts;
  result: BatchResult;
}

/** Throws unless `scheduler` is one SPEC 12 defines scores for (EnvSched and its four ablations). */
export function assertScorable(config: Pick<Config, 'scheduler'>): void {
  if (!(SCORABLE_SCHEDULERS as readonly string[]).includes(config.scheduler)) {
    throw new Error(`scheduler "${config.scheduler}" is not scorable: scores are defined for ${SCORABLE_SCHEDULERS.join(', ')} (SPEC 12)`);
  }
}

/** SPEC 8 identifier filter over the history before t. */
export function removals(history: HistoryIndex): (Removal | null)[] {
  return history.byTask.map((groups) => {
    for (const g of groups) {
      if (!groupTriggersRemoval(g.rewards, g.flags)) continue;
      const rollout = g.rewards.findIndex((r, k) => g.flags?.[k] === true && r >= 0.5);
      return { step: g.step, rollout };
    }
    return null;
  });
}

/**
 * Runs SPEC 2-8 for step t (default: one past the last step of the history) on the given
 * exp / pow / log (default the JS engine's; pass the WASM module's to agree with it to the bit).
 */
export function analyse(
  graph: Graph,
  observations: readonly Observation[],
  config: Config,
  step?: number,
  math: ScalarMath = JS_MATH,
): Analysis {
  assertScorable(config);
  const t = step ?? defaultStep(observations);
  if (!Number.isInteger(t) || t < 0) throw new Error(`step must be a non-negative integer, got ${t}`);
  const history = indexHistory(observations, graph.tasks.length, t);
  const neighbours = neighbourSets(graph, history, config);
  const removedAt = removals(history);
  const removed = removedAt.map((r) => r !== null);
  const counts = selectionCounts(graph, history, config.C_task);

  if (history.steps.length === 0) {
    // SPEC 7: nothing observed before t (t = 0, or a later step asked of an empty history).
    return {
      step: t,
      coldStart: true,
      history,
      neighbours,
      halfLives: null,
      u: null,
      decline: null,
      q: null,
      progress: null,
      removedAt,
      counts,
      result: coldStartBatch(graph, config, removed),
    };
  }

  const long = computeHalfLife(history, neighbours, config, config.h_long, math);
  const short = computeHalfLife(history, neighbours, config, config.h_short, math);
  const u = long.tasks.map((task, i) => combineHalfLives(task.u, short.tasks[i].u, config.eta_decline));
  const decline = long.tasks.map((task, i) => declineTerm(task.u, short.tasks[i].u, config.eta_decline));
  const q = percentileRanks(u);
  const progressNeighbours: Neighbour[][] = graph.tasks.map((_, i) => [...neighbours.within[i], ...neighbours.cross[i]]);
  const progress = progressFilter(graph, history, progressNeighbours, config, math);
  const result = chooseBatch(graph, config, {
    q,
    removed,
    progressExcluded: progress.perTask.map((p) => p.excluded),
    counts,
  });
  return { step: t, coldStart: false, history, neighbours, halfLives: { long, short }, u, decline, q, progress, removedAt, counts, result };
}

function halfLifeRow(task: TaskUnderHalfLife): HalfLifeScores {
  return { v: task.predicted.v, m: task.predicted.m, d: task.predicted.d, u: task.u };
}

function statRow(s: StatTriple): StatTriple {
  return { v: s.v, m: s.m, d: s.d };
}

/** The SPEC 12 scores object of an analysis. */
export function scoresOf(graph: Graph, analysis: Analysis): Scores {
  const { halfLives, u, q, progress } = analysis;
  const tasks: TaskScores[] = graph.tasks.map((task, i) => {
    const progressExcluded = progress ? progress.perTask[i].excluded : false;
    const removed = analysis.removedAt[i] !== null;
    if (!halfLives || !u || !q) return { id: task.id, progressExcluded, removed };
    return {
      id: task.id,
      long: halfLifeRow(halfLives.long.tasks[i]),
      short: halfLifeRow(halfLives.short.tasks[i]),
      u: u[i],
      q: q[i],
      progressExcluded,
      removed,
    };
  });
  return {
    step: analysis.step,
    reference: halfLives ? { long: statRow(halfLives.long.reference), short: statRow(halfLives.short.reference) } : {},
    tasks,
    batch: analysis.result.batch.map((pick) => ({ id: graph.tasks[pick.task].id, phase: pick.phase })),
    relaxed: [...analysis.result.relaxed],
  };
}

/**
 * The scores object (SPEC 12) for step `step` (default: one past the last step in the history):
 * predictions for both half-lives, u, q, the filter flags, the batch in pick order, the relaxed caps.
 * Only observations with s < step are used. Throws for schedulers other than EnvSched and its ablations.
 */
export function referenceScore(
  graph: Graph,
  observations: readonly Observation[],
  config: Config,
  step?: number,
  math: ScalarMath = JS_MATH,
): Scores {
  return scoresOf(graph, analyse(graph, observations, config, step, math));
}

// ---------------------------------------------------------------------------------------------
// The task inspector's view of one task.

export interface HalfLifeExplanation {
  h: number;
  /** B_t per statistic. */
  reference: StatTriple;
  W: number;
  ybar: StatTriple;
  /** The task's own centred observations y~_{i,s} with w(t,s). */
  centred: TaskUnderHalfLife['centred'];
  within: TaskUnderHalfLife['within'];
  cross: TaskUnderHalfLife['cross'];
  prior: StatTriple;
  predicted: StatTriple;
  f: number;
  u: number;
}

export interface TaskExplanation {
  step: number;
  taskIndex: number;
  id: string;
  env: number;
  coldStart: boolean;
  /** Null at the cold start (no predictions). */
  long: HalfLifeExplanation | null;
  short: HalfLifeExplanation | null;
  /** Combined u (SPEC 5), the decline term subtracted from u_long, and q = pr(u). */
  u: number | null;
  decline: number | null;
  q: number | null;
  progress: (TaskProgress & { transitions: Transition[] }) | null;
  progressExcluded: boolean;
  removed: boolean;
  removedAt: Removal | null;
  /** c_i and the task's place in this step's batch (null when not picked). */
  selections: number;
  batch: { position: number; phase: string } | null;
  history: { step: number; rewards: number[]; flags?: boolean[]; m: number; v: number; d: number }[];
}

/** One task's terms under one half-life, as the inspector shows them (`u` given: it is calibrated over the pool). */
export function halfLifeExplanation(h: number, reference: StatTriple, task: Omit<TaskUnderHalfLife, 'u'>, u: number): HalfLifeExplanation {
  return {
    h,
    reference,
    W: task.W,
    ybar: task.ybar,
    centred: task.centred,
    within: task.within,
    cross: task.cross,
    prior: task.prior,
    predicted: task.predicted,
    f: task.f,
    u,
  };
}

function explainHalfLife(result: HalfLifeResult, i: number): HalfLifeExplanation {
  return halfLifeExplanation(result.h, result.reference, result.tasks[i], result.tasks[i].u);
}

/** The last fields of a task's explanation: its filter state, its selections, its place in the batch and its history. */
export function taskStanding(
  history: HistoryIndex,
  removedAt: readonly (Removal | null)[],
  counts: SelectionCounts,
  batch: BatchResult['batch'],
  i: number,
): Pick<TaskExplanation, 'removed' | 'removedAt' | 'selections' | 'batch' | 'history'> {
  const position = batch.findIndex((pick) => pick.task === i);
  return {
    removed: removedAt[i] !== null,
    removedAt: removedAt[i],
    selections: counts.c[i],
    batch: position === -1 ? null : { position, phase: batch[position].phase },
    history: history.byTask[i].map((g) => {
      const row: TaskExplanation['history'][number] = { step: g.step, rewards: [...g.rewards], m: g.stats.m, v: g.stats.v, d: g.stats.d };
      if (g.flags) row.flags = [...g.flags];
      return row;
    }),
  };
}

/** Explains an analysis for one task (what `score` prints for it, and every term behind it). */
export function explainFromAnalysis(graph: Graph, analysis: Analysis, taskIndex: number): TaskExplanation {
  if (!Number.isInteger(taskIndex) || taskIndex < 0 || taskIndex >= graph.tasks.length) {
    throw new Error(`task index ${taskIndex} is outside the pool of ${graph.tasks.length} tasks`);
  }
  const i = taskIndex;
  const { halfLives, progress } = analysis;
  const taskProgress = progress ? { ...progress.perTask[i], transitions: progress.transitions.filter((tr) => tr.task === i) } : null;
  return {
    step: analysis.step,
    taskIndex: i,
    id: graph.tasks[i].id,
    env: graph.tasks[i].env,
    coldStart: analysis.coldStart,
    long: halfLives ? explainHalfLife(halfLives.long, i) : null,
    short: halfLives ? explainHalfLife(halfLives.short, i) : null,
    u: analysis.u ? analysis.u[i] : null,
    decline: analysis.decline ? analysis.decline[i] : null,
    q: analysis.q ? analysis.q[i] : null,
    progress: taskProgress,
    progressExcluded: taskProgress ? taskProgress.excluded : false,
    ...taskStanding(analysis.history, analysis.removedAt, analysis.counts, analysis.result.batch, i),
  };
}

/** The task inspector's explanation of task `taskIndex` at `step` (same code path as `referenceScore`). */
export function explainTask(
  graph: Graph,
  observations: readonly Observation[],
  config: Config,
  step: number | undefined,
  taskIndex: number,
  math: ScalarMath = JS_MATH,
): TaskExplanation {
  return explainFromAnalysis(graph, analyse(graph, observations, config, step, math), taskIndex);
}
