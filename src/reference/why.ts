// "Why this task": replays the batch of an analysis (SPEC 6, SPEC 7) one pick at a time and
// records, for every pick, what decided it (the phase, the coverage restriction's criterion, the
// q rank among the candidates left, the exploitation score's parts, the runner-up), and for every
// task left out, what kept it out. The replay recomputes each pick from the same inputs and
// throws if it ever disagrees with the batch the analysis chose, so an explanation can never
// describe a batch other than the one `envsched score` prints.
import type { CapRule, Config, Graph, Phase } from '../engine/types.ts';
import { effectiveRho } from '../engine/config.ts';
import { coverageObjective, exploitationObjective, exposureFactor, mean, novelty } from './formulas.ts';
import { tasksByEnvironment } from './graph.ts';
import type { Removal } from './score.ts';
import { RELAXATION_ORDER, type SelectionCounts } from './batch.ts';

/**
 * What the replay reads about step t: an `Analysis` of the reference has this shape, and so has
 * the worker's faster analysis (the kernels' q, filters and batch), which the replay then checks.
 */
export interface BatchFacts {
  step: number;
  coldStart: boolean;
  /** q = pr(u) per task (null at the cold start). */
  q: ArrayLike<number> | null;
  counts: SelectionCounts;
  removedAt: readonly (Removal | null)[];
  progress: { perTask: readonly { excluded: boolean }[] } | null;
  /** The batch the scheduler chose, in pick order. */
  result: { batch: readonly { task: number; phase: Phase }[] };
}

/** One competitor at one pick: its terms and its objective. */
export interface Contender {
  task: number;
  q: number;
  /** omega_i (exploitation only; 1 in the coverage phase, where q enters unscaled). */
  omega: number;
  /** max_{j in Bt} S_full(i, j) (0 while the batch is empty). */
  similarity: number;
  /** lambda_sim times that similarity: what the objective subtracts. */
  penalty: number;
  /** The phase's objective (SPEC 6), or the novelty at the cold start (SPEC 7). */
  score: number;
}

/** The criterion of the coverage restriction (SPEC 6) that left the pick among the fewest candidates. */
export type CoverageCriterion = 'environment' | 'exposure' | 'observations' | 'none';

export interface CoverageRestriction {
  /** Candidates after each step of the restriction: eligible, then smallest n_e, X_e, c_i. */
  eligible: number;
  afterEnvironment: number;
  afterExposure: number;
  afterObservations: number;
  /** The pick's n_e, X_e and c_i (the smallest values, by construction). */
  nInBatch: number;
  exposure: number;
  observations: number;
  /** The last criterion that removed candidates ('none' when the restriction kept every eligible task). */
  decidedBy: CoverageCriterion;
}

export interface PickWhy {
  /** 0-based position in the batch. */
  position: number;
  task: number;
  phase: Phase;
  /** Caps relaxed so far this step (SPEC 6: each stays relaxed for the rest of the batch). */
  relaxed: CapRule[];
  /** Caps that had to be relaxed for this very pick. */
  newlyRelaxed: CapRule[];
  /** The pick's own terms. */
  self: Contender;
  /** The best other candidate of the final set it was chosen from (null when it was alone). */
  runnerUp: Contender | null;
  /** Rank of the pick's q among the final candidates (1 = highest q; ties share the better rank). */
  qRank: number;
  /** How many candidates the argmax ran over. */
  candidates: number;
  /** Coverage picks only. */
  restriction: CoverageRestriction | null;
  /** Cold start only: 'representative' (SPEC 7.1) or 'novelty' (SPEC 7.2). */
  coldStartRule: 'representative' | 'novelty' | null;
}

/** Why a task is not in the batch. */
export type LeftOutReason =
  | { kind: 'removed'; step: number }
  | { kind: 'progress' }
  | { kind: 'cap'; rule: CapRule }
  | { kind: 'penalty'; position: number; margin: number }
  | { kind: 'rank'; position: number; rank: number; candidates: number; gap: number }
  | { kind: 'restriction'; criterion: Exclude<CoverageCriterion, 'none'> }
  | { kind: 'cold-start' }
  /** The batch had no slot at all (B = 0). */
  | { kind: 'no-room' };

export interface BatchWhy {
  step: number;
  bCov: number;
  bExp: number;
  picks: PickWhy[];
  relaxed: CapRule[];
}

