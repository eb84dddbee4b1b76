// "Why this task" for a large pool, fast enough for a cold click in Explain mode: the same replay
// as the reference (src/reference/why.ts `replayBatch`, the oracle, compared on random cases and on
// the bundled pool by test/batch-replay.test.ts), with each pick's passes over the pool written as
// small functions over typed arrays (numeric rule codes, buffers allocated once per replay)
// instead of per-task calls, strings and growing arrays, and with the eligibility scan carried over
// from one pick to the next (only the last pick's environment is re-examined, unless a cap is
// relaxed or a phase begins). Small, monomorphic functions are what
// the JavaScript engine optimises first, after a few replays instead of many. The reference's
// pick state (running similarity maxima), contender terms and left-out reasons are shared, not
// copied, so the two replays can only differ in how they loop.
import type { CapRule, Config, Graph, Phase } from '../engine/types.ts';
import { effectiveRho } from '../engine/config.ts';
import { coverageObjective, exploitationObjective, exposureFactor } from '../reference/formulas.ts';
import { RELAXATION_ORDER } from '../reference/batch.ts';
import {
  add,
  contender,
  disagree,
  enforcedCaps,
  leftOutFrom,
  Near,
  newState,
  pickRecord,
  replayBatch,
  similarityOf,
  type BatchFacts,
  type BatchReplay,
  type CoverageCriterion,
  type CoverageRestriction,
  type Enforced,
  type PickTrace,
  type PickWhy,
  type ReplayState,
} from '../reference/why.ts';

/** Why task i cannot be picked now, in SPEC 6's order (the first rule that applies); 0 = eligible. */
const IN_BATCH = 1;
const CAP_C1 = 2;
const CAP_C3 = 3;
const CAP_C_TASK = 4;
const REMOVED = 5;
const PROGRESS = 6;
const CAP_RULE: Record<number, CapRule> = { [CAP_C1]: 'C1', [CAP_C3]: 'C3', [CAP_C_TASK]: 'C_task' };

/** The coverage restriction's criteria, in the order Near records the first one a task lost on. */
const CRITERION: Exclude<CoverageCriterion, 'none'>[] = ['environment', 'exposure', 'observations'];

/** The step's per-task and per-environment facts as typed arrays, and the replay's buffers. */
class Pool {
  readonly n: number;
  readonly env: Int32Array;
  readonly q: Float64Array;
  readonly c: Float64Array;
  readonly X: Float64Array;
  readonly R: Float64Array;
  readonly omega: Float64Array;
  readonly capped: Uint8Array;
  readonly removed: Uint8Array;
  readonly excluded: Uint8Array;
  /** Members of the batch per environment, and whether a task is one (kept with ReplayState's). */
  readonly perEnv: Float64Array;
  readonly inBatch: Uint8Array;
  /** The cap code Near.cap has for a task (0 = none yet). */
  readonly nearCap: Uint8Array;
  /** Each task's rule at the current pick (0 = eligible) and the eligible tasks, ascending (m of them). */
  readonly rule: Uint8Array;
  readonly eligible: Int32Array;
  m = 0;
  /** Tasks by environment, ascending: envTasks[envStart[e] .. envStart[e + 1]). */
  readonly envStart: Int32Array;
  readonly envTasks: Int32Array;
  /** The restriction's stages, the tasks capped at this pick, the penalties. */
  readonly stage1: Int32Array;
  readonly stage2: Int32Array;
  readonly stage3: Int32Array;
  readonly cappedTask: Int32Array;
  readonly cappedRule: Uint8Array;
  readonly penalties: Float64Array;
  nCapped = 0;

