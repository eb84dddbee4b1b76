// Explain mode's worker calls: one real scheduling step taken apart for the walkthrough (the
// kernels' scores of that step, the numbers `envsched score` prints, with one task's terms and
// the batch's replay from the reference code: ./step-analysis.ts), "why this task" for the
// inspector, and the small pool's graph for the propagation view. Registered in engine.worker.ts
// with one line.
import type { CapRule, Config, Graph, Observation, StatTriple } from '../engine/types.ts';
import { groupStats, type TaskExplanation } from '../reference/index.ts';
import type { StepReference } from '../reference/index.ts';
import type { ScalarMath } from '../reference/math.ts';
import type { BatchReplay, BatchWhy, LeftOutReason, PickWhy } from '../reference/why.ts';
import { fastReplayBatch } from './batch-replay.ts';
import type { Lane, Result } from './api.ts';
import { explainTaskAt, type StepAnalysis } from './step-analysis.ts';

/** One rollout group as a scene shows it (SPEC 2 statistics included). */
export interface GroupView {
  task: number;
  step: number;
  rewards: number[];
  flags?: boolean[];
  m: number;
  v: number;
  d: number;
}

/** Everything the walkthrough shows for one step (plain, structured-cloneable data). */
export interface StepExplanation {
  step: number;
  coldStart: boolean;
  scoredAs: Config['scheduler'];
  config: Config;
  /** The task the per-task scenes follow. */
  target: TaskExplanation;
  targetPick: PickWhy | null;
  targetLeftOut: LeftOutReason | null;
  /** Scene 1: the target's newest group before t (or, if it has none, the first group of the newest step). */
  group: GroupView | null;
  /** Scene 2: the step references b_s with w(t,s), newest last (at most the last 24 steps). */
  stepRefs: { long: StepReference[]; short: StepReference[] } | null;
  batch: BatchWhy;
  /** Scene 7. */
  filters: { progressExcluded: number[]; removed: { task: number; step: number }[]; progressScored: number };
  /** Scene 8: the groups step t's batch got (null when step t has not been run). */
  rollouts: GroupView[] | null;
  /** b_t of those groups: the step reference they add to the history. */
  nextReference: StatTriple | null;
  /** Tasks observed before t, and the pool-wide long half-life prediction of v (null at the cold start). */
  observed: number;
  vhat: number[] | null;
  selections: number[];
  millis: number;
}

/** A small pool's graph for the propagation view: top neighbours per task. */
export interface PoolGraph {
  nTasks: number;
  within: [number, number, number][];
  cross: [number, number, number][];
}

export interface ExplainApi {
  explainStep(lane: Lane | 'imported', step: number, task: number | null): Promise<Result<StepExplanation>>;
  /** Null when the pool has more than `maxTasks` tasks (the view then shows one neighbourhood). */
  poolGraph(maxTasks: number): Promise<PoolGraph | null>;
}

/** What the worker hands this module: the analysis of a lane's history at a step. */
export interface ExplainSource {
  graph(): Graph | null;
  /** The scalar exp / pow / log of the WASM module (the reference terms then equal the kernels'). */
  math(): ScalarMath;
  analysisAt(
    lane: Lane | 'imported',
    step: number,
  ): Promise<Result<{ observations: readonly Observation[]; config: Config; analysis: StepAnalysis }>>;
}

const batchWhyCache = new WeakMap<StepAnalysis, BatchReplay>();

/** The batch's explanation for an analysis (computed once per analysis). */
export function batchWhyOf(graph: Graph, config: Config, analysis: StepAnalysis): BatchReplay {
  let why = batchWhyCache.get(analysis);
  if (!why) {
    why = fastReplayBatch(graph, config, analysis);
    batchWhyCache.set(analysis, why);
  }
  return why;
}

/** "Why this task": its pick (null if not picked), or what kept it out, and the caps relaxed that step. */
export interface TaskWhy {
  pick: PickWhy | null;
  leftOut: LeftOutReason | null;
  relaxed: CapRule[];
  /** The batch in pick order (a reason may name the pick a task lost to). */
  picks: { task: number; phase: PickWhy['phase'] }[];
}

/** "Why this task" for the inspector. */
export function taskWhy(graph: Graph, config: Config, analysis: StepAnalysis, task: number): TaskWhy {
  const why = batchWhyOf(graph, config, analysis);
  return {
    pick: why.batch.picks.find((p) => p.task === task) ?? null,
    leftOut: why.leftOutOf(task),
    relaxed: why.batch.relaxed,
    picks: why.batch.picks.map((p) => ({ task: p.task, phase: p.phase })),
  };
}