export interface ReplayState {
  members: number[];
  inBatch: boolean[];
  perEnv: number[];
  /** Running max of S_full(k, j) over the members j whose partner list holds k (see `add`). */
  maxSim: Float64Array;
  maxSimSameEnv: Float64Array;
  /** How many members (of k's environment) had k in their partner list. */
  touched: Int32Array;
  touchedSameEnv: Int32Array;
  relaxed: CapRule[];
}

export function newState(graph: Graph): ReplayState {
  const n = graph.tasks.length;
  return {
    members: [],
    inBatch: graph.tasks.map(() => false),
    perEnv: graph.envs.map(() => 0),
    maxSim: new Float64Array(n).fill(-Infinity),
    maxSimSameEnv: new Float64Array(n).fill(-Infinity),
    touched: new Int32Array(n),
    touchedSameEnv: new Int32Array(n),
    relaxed: [],
  };
}

/**
 * partners[i]: every k != i whose S_full(k, i) (SPEC 1's lookup: the first entry of a list wins)
 * may be non-zero, with that value; S_full(k, i) is 0 for every other k. Built once per graph, in
 * CSR form: partnerK / partnerS over partnerOffsets[i] .. partnerOffsets[i + 1].
 */
interface SimilarityIndex {
  partnerOffsets: Int32Array;
  partnerK: Int32Array;
  partnerS: Float64Array;
}
const similarityIndexes = new WeakMap<Graph, SimilarityIndex>();

function similarityIndex(graph: Graph): SimilarityIndex {
  let index = similarityIndexes.get(graph);
  if (index) return index;
  const n = graph.tasks.length;
  const env = Int32Array.from(graph.tasks, (t) => t.env);
  // Every pair (k -> i) with its value S_full(k, i), from three sources that never overlap:
  // same environment: i in within[k]; other environments: i in fullCross[k], or else k in fullCross[i].
  const from: number[] = [];
  const to: number[] = [];
  const value: number[] = [];
  const seen = new Int32Array(n).fill(-1);
  const firstEntries = (lists: Graph['within'], k: number, visit: (i: number, s: number) => void) => {
    for (const [i, s] of lists[k]) {
      if (seen[i] === k) continue;
      seen[i] = k;
      visit(i, s);
    }
  };
  const pair = (k: number, i: number, s: number) => {
    if (k === i) return;
    from.push(k);
    to.push(i);
    value.push(s);
  };
  for (let k = 0; k < n; k++) firstEntries(graph.within, k, (i, s) => env[i] === env[k] && pair(k, i, s));
  seen.fill(-1);
  const inFullCross = (k: number, i: number) => graph.fullCross[k].some(([j]) => j === i);
  for (let k = 0; k < n; k++)
    firstEntries(graph.fullCross, k, (i, s) => {
      if (env[i] === env[k]) return;
      pair(k, i, s); // S_full(k, i): k's own list first
      if (!inFullCross(i, k)) pair(i, k, s); // S_full(i, k) falls back to k's list
    });
  const partnerOffsets = new Int32Array(n + 1);
  for (const i of to) partnerOffsets[i + 1]++;
  for (let i = 0; i < n; i++) partnerOffsets[i + 1] += partnerOffsets[i];
  const fill = partnerOffsets.slice(0, n);
  const partnerK = new Int32Array(to.length);
  const partnerS = new Float64Array(to.length);
  for (let e = 0; e < to.length; e++) {
    const at = fill[to[e]]++;
    partnerK[at] = from[e];
    partnerS[at] = value[e];
  }
  index = { partnerOffsets, partnerK, partnerS };
  similarityIndexes.set(graph, index);
  return index;
}

/** Adds i to the batch: the running maxima move for i's partners only (the rest gain an S_full of 0). */
export function add(graph: Graph, st: ReplayState, i: number): void {
  const env = graph.tasks[i].env;
  const { partnerOffsets, partnerK, partnerS } = similarityIndex(graph);
  for (let p = partnerOffsets[i]; p < partnerOffsets[i + 1]; p++) {
    const k = partnerK[p];
    st.maxSim[k] = Math.max(st.maxSim[k], partnerS[p]);
    st.touched[k] += 1;
    if (graph.tasks[k].env === env) {
      st.maxSimSameEnv[k] = Math.max(st.maxSimSameEnv[k], partnerS[p]);
      st.touchedSameEnv[k] += 1;
    }
  }
  st.inBatch[i] = true;
  st.perEnv[env] += 1;
  st.members.push(i);
}