  constructor(graph: Graph, config: Config, a: BatchFacts) {
    const n = graph.tasks.length;
    this.n = n;
    this.env = Int32Array.from(graph.tasks, (t) => t.env);
    this.q = Float64Array.from(a.q!);
    this.c = Float64Array.from(a.counts.c);
    this.X = Float64Array.from(a.counts.X);
    this.R = Float64Array.from(a.counts.R);
    this.omega = Float64Array.from(a.counts.c, (k) => exposureFactor(k, config.c0));
    this.capped = Uint8Array.from(a.counts.consecutiveCapped, Number);
    this.removed = Uint8Array.from(a.removedAt, (r) => (r === null ? 0 : 1));
    this.excluded = Uint8Array.from(graph.tasks, (_, i) => (a.progress?.perTask[i].excluded ? 1 : 0));
    this.perEnv = new Float64Array(graph.envs.length);
    this.inBatch = new Uint8Array(n);
    this.nearCap = new Uint8Array(n);
    this.rule = new Uint8Array(n);
    this.eligible = new Int32Array(n);
    this.envStart = new Int32Array(graph.envs.length + 1);
    for (const e of this.env) this.envStart[e + 1]++;
    for (let e = 0; e < graph.envs.length; e++) this.envStart[e + 1] += this.envStart[e];
    this.envTasks = new Int32Array(n);
    const fill = this.envStart.slice(0, graph.envs.length);
    for (let i = 0; i < n; i++) this.envTasks[fill[this.env[i]]++] = i;
    this.stage1 = new Int32Array(n);
    this.stage2 = new Int32Array(n);
    this.stage3 = new Int32Array(n);
    this.cappedTask = new Int32Array(n);
    this.cappedRule = new Uint8Array(n);
    this.penalties = new Float64Array(n);
  }
}

/** The first SPEC 6 rule that blocks task i now (0 = eligible). */
function ruleOf(pool: Pool, config: Config, caps: Enforced, exploiting: boolean, i: number): number {
  const e = pool.env[i];
  const inEnv = pool.perEnv[e];
  if (pool.inBatch[i] === 1) return IN_BATCH;
  if (caps.C1 && !(inEnv < config.C1)) return CAP_C1;
  if (caps.C3 && !(pool.R[e] + inEnv < config.C3)) return CAP_C3;
  if (caps.C_task && pool.capped[i] === 1) return CAP_C_TASK;
  if (pool.removed[i] === 1) return REMOVED;
  if (exploiting && pool.excluded[i] === 1) return PROGRESS;
  return 0;
}

/** A task a cap blocks and Near has no cap for yet: Near gets that cap when the pick is made. */
function noteCapped(pool: Pool, i: number, rule: number): void {
  if (rule >= CAP_C1 && rule <= CAP_C_TASK && pool.nearCap[i] === 0) {
    pool.cappedTask[pool.nCapped] = i;
    pool.cappedRule[pool.nCapped++] = rule;
  }
}

/**
 * Every task's rule, from scratch: the eligible tasks into `eligible` (task order), the capped
 * ones into `cappedTask`. Needed at a phase's first pick and after a relaxation.
 */
function scanAll(pool: Pool, config: Config, caps: Enforced, exploiting: boolean): void {
  const { n, rule, eligible } = pool;
  let m = 0;
  pool.nCapped = 0;
  for (let i = 0; i < n; i++) {
    const r = ruleOf(pool, config, caps, exploiting, i);
    rule[i] = r;
    if (r === 0) eligible[m++] = i;
    else noteCapped(pool, i, r);
  }
  pool.m = m;
}

/** Position of task i in the (ascending) eligible list, or where it would go. */
function positionOf(pool: Pool, i: number): number {
  let lo = 0;
  let hi = pool.m;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pool.eligible[mid] < i) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * After a pick from environment e, only e's tasks can change their rule (a rule reads the task,
 * its environment's members and caps that stay as they are until a relaxation): those are
 * re-examined, the rest of the scan carries over.
 */
function rescanEnvironment(pool: Pool, config: Config, caps: Enforced, exploiting: boolean, e: number): void {
  const { rule, eligible, envTasks } = pool;
  pool.nCapped = 0;
  for (let p = pool.envStart[e]; p < pool.envStart[e + 1]; p++) {
    const i = envTasks[p];
    const r = ruleOf(pool, config, caps, exploiting, i);
    const was = rule[i];
    rule[i] = r;
    if (r !== was) {
      if (was === 0) {
        const at = positionOf(pool, i);
        eligible.copyWithin(at, at + 1, pool.m--);
      } else if (r === 0) {
        const at = positionOf(pool, i);
        eligible.copyWithin(at + 1, at, pool.m++);
        eligible[at] = i;
      }
    }
    if (r !== 0) noteCapped(pool, i, r);
  }
}