function groupView(o: Observation): GroupView {
  const s = groupStats(o.rewards);
  const g: GroupView = { task: o.task, step: o.step, rewards: [...o.rewards], m: s.m, v: s.v, d: s.d };
  if (o.flags) g.flags = [...o.flags];
  return g;
}

function defaultTarget(batch: BatchWhy): number {
  const pick = batch.picks.find((p) => p.phase === 'exploitation') ?? batch.picks[0];
  return pick ? pick.task : 0;
}

export function explainApi(source: ExplainSource): ExplainApi {
  return {
    async explainStep(lane, step, task) {
      const started = performance.now();
      const got = await source.analysisAt(lane, step);
      if (!got.ok) return got;
      const graph = source.graph()!;
      const { analysis, config, observations } = got.value;
      const replay = batchWhyOf(graph, config, analysis);
      const batch = replay.batch;
      const targetIndex = task !== null && task >= 0 && task < graph.tasks.length ? task : defaultTarget(batch);
      const target = explainTaskAt(graph, analysis, config, source.math(), targetIndex);
      const before = observations.filter((o) => o.step < step);
      const own = before.filter((o) => o.task === targetIndex).sort((x, y) => y.step - x.step)[0];
      const newestStep = before.reduce((m, o) => Math.max(m, o.step), -1);
      const fallback = before.filter((o) => o.step === newestStep).sort((x, y) => x.task - y.task)[0];
      const groupSource = own ?? fallback;
      const now = observations.filter((o) => o.step === step);
      const order = new Map(batch.picks.map((p, k) => [p.task, k]));
      const rollouts =
        now.length > 0
          ? now.map(groupView).sort((x, y) => (order.get(x.task) ?? 1e9) - (order.get(y.task) ?? 1e9) || x.task - y.task)
          : null;
      const mean = (y: keyof StatTriple) => (rollouts ? rollouts.reduce((s, g) => s + g[y], 0) / rollouts.length : NaN);
      const hl = analysis.halfLives;
      const value: StepExplanation = {
        step,
        coldStart: analysis.coldStart,
        scoredAs: config.scheduler,
        config,
        target,
        targetPick: batch.picks.find((p) => p.task === targetIndex) ?? null,
        targetLeftOut: replay.leftOutOf(targetIndex),
        group: groupSource ? groupView(groupSource) : null,
        stepRefs: hl ? { long: hl.long.stepReferences.slice(-24), short: hl.short.stepReferences.slice(-24) } : null,
        batch,
        filters: {
          progressExcluded: analysis.progress ? analysis.progress.perTask.flatMap((p, i) => (p.excluded ? [i] : [])) : [],
          removed: analysis.removedAt.flatMap((r, i) => (r ? [{ task: i, step: r.step }] : [])),
          progressScored: analysis.progress ? analysis.progress.residualsOf.filter((r) => r.length >= 3).length : 0,
        },
        rollouts,
        nextReference: rollouts ? { v: mean('v'), m: mean('m'), d: mean('d') } : null,
        observed: analysis.history.byTask.filter((g) => g.length > 0).length,
        vhat: hl ? Array.from(analysis.pool.longV) : null,
        selections: [...analysis.counts.c],
        millis: 0,
      };
      value.millis = performance.now() - started;
      return { ok: true, value };
    },

    async poolGraph(maxTasks) {
      const graph = source.graph();
      if (!graph || graph.tasks.length > maxTasks) return null;
      const within: [number, number, number][] = [];
      const cross: [number, number, number][] = [];
      const seen = new Set<string>();
      const keep = (out: [number, number, number][], i: number, j: number, s: number) => {
        const key = i < j ? `${i}:${j}` : `${j}:${i}`;
        if (seen.has(key)) return;
        seen.add(key);
        out.push([i, j, s]);
      };
      // Two strongest within-environment edges and the strongest cross-environment edge per task:
      // enough to see the structure without a hairball.
      graph.within.forEach((list, i) => list.slice(0, 2).forEach(([j, s]) => keep(within, i, j, s)));
      graph.cross.forEach((list, i) => list.slice(0, 1).forEach(([j, s]) => keep(cross, i, j, s)));
      return { nTasks: graph.tasks.length, within, cross };
    },
  };
}