/** max_{j in Bt} S_full(i, j) for i not in the batch (0 while it is empty). */
export function similarityOf(st: ReplayState, i: number): number {
  if (st.members.length === 0) return 0;
  // A member that is not a partner of i contributes S_full = 0.
  return st.touched[i] < st.members.length ? Math.max(st.maxSim[i], 0) : st.maxSim[i];
}

/** max over the members of i's own environment (0 when there are none), for i not in the batch. */
function sameEnvSimilarityOf(graph: Graph, st: ReplayState, i: number): number {
  const members = st.perEnv[graph.tasks[i].env];
  if (members === 0) return 0;
  return st.touchedSameEnv[i] < members ? Math.max(st.maxSimSameEnv[i], 0) : st.maxSimSameEnv[i];
}

/** Which caps are still enforced at this pick (SPEC 6: a relaxed cap stays relaxed for the step). */
export interface Enforced {
  C1: boolean;
  C3: boolean;
  C_task: boolean;
}

export function enforcedCaps(st: ReplayState): Enforced {
  return { C1: !st.relaxed.includes('C1'), C3: !st.relaxed.includes('C3'), C_task: !st.relaxed.includes('C_task') };
}

/** Per-task facts of the step that the eligibility test reads at every pick, as flat arrays. */
interface TaskFacts {
  env: Int32Array;
  capped: Uint8Array;
  removed: Uint8Array;
  excluded: Uint8Array;
}

function taskFacts(graph: Graph, a: BatchFacts): TaskFacts {
  return {
    env: Int32Array.from(graph.tasks, (t) => t.env),
    capped: Uint8Array.from(a.counts.consecutiveCapped, Number),
    removed: Uint8Array.from(a.removedAt, (r) => (r === null ? 0 : 1)),
    excluded: Uint8Array.from(graph.tasks, (_, i) => (a.progress?.perTask[i].excluded ? 1 : 0)),
  };
}

/** The first SPEC 6 rule that makes task i ineligible now, or null when it is eligible. */
function blockingRule(
  config: Config,
  a: BatchFacts,
  facts: TaskFacts,
  st: ReplayState,
  caps: Enforced,
  i: number,
  phase: 'coverage' | 'exploitation',
): 'in-batch' | CapRule | 'removed' | 'progress' | null {
  const e = facts.env[i];
  const n = st.perEnv[e];
  if (st.inBatch[i]) return 'in-batch';
  if (caps.C1 && !(n < config.C1)) return 'C1';
  if (caps.C3 && !(a.counts.R[e] + n < config.C3)) return 'C3';
  if (caps.C_task && facts.capped[i] === 1) return 'C_task';
  if (facts.removed[i] === 1) return 'removed';
  if (phase === 'exploitation' && facts.excluded[i] === 1) return 'progress';
  return null;
}

export function contender(a: BatchFacts, config: Config, st: ReplayState, i: number, phase: 'coverage' | 'exploitation'): Contender {
  const q = a.q![i];
  const similarity = similarityOf(st, i);
  const penalty = config.lambda_sim * similarity;
  if (phase === 'coverage')
    return { task: i, q, omega: 1, similarity, penalty, score: coverageObjective(q, config.lambda_sim, similarity) };
  const omega = exposureFactor(a.counts.c[i], config.c0);
  return { task: i, q, omega, similarity, penalty, score: exploitationObjective(q, omega, config.lambda_sim, similarity) };
}

/** One pick of the coverage or exploitation phase, as the replay records it. */
export function pickRecord(
  position: number,
  phase: 'coverage' | 'exploitation',
  st: ReplayState,
  relaxedBefore: number,
  self: Contender,
  runnerUp: Contender | null,
  qAbove: number,
  candidates: number,
  restriction: CoverageRestriction | null,
): PickWhy {
  return {
    position,
    task: self.task,
    phase,
    relaxed: [...st.relaxed],
    newlyRelaxed: st.relaxed.slice(relaxedBefore),
    self,
    runnerUp,
    qRank: 1 + qAbove, // the rank of the pick's q among the final candidates; ties share the better rank
    candidates,
    restriction,
    coldStartRule: null,
  };
}

/** Best and second best by score, ties to the lower index (SPEC 0). */
function bestTwo(list: readonly Contender[]): [Contender | null, Contender | null] {
  let best: Contender | null = null;
  let second: Contender | null = null;
  const beats = (x: Contender, y: Contender | null) => y === null || x.score > y.score || (x.score === y.score && x.task < y.task);
  for (const c of list) {
    if (beats(c, best)) {
      second = best;
      best = c;
    } else if (beats(c, second)) second = c;
  }
  return [best, second];
}