/** Keeps, in order, the tasks of `from[0..m)` whose key is smallest (into `to`); returns how many. */
function keepSmallest(from: Int32Array, m: number, key: Float64Array, byEnv: Int32Array | null, to: Int32Array): number {
  let best = Infinity;
  for (let p = 0; p < m; p++) {
    const i = from[p];
    const v = key[byEnv === null ? i : byEnv[i]];
    if (v < best) best = v;
  }
  let kept = 0;
  for (let p = 0; p < m; p++) {
    const i = from[p];
    if (key[byEnv === null ? i : byEnv[i]] === best) to[kept++] = i;
  }
  return kept;
}

/** The coverage restriction (SPEC 6) of the m eligible tasks: the final candidates are `stage3`. */
function restrict(pool: Pool, near: Near, m: number): CoverageRestriction {
  const { env, perEnv, X, c, eligible, stage1, stage2, stage3 } = pool;
  const m1 = keepSmallest(eligible, m, perEnv, env, stage1);
  const m2 = keepSmallest(stage1, m1, X, env, stage2);
  const m3 = keepSmallest(stage2, m2, c, null, stage3);
  const n1 = perEnv[env[stage1[0]]];
  const x2 = X[env[stage2[0]]];
  const c3 = c[stage3[0]];
  // Each eligible task left behind: the first criterion it lost on (the first pick it lost at wins).
  for (let p = 0; p < m; p++) {
    const i = eligible[p];
    if (near.restriction[i] !== null) continue;
    if (perEnv[env[i]] !== n1) near.restriction[i] = CRITERION[0];
    else if (X[env[i]] !== x2) near.restriction[i] = CRITERION[1];
    else if (c[i] !== c3) near.restriction[i] = CRITERION[2];
  }
  return {
    eligible: m,
    afterEnvironment: m1,
    afterExposure: m2,
    afterObservations: m3,
    nInBatch: 0,
    exposure: 0,
    observations: 0,
    decidedBy: m3 < m2 ? 'observations' : m2 < m1 ? 'exposure' : m1 < m ? 'environment' : 'none',
  };
}

/**
 * The phase's objective of the m candidates into `scores` (their penalties into pool.penalties),
 * and the positions of the best and second best (ties to the lower task index, SPEC 0) into `into`.
 */
function scoreCandidates(
  pool: Pool,
  st: ReplayState,
  lambda: number,
  candidates: Int32Array,
  m: number,
  exploiting: boolean,
  scores: Float64Array,
  into: Int32Array,
): void {
  const { q, omega, penalties } = pool;
  let bestAt = -1;
  let secondAt = -1;
  for (let p = 0; p < m; p++) {
    const i = candidates[p];
    const similarity = similarityOf(st, i);
    penalties[p] = lambda * similarity;
    const s = exploiting ? exploitationObjective(q[i], omega[i], lambda, similarity) : coverageObjective(q[i], lambda, similarity);
    scores[p] = s;
    // Candidates ascend by task index, so an equal score never displaces an earlier one.
    if (bestAt === -1 || s > scores[bestAt]) {
      secondAt = bestAt;
      bestAt = p;
    } else if (secondAt === -1 || s > scores[secondAt]) secondAt = p;
  }
  into[0] = bestAt;
  into[1] = secondAt;
}

