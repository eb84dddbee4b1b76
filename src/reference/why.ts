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
import type { Analysis } from './score.ts';
import { RELAXATION_ORDER } from './batch.ts';

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

interface ReplayState {
  members: number[];
  inBatch: boolean[];
  perEnv: number[];
  maxSim: number[];
  maxSimSameEnv: number[];
  relaxed: CapRule[];
}

function newState(graph: Graph): ReplayState {
  return {
    members: [],
    inBatch: graph.tasks.map(() => false),
    perEnv: graph.envs.map(() => 0),
    maxSim: graph.tasks.map(() => -Infinity),
    maxSimSameEnv: graph.tasks.map(() => -Infinity),
    relaxed: [],
  };
}

/** S_full lookups as maps (first entry of a list wins, as in SPEC 1's lookup), built once per graph. */
interface SimilarityIndex {
  within: Map<number, number>[];
  fullCross: Map<number, number>[];
}
const similarityIndexes = new WeakMap<Graph, SimilarityIndex>();

function similarityIndex(graph: Graph): SimilarityIndex {
  let index = similarityIndexes.get(graph);
  if (!index) {
    const toMap = (list: readonly (readonly [number, number])[]) => {
      const m = new Map<number, number>();
      for (const [j, v] of list) if (!m.has(j)) m.set(j, v);
      return m;
    };
    index = { within: graph.within.map(toMap), fullCross: graph.fullCross.map(toMap) };
    similarityIndexes.set(graph, index);
  }
  return index;
}

/** SPEC 1's S_full(k, i), the same value as graph.ts's fullSimilarity, by map lookups. */
function similarity(graph: Graph, index: SimilarityIndex, k: number, i: number): number {
  if (graph.tasks[k].env === graph.tasks[i].env) return index.within[k].get(i) ?? 0;
  return index.fullCross[k].get(i) ?? index.fullCross[i].get(k) ?? 0;
}

function add(graph: Graph, st: ReplayState, i: number): void {
  const env = graph.tasks[i].env;
  const index = similarityIndex(graph);
  graph.tasks.forEach((task, k) => {
    if (k === i) return;
    const s = similarity(graph, index, k, i);
    st.maxSim[k] = Math.max(st.maxSim[k], s);
    if (task.env === env) st.maxSimSameEnv[k] = Math.max(st.maxSimSameEnv[k], s);
  });
  st.inBatch[i] = true;
  st.perEnv[env] += 1;
  st.members.push(i);
}

const similarityOf = (st: ReplayState, i: number) => (st.members.length === 0 ? 0 : st.maxSim[i]);

/** The first SPEC 6 rule that makes task i ineligible now, or null when it is eligible. */
function blockingRule(
  graph: Graph,
  config: Config,
  a: Analysis,
  st: ReplayState,
  i: number,
  phase: 'coverage' | 'exploitation',
): 'in-batch' | CapRule | 'removed' | 'progress' | null {
  const e = graph.tasks[i].env;
  const n = st.perEnv[e];
  if (st.inBatch[i]) return 'in-batch';
  if (!st.relaxed.includes('C1') && !(n < config.C1)) return 'C1';
  if (!st.relaxed.includes('C3') && !(a.counts.R[e] + n < config.C3)) return 'C3';
  if (!st.relaxed.includes('C_task') && a.counts.consecutiveCapped[i]) return 'C_task';
  if (a.removedAt[i] !== null) return 'removed';
  if (phase === 'exploitation' && a.progress !== null && a.progress.perTask[i].excluded) return 'progress';
  return null;
}