/** The candidates with the smallest key, in their order (one pass: every pick of the coverage phase runs it three times). */
function keepSmallest(candidates: readonly number[], key: (i: number) => number): number[] {
  const kept: number[] = [];
  let best = Infinity;
  for (const i of candidates) {
    const v = key(i);
    if (v < best) {
      best = v;
      kept.length = 0;
    }
    if (v === best) kept.push(i);
  }
  return kept;
}

/**
 * Per task left out, the closest it came (kept while replaying, turned into a reason at the end):
 * typed arrays, since every candidate of every pick may update them. -1 = never.
 */
export class Near {
  readonly penaltyAt: Int32Array;
  readonly penaltyMargin: Float64Array;
  readonly restriction: (Exclude<CoverageCriterion, 'none'> | null)[];
  readonly cap: (CapRule | null)[];

  constructor(n: number) {
    this.penaltyAt = new Int32Array(n).fill(-1);
    this.penaltyMargin = new Float64Array(n);
    this.restriction = new Array<null>(n).fill(null);
    this.cap = new Array<null>(n).fill(null);
  }
}

/** One pick's final candidates (task order) and their objectives: enough to rank any of them later. */
export interface PickTrace {
  candidates: Int32Array;
  scores: Float64Array;
  best: number;
}

/**
 * Task i's best place among a pick's candidates in the order "score descending, then task index
 * ascending" (the earliest pick where it was best placed), or null if it never lost a pick as a
 * candidate. Computed for one task on demand: O(picks x candidates), no sort.
 */
function bestRank(trace: readonly PickTrace[], i: number): { position: number; rank: number; candidates: number; gap: number } | null {
  let found: { position: number; rank: number; candidates: number; gap: number } | null = null;
  trace.forEach((t, position) => {
    const at = indexOfSorted(t.candidates, i);
    if (at === -1 || t.candidates[at] === t.candidates[t.best]) return;
    const own = t.scores[at];
    let rank = 1;
    for (let p = 0; p < t.candidates.length; p++) if (t.scores[p] > own || (t.scores[p] === own && p < at)) rank++;
    if (found === null || rank < found.rank) found = { position, rank, candidates: t.candidates.length, gap: t.scores[t.best] - own };
  });
  return found;
}

function indexOfSorted(list: Int32Array, value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length && list[lo] === value ? lo : -1;
}

/**
 * What kept task i out, from the closest it came during the replay (`near`, `trace`): removed,
 * lost to the penalty, outranked, left behind by the coverage restriction, or never a candidate.
 */
export function leftOutFrom(
  a: BatchFacts,
  bExp: number,
  picks: readonly PickWhy[],
  near: Near,
  trace: readonly PickTrace[],
): (task: number) => LeftOutReason | null {
  const picked = new Set(picks.map((p) => p.task));
  return (i) => {
    if (picked.has(i)) return null;
    const r = a.removedAt[i];
    if (r) return { kind: 'removed', step: r.step };
    if (near.penaltyAt[i] !== -1) return { kind: 'penalty', position: near.penaltyAt[i], margin: near.penaltyMargin[i] };
    const rank = bestRank(trace, i);
    if (rank) return { kind: 'rank', ...rank };
    const criterion = near.restriction[i];
    if (criterion) return { kind: 'restriction', criterion };
    // Never a candidate: a cap or the progress filter blocked it at every pick.
    if (a.progress?.perTask[i].excluded && bExp > 0) return { kind: 'progress' };
    const cap = near.cap[i];
    if (cap) return { kind: 'cap', rule: cap };
    return picks.length === 0 ? { kind: 'no-room' } : { kind: 'progress' };
  };
}

export function disagree(position: number, replayed: number, chosen: number): never {
  throw new Error(
    `why: the replay of pick ${position + 1} chose task ${replayed}, the batch has ${chosen === -1 ? 'no such pick' : `task ${chosen}`}`,
  );
}