/** Counts the candidates with a higher q than the pick's, and notes those the penalty alone beat. */
function qAboveAndPenalties(
  pool: Pool,
  near: Near,
  candidates: Int32Array,
  m: number,
  scores: Float64Array,
  bestAt: number,
  k: number,
): number {
  const { q, penalties } = pool;
  const bestQ = q[candidates[bestAt]];
  const bestScore = scores[bestAt];
  let qAbove = 0;
  for (let p = 0; p < m; p++) {
    const i = candidates[p];
    if (q[i] > bestQ) qAbove++;
    if (p !== bestAt && near.penaltyAt[i] === -1 && scores[p] + penalties[p] > bestScore) {
      near.penaltyAt[i] = k;
      near.penaltyMargin[i] = scores[p] + penalties[p] - bestScore;
    }
  }
  return qAbove;
}

/** replayBatch's result (the same objects, number for number) for the analysis's batch. */
export function fastReplayBatch(graph: Graph, config: Config, a: BatchFacts): BatchReplay {
  if (a.coldStart) return replayBatch(graph, config, a); // step 0 only; its rules differ (SPEC 7)
  const B = config.B;
  const bCov = Math.floor(effectiveRho(config) * B);
  const pool = new Pool(graph, config, a);
  const st = newState(graph);
  const near = new Near(pool.n);
  const trace: PickTrace[] = [];
  const picks: PickWhy[] = [];
  const chosen = a.result.batch;
  const bestTwo = new Int32Array(2);
  const phases: [Exclude<Phase, 'cold-start' | 'random'>, number][] = [
    ['coverage', bCov],
    ['exploitation', B - bCov],
  ];
  let k = 0;
  for (const [phase, budget] of phases) {
    const exploiting = phase === 'exploitation';
    for (let pick = 0; pick < budget; pick++) {
      const relaxedBefore = st.relaxed.length;
      if (pick === 0) scanAll(pool, config, enforcedCaps(st), exploiting);
      else rescanEnvironment(pool, config, enforcedCaps(st), exploiting, pool.env[st.members[st.members.length - 1]]);
      while (pool.m === 0) {
        const next = RELAXATION_ORDER.find((rule) => !st.relaxed.includes(rule));
        if (next === undefined) break;
        st.relaxed.push(next);
        scanAll(pool, config, enforcedCaps(st), exploiting);
      }
      let m = pool.m;
      if (m === 0) break; // SPEC 6: the phase ends short
      if (k >= chosen.length) disagree(k, pool.eligible[0], -1);

      let candidates = pool.eligible;
      let restriction: CoverageRestriction | null = null;
      if (!exploiting) {
        restriction = restrict(pool, near, m);
        candidates = pool.stage3;
        m = restriction.afterObservations;
      }
      const scores = new Float64Array(m);
      scoreCandidates(pool, st, config.lambda_sim, candidates, m, exploiting, scores, bestTwo);
      const [bestAt, secondAt] = bestTwo;
      const best = contender(a, config, st, candidates[bestAt], phase);
      const second = secondAt === -1 ? null : contender(a, config, st, candidates[secondAt], phase);
      if (best.task !== chosen[k].task || chosen[k].phase !== phase) disagree(k, best.task, chosen[k].task);
      if (restriction) {
        const e = pool.env[best.task];
        restriction.nInBatch = pool.perEnv[e];
        restriction.exposure = a.counts.X[e];
        restriction.observations = a.counts.c[best.task];
      }
      const qAbove = qAboveAndPenalties(pool, near, candidates, m, scores, bestAt, k);
      trace.push({ candidates: candidates.slice(0, m), scores, best: bestAt });
      for (let p = 0; p < pool.nCapped; p++) {
        const i = pool.cappedTask[p];
        pool.nearCap[i] = pool.cappedRule[p];
        near.cap[i] = CAP_RULE[pool.cappedRule[p]];
      }
      picks.push(pickRecord(k, phase, st, relaxedBefore, best, second, qAbove, m, restriction));
      add(graph, st, best.task);
      pool.inBatch[best.task] = 1;
      pool.perEnv[pool.env[best.task]] += 1;
      k++;
    }
  }
  if (k !== chosen.length) disagree(k, -1, chosen[k].task);
  return {
    batch: { step: a.step, bCov, bExp: B - bCov, picks, relaxed: [...st.relaxed] },
    leftOutOf: leftOutFrom(a, B - bCov, picks, near, trace),
  };
}