function contender(a: Analysis, config: Config, st: ReplayState, i: number, phase: 'coverage' | 'exploitation'): Contender {
  const q = a.q![i];
  const similarity = similarityOf(st, i);
  const penalty = config.lambda_sim * similarity;
  if (phase === 'coverage')
    return { task: i, q, omega: 1, similarity, penalty, score: coverageObjective(q, config.lambda_sim, similarity) };
  const omega = exposureFactor(a.counts.c[i], config.c0);
  return { task: i, q, omega, similarity, penalty, score: exploitationObjective(q, omega, config.lambda_sim, similarity) };
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

function keepSmallest(candidates: readonly number[], key: (i: number) => number): number[] {
  let best = Infinity;
  for (const i of candidates) best = Math.min(best, key(i));
  return candidates.filter((i) => key(i) === best);
}

function qRankOf(list: readonly Contender[], task: number): number {
  const q = list.find((c) => c.task === task)!.q;
  return 1 + list.filter((c) => c.q > q).length;
}

/** Per task left out: the closest it came (kept while replaying, turned into a reason at the end). */
interface Near {
  penalty: { position: number; margin: number } | null;
  rank: { position: number; rank: number; candidates: number; gap: number } | null;
  restriction: Exclude<CoverageCriterion, 'none'> | null;
  cap: CapRule | null;
  blockedOnlyByProgress: boolean;
}

function disagree(position: number, replayed: number, chosen: number): never {
  throw new Error(
    `why: the replay of pick ${position + 1} chose task ${replayed}, the batch has ${chosen === -1 ? 'no such pick' : `task ${chosen}`}`,
  );
}

function replayColdStart(graph: Graph, config: Config, a: Analysis): PickWhy[] {
  const st = newState(graph);
  const picks: PickWhy[] = [];
  const chosen = a.result.batch;
  const noveltyOf = (i: number): Contender => {
    const sim = similarityOf(st, i);
    const same = st.perEnv[graph.tasks[i].env] === 0 ? 0 : st.maxSimSameEnv[i];
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
export function explainBatch(graph: Graph, config: Config, a: Analysis): { batch: BatchWhy; leftOut: (LeftOutReason | null)[] } {
  const B = config.B;
  const bCov = a.coldStart ? 0 : Math.floor(effectiveRho(config) * B);
  if (a.coldStart) {
    const picks = replayColdStart(graph, config, a);
    const leftOut = graph.tasks.map((_, i): LeftOutReason | null => {
      if (picks.some((p) => p.task === i)) return null;
      const r = a.removedAt[i];
      return r ? { kind: 'removed', step: r.step } : { kind: 'cold-start' };
    });
    return { batch: { step: a.step, bCov: 0, bExp: 0, picks, relaxed: [] }, leftOut };
  }

  const st = newState(graph);
  const picks: PickWhy[] = [];
  const near: Near[] = graph.tasks.map(() => ({ penalty: null, rank: null, restriction: null, cap: null, blockedOnlyByProgress: true }));
  const chosen = a.result.batch;
  const all = graph.tasks.map((_, i) => i);
  const phases: ['coverage' | 'exploitation', number][] = [
    ['coverage', bCov],
    ['exploitation', B - bCov],
  ];
  let k = 0;
  for (const [phase, budget] of phases) {
    for (let n = 0; n < budget; n++) {
      const relaxedBefore = st.relaxed.length;
      let eligible: number[] = [];
      let rules: ReturnType<typeof blockingRule>[] = [];
      for (;;) {
        rules = all.map((i) => blockingRule(graph, config, a, st, i, phase));
        eligible = all.filter((i) => rules[i] === null);
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
        const env = (i: number) => graph.tasks[i].env;
        const e1 = keepSmallest(eligible, (i) => st.perEnv[env(i)]);
        const e2 = keepSmallest(e1, (i) => a.counts.X[env(i)]);
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
        const inE1 = new Set(e1);
        const inE2 = new Set(e2);
        const inE3 = new Set(e3);
        for (const i of eligible) {
          if (!inE1.has(i)) near[i].restriction ??= 'environment';
          else if (!inE2.has(i)) near[i].restriction ??= 'exposure';
          else if (!inE3.has(i)) near[i].restriction ??= 'observations';
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
      const scored = finalSet.map((i) => contender(a, config, st, i, phase));
      const [best, second] = bestTwo(scored);
      if (!best || best.task !== chosen[k].task || chosen[k].phase !== phase) disagree(k, best?.task ?? -1, chosen[k].task);
      if (restriction) {
        const e = graph.tasks[best.task].env;
        restriction.nInBatch = st.perEnv[e];
        restriction.exposure = a.counts.X[e];
        restriction.observations = a.counts.c[best.task];
      }
      // The losers of this pick: by the penalty (they would have won without it) or by rank.
      const byScore = [...scored].sort((x, y) => y.score - x.score || x.task - y.task);
      byScore.forEach((c, r) => {
        if (c.task === best.task) return;
        const unpenalised = c.score + c.penalty;
        if (unpenalised > best.score && near[c.task].penalty === null)
          near[c.task].penalty = { position: k, margin: unpenalised - best.score };
        const old = near[c.task].rank;
        if (old === null || r + 1 < old.rank)
          near[c.task].rank = { position: k, rank: r + 1, candidates: scored.length, gap: best.score - c.score };
      });
      for (const i of all) {
        const rule = rules[i];
        if (rule === 'C1' || rule === 'C3' || rule === 'C_task') near[i].cap ??= rule;
        if (rule !== 'progress' && rule !== 'in-batch') near[i].blockedOnlyByProgress = false;
      }
      picks.push({
        position: k,
        task: best.task,
        phase,
        relaxed: [...st.relaxed],
        newlyRelaxed: st.relaxed.slice(relaxedBefore),
        self: best,
        runnerUp: second,
        qRank: qRankOf(scored, best.task),
        candidates: scored.length,
        restriction,
        coldStartRule: null,
      });
      add(graph, st, best.task);
      k++;
    }
  }
  if (k !== chosen.length) disagree(k, -1, chosen[k].task);
  const picked = new Set(picks.map((p) => p.task));
  const leftOut = all.map((i): LeftOutReason | null => {
    if (picked.has(i)) return null;
    const r = a.removedAt[i];
    if (r) return { kind: 'removed', step: r.step };
    const m = near[i];
    if (m.penalty) return { kind: 'penalty', ...m.penalty };
    if (m.rank) return { kind: 'rank', ...m.rank };
    if (m.restriction) return { kind: 'restriction', criterion: m.restriction };
    // Never a candidate: a cap or the progress filter blocked it at every pick.
    if (a.progress?.perTask[i].excluded && B - bCov > 0) return { kind: 'progress' };
    if (m.cap) return { kind: 'cap', rule: m.cap };
    return picks.length === 0 ? { kind: 'no-room' } : { kind: 'progress' };
  });
  return { batch: { step: a.step, bCov, bExp: B - bCov, picks, relaxed: [...st.relaxed] }, leftOut };
}