function replayColdStart(graph: Graph, config: Config, a: BatchFacts): PickWhy[] {
  const st = newState(graph);
  const picks: PickWhy[] = [];
  const chosen = a.result.batch;
  const noveltyOf = (i: number): Contender => {
    const sim = similarityOf(st, i);
    const same = sameEnvSimilarityOf(graph, st, i);
    return { task: i, q: NaN, omega: 1, similarity: sim, penalty: 0, score: novelty(sim, same) };
  };
  let k = 0;
  for (const envTasks of tasksByEnvironment(graph)) {
    if (k >= chosen.length || st.members.length >= config.B) break;
    const candidates = envTasks.filter((i) => a.removedAt[i] === null);
    if (candidates.length === 0) continue;
    const scored = candidates.map((i): Contender => ({
      task: i,
      q: NaN,
      omega: 1,
      similarity: 0,
      penalty: 0,
      score: mean(graph.within[i].map(([, s]) => s)),
    }));
    const [best, second] = bestTwo(scored);
    if (best!.task !== chosen[k].task) disagree(k, best!.task, chosen[k].task);
    picks.push({
      position: k,
      task: best!.task,
      phase: 'cold-start',
      relaxed: [],
      newlyRelaxed: [],
      self: best!,
      runnerUp: second,
      qRank: 1,
      candidates: scored.length,
      restriction: null,
      coldStartRule: 'representative',
    });
    add(graph, st, best!.task);
    k++;
  }
  let capDropped = false;
  while (k < chosen.length) {
    const open = graph.tasks.map((_, i) => i).filter((i) => !st.inBatch[i] && a.removedAt[i] === null);
    let candidates = capDropped ? open : open.filter((i) => st.perEnv[graph.tasks[i].env] < 2);
    if (candidates.length === 0 && !capDropped) {
      capDropped = true;
      candidates = open;
    }
    const [best, second] = bestTwo(candidates.map(noveltyOf));
    if (!best || best.task !== chosen[k].task) disagree(k, best?.task ?? -1, chosen[k].task);
    picks.push({
      position: k,
      task: best.task,
      phase: 'cold-start',
      relaxed: [],
      newlyRelaxed: [],
      self: best,
      runnerUp: second,
      qRank: 1,
      candidates: candidates.length,
      restriction: null,
      coldStartRule: 'novelty',
    });
    add(graph, st, best.task);
    k++;
  }
  return picks;
}

/** Explains every pick of the analysis's batch, and (in `leftOut`) every task not picked. */
export function explainBatch(graph: Graph, config: Config, a: BatchFacts): { batch: BatchWhy; leftOut: (LeftOutReason | null)[] } {
  const replay = replayBatch(graph, config, a);
  return { batch: replay.batch, leftOut: graph.tasks.map((_, i) => replay.leftOutOf(i)) };
}

/** The batch's picks explained, and what kept any one task out (`leftOutOf`, computed on demand). */
export interface BatchReplay {
  batch: BatchWhy;
  /** Null for a task in the batch. */
  leftOutOf(task: number): LeftOutReason | null;
}

/** explainBatch for a large pool: the reasons for tasks left out are worked out only for the tasks asked about. */
export function replayBatch(graph: Graph, config: Config, a: BatchFacts): BatchReplay {
  const B = config.B;
  const bCov = a.coldStart ? 0 : Math.floor(effectiveRho(config) * B);
  if (a.coldStart) {
    const picks = replayColdStart(graph, config, a);
    const picked = new Set(picks.map((p) => p.task));
    return {
      batch: { step: a.step, bCov: 0, bExp: 0, picks, relaxed: [] },
      leftOutOf(i) {
        if (picked.has(i)) return null;
        const r = a.removedAt[i];
        return r ? { kind: 'removed', step: r.step } : { kind: 'cold-start' };
      },
    };
  }

  const st = newState(graph);
  const picks: PickWhy[] = [];
  const nTasks = graph.tasks.length;
  const near = new Near(nTasks);
  const trace: PickTrace[] = [];
  const chosen = a.result.batch;
  const facts = taskFacts(graph, a);
  const omega = Float64Array.from(a.counts.c, (c) => exposureFactor(c, config.c0));
  const phases: ['coverage' | 'exploitation', number][] = [
    ['coverage', bCov],
    ['exploitation', B - bCov],
  ];
  let k = 0;
  for (const [phase, budget] of phases) {
    for (let n = 0; n < budget; n++) {
      const relaxedBefore = st.relaxed.length;
      let eligible: number[] = [];
      let capped: [number, CapRule][] = [];
      for (;;) {
        eligible = [];
        capped = [];
        const caps = enforcedCaps(st);
        for (let i = 0; i < nTasks; i++) {
          const rule = blockingRule(config, a, facts, st, caps, i, phase);
          if (rule === null) eligible.push(i);
          else if (near.cap[i] === null && (rule === 'C1' || rule === 'C3' || rule === 'C_task')) capped.push([i, rule]);
        }
        if (eligible.length > 0) break;
        const next = RELAXATION_ORDER.find((rule) => !st.relaxed.includes(rule));
        if (next === undefined) break;
        st.relaxed.push(next);
      }
      if (eligible.length === 0) break; // SPEC 6: the phase ends short
      if (k >= chosen.length) disagree(k, eligible[0], -1);
      let restriction: CoverageRestriction | null = null;
      let finalSet = eligible;
      if (phase === 'coverage') {
        const env = facts.env;
        const e1 = keepSmallest(eligible, (i) => st.perEnv[env[i]]);
        const e2 = keepSmallest(e1, (i) => a.counts.X[env[i]]);
        const e3 = keepSmallest(e2, (i) => a.counts.c[i]);
        finalSet = e3;
        const decidedBy: CoverageCriterion =
          e3.length < e2.length
            ? 'observations'
            : e2.length < e1.length
              ? 'exposure'
              : e1.length < eligible.length
                ? 'environment'
                : 'none';
        // Each eligible task left behind: the first criterion it lost on (each step keeps the smallest values).
        const [n1, x2, c3] = [st.perEnv[env[e1[0]]], a.counts.X[env[e2[0]]], a.counts.c[e3[0]]];
        for (const i of eligible) {
          if (st.perEnv[env[i]] !== n1) near.restriction[i] ??= 'environment';
          else if (a.counts.X[env[i]] !== x2) near.restriction[i] ??= 'exposure';
          else if (a.counts.c[i] !== c3) near.restriction[i] ??= 'observations';
        }
        restriction = {
          eligible: eligible.length,
          afterEnvironment: e1.length,
          afterExposure: e2.length,
          afterObservations: e3.length,
          nInBatch: 0,
          exposure: 0,
          observations: 0,
          decidedBy,
        };
      }
      // The phase's objective of every candidate (Contender objects only for the pick and its runner-up).
      const m = finalSet.length;
      const scores = new Float64Array(m);
      const penalties = new Float64Array(m);
      for (let p = 0; p < m; p++) {
        const i = finalSet[p];
        const similarity = similarityOf(st, i);
        penalties[p] = config.lambda_sim * similarity;
        scores[p] =
          phase === 'coverage'
            ? coverageObjective(a.q![i], config.lambda_sim, similarity)
            : exploitationObjective(a.q![i], omega[i], config.lambda_sim, similarity);
      }
      // Best and second best by score, ties to the lower index (SPEC 0).
      const beats = (x: number, y: number) => y === -1 || scores[x] > scores[y] || (scores[x] === scores[y] && finalSet[x] < finalSet[y]);
      let bestAt = -1;
      let secondAt = -1;
      for (let p = 0; p < m; p++) {
        if (beats(p, bestAt)) {
          secondAt = bestAt;
          bestAt = p;
        } else if (beats(p, secondAt)) secondAt = p;
      }
      const best = contender(a, config, st, finalSet[bestAt], phase);
      const second = secondAt === -1 ? null : contender(a, config, st, finalSet[secondAt], phase);
      if (best.task !== chosen[k].task || chosen[k].phase !== phase) disagree(k, best.task, chosen[k].task);
      if (restriction) {
        const e = graph.tasks[best.task].env;
        restriction.nInBatch = st.perEnv[e];
        restriction.exposure = a.counts.X[e];
        restriction.observations = a.counts.c[best.task];
      }
      // The losers of this pick by the penalty: they would have won without it (by rank: bestRank).
      let qAbove = 0;
      for (let p = 0; p < m; p++) {
        const task = finalSet[p];
        if (a.q![task] > best.q) qAbove++;
        if (task === best.task) continue;
        if (scores[p] + penalties[p] > best.score && near.penaltyAt[task] === -1) {
          near.penaltyAt[task] = k;
          near.penaltyMargin[task] = scores[p] + penalties[p] - best.score;
        }
      }
      trace.push({ candidates: Int32Array.from(finalSet), scores, best: bestAt });
      for (const [i, rule] of capped) near.cap[i] ??= rule;
      picks.push(pickRecord(k, phase, st, relaxedBefore, best, second, qAbove, m, restriction));
      add(graph, st, best.task);
      k++;
    }
  }
  if (k !== chosen.length) disagree(k, -1, chosen[k].task);
  const leftOutOf = leftOutFrom(a, B - bCov, picks, near, trace);
  return { batch: { step: a.step, bCov, bExp: B - bCov, picks, relaxed: [...st.relaxed] }, leftOutOf };
}
