// SPEC 6 (choosing the batch) and SPEC 7 (cold start), one pick at a time.
import type { CapRule, Config, Graph, Phase } from '../engine/types.ts';
import { effectiveRho } from '../engine/config.ts';
import { argmaxLowestIndex, coverageObjective, exploitationObjective, exposureFactor, mean, novelty } from './formulas.ts';
import { fullSimilarity, tasksByEnvironment } from './graph.ts';
import { wasSelectedAt, type HistoryIndex } from './history.ts';

export interface BatchPick {
  task: number;
  phase: Phase;
}

export interface BatchResult {
  batch: BatchPick[];
  relaxed: CapRule[];
}

/** The counts of SPEC 6, as of the start of step t. */
export interface SelectionCounts {
  /** c_i: selections of task i before t. */
  c: number[];
  /** X_e: cumulative selections of environment e. */
  X: number[];
  /** R_e: selections of environment e at steps t-1 and t-2. */
  R: number[];
  /** Rule 4 binds: task i was selected at every one of the steps t-1 .. t-C_task. */
  consecutiveCapped: boolean[];
}

/** What the batch builder needs to know about each task besides the graph. */
export interface BatchInputs {
  q: readonly number[];
  removed: readonly boolean[];
  progressExcluded: readonly boolean[];
  counts: SelectionCounts;
}

/**
 * SPEC 6 rule 4: selected at every one of the steps t-1 .. t-C_task. A step before 0 holds no
 * selection, so when t < C_task the rule cannot bind (docs/spec-decisions.md).
 */
export function isConsecutivelyCapped(history: HistoryIndex, task: number, cTask: number): boolean {
  for (let s = history.t - 1; s >= history.t - cTask; s--) {
    if (s < 0 || !wasSelectedAt(history, task, s)) return false;
  }
  return true;
}

/** SPEC 6: c_i, X_e, R_e and the rule-4 flags from the history before t. */
export function selectionCounts(graph: Graph, history: HistoryIndex, cTask: number): SelectionCounts {
  const c = history.byTask.map((groups) => groups.length);
  const X = graph.envs.map(() => 0);
  const R = graph.envs.map(() => 0);
  graph.tasks.forEach((task, i) => {
    X[task.env] += c[i];
    for (const g of history.byTask[i]) if (g.step === history.t - 1 || g.step === history.t - 2) R[task.env] += 1;
  });
  const consecutiveCapped = graph.tasks.map((_, i) => isConsecutivelyCapped(history, i, cTask));
  return { c, X, R, consecutiveCapped };
}

/** The relaxation order of SPEC 6: rule 4 (C_task), then rule 3 (C3), then rule 2 (C1). */
export const RELAXATION_ORDER: readonly CapRule[] = ['C_task', 'C3', 'C1'];

/** The batch being built and the caps relaxed so far (each relaxation lasts for the rest of the step). */
class BatchUnderConstruction {
  readonly members: number[] = [];
  readonly picks: BatchPick[] = [];
  readonly relaxed: CapRule[] = [];
  private readonly inBatch: boolean[];
  private readonly perEnv: number[];
  // Running maxima of S_full to the batch members (to all of them, and to those of the task's own
  // environment), updated on every add: the same max as a rescan over Bt, without the rescan.
  private readonly maxToBatch: number[];
  private readonly maxToBatchSameEnv: number[];

  constructor(private readonly graph: Graph) {
    this.inBatch = graph.tasks.map(() => false);
    this.perEnv = graph.envs.map(() => 0);
    this.maxToBatch = graph.tasks.map(() => -Infinity);
    this.maxToBatchSameEnv = graph.tasks.map(() => -Infinity);
  }

  /** max_{j in Bt} S_full(i, j); 0 while Bt is empty (SPEC 6, 7). */
  similarityToBatch(i: number): number {
    return this.members.length === 0 ? 0 : this.maxToBatch[i];
  }

  /** max_{j in Bt, env(j) = env(i)} S_full(i, j); 0 when no such j (SPEC 7). */
  similarityToBatchSameEnv(i: number): number {
    return this.perEnv[this.graph.tasks[i].env] === 0 ? 0 : this.maxToBatchSameEnv[i];
  }

  has(i: number): boolean {
    return this.inBatch[i];
  }

  /** n_e: tasks of environment e already in the batch. */
  countInEnv(e: number): number {
    return this.perEnv[e];
  }

  isRelaxed(rule: CapRule): boolean {
    return this.relaxed.includes(rule);
  }

  /** Relaxes the next rule in SPEC 6 order; false when every rule is already relaxed. */
  relaxNext(): boolean {
    const next = RELAXATION_ORDER.find((rule) => !this.isRelaxed(rule));
    if (next === undefined) return false;
    this.relaxed.push(next);
    return true;
  }

  add(i: number, phase: Phase): void {
    const env = this.graph.tasks[i].env;
    this.graph.tasks.forEach((task, k) => {
      if (k === i) return;
      const similarity = fullSimilarity(this.graph, k, i);
      this.maxToBatch[k] = Math.max(this.maxToBatch[k], similarity);
      if (task.env === env) this.maxToBatchSameEnv[k] = Math.max(this.maxToBatchSameEnv[k], similarity);
    });
    this.inBatch[i] = true;
    this.perEnv[this.graph.tasks[i].env] += 1;
    this.members.push(i);
    this.picks.push({ task: i, phase });
  }
}

/** SPEC 6 eligibility of task i, for the coverage phase or (with rule 6) the exploitation phase. */
function isEligible(
  i: number,
  phase: 'coverage' | 'exploitation',
  graph: Graph,
  config: Config,
  inputs: BatchInputs,
  bt: BatchUnderConstruction,
): boolean {
  const e = graph.tasks[i].env;
  const n = bt.countInEnv(e);
  if (bt.has(i)) return false; // rule 1
  if (!bt.isRelaxed('C1') && !(n < config.C1)) return false; // rule 2
  if (!bt.isRelaxed('C3') && !(inputs.counts.R[e] + n < config.C3)) return false; // rule 3
  if (!bt.isRelaxed('C_task') && inputs.counts.consecutiveCapped[i]) return false; // rule 4
  if (inputs.removed[i]) return false; // rule 5 (identifier filter, SPEC 8)
  if (phase === 'exploitation' && inputs.progressExcluded[i]) return false; // rule 6 (progress filter, SPEC 8)
  return true;
}

/** Keeps the candidates with the smallest key (SPEC 6 coverage restriction). */
function keepSmallest(candidates: readonly number[], key: (i: number) => number): number[] {
  let best = Infinity;
  for (const i of candidates) best = Math.min(best, key(i));
  return candidates.filter((i) => key(i) === best);
}

/** SPEC 6 coverage pick from an eligible set: smallest n_e, then X_e, then c_i; then argmax. */
export function coveragePick(
  eligible: readonly number[],
  graph: Graph,
  config: Config,
  inputs: BatchInputs,
  similarityToBatch: (i: number) => number,
  nInEnv: (e: number) => number,
): number {
  const env = (i: number) => graph.tasks[i].env;
  let kept = keepSmallest(eligible, (i) => nInEnv(env(i)));
  kept = keepSmallest(kept, (i) => inputs.counts.X[env(i)]);
  kept = keepSmallest(kept, (i) => inputs.counts.c[i]);
  return argmaxLowestIndex(kept, (i) => coverageObjective(inputs.q[i], config.lambda_sim, similarityToBatch(i)));
}

/** SPEC 6 exploitation pick from an eligible set. */
export function exploitationPick(
  eligible: readonly number[],
  config: Config,
  inputs: BatchInputs,
  similarityToBatch: (i: number) => number,
): number {
  return argmaxLowestIndex(eligible, (i) =>
    exploitationObjective(inputs.q[i], exposureFactor(inputs.counts.c[i], config.c0), config.lambda_sim, similarityToBatch(i)),
  );
}

/** SPEC 6: the coverage phase (B_cov = floor(rho B) picks), then the exploitation phase. */
export function chooseBatch(graph: Graph, config: Config, inputs: BatchInputs): BatchResult {
  const B = config.B;
  const bCov = Math.floor(effectiveRho(config) * B);
  const phases: ['coverage' | 'exploitation', number][] = [
    ['coverage', bCov],
    ['exploitation', B - bCov],
  ];
  const bt = new BatchUnderConstruction(graph);
  const allTasks = graph.tasks.map((_, i) => i);
  for (const [phase, budget] of phases) {
    for (let k = 0; k < budget; k++) {
      let picked = -1;
      for (;;) {
        const eligible = allTasks.filter((i) => isEligible(i, phase, graph, config, inputs, bt));
        if (eligible.length > 0) {
          const similarity = (i: number) => bt.similarityToBatch(i);
          picked =
            phase === 'coverage'
              ? coveragePick(eligible, graph, config, inputs, similarity, (e) => bt.countInEnv(e))
              : exploitationPick(eligible, config, inputs, similarity);
          break;
        }
        if (!bt.relaxNext()) break; // SPEC 6: still nothing after every relaxation: the phase ends short
      }
      if (picked === -1) break;
      bt.add(picked, phase);
    }
  }
  return { batch: bt.picks, relaxed: bt.relaxed };
}

/** SPEC 7.1: the task of highest mean S_full to the other tasks of its environment (lower index on ties). */
export function environmentRepresentative(graph: Graph, envTasks: readonly number[]): number {
  return argmaxLowestIndex(envTasks, (i) => mean(graph.within[i].map(([, s]) => s)));
}

/** SPEC 7: representatives in environment order (at most B), then greedy novelty with the 2-per-env cap. */
export function coldStartBatch(graph: Graph, config: Pick<Config, 'B'>, removed: readonly boolean[]): BatchResult {
  const B = config.B;
  const bt = new BatchUnderConstruction(graph);
  for (const envTasks of tasksByEnvironment(graph)) {
    if (bt.members.length >= B) break;
    // An environment with no task has no representative; removed tasks cannot exist before any observation.
    const candidates = envTasks.filter((i) => !removed[i]);
    if (candidates.length === 0) continue;
    bt.add(environmentRepresentative(graph, candidates), 'cold-start');
  }
  let capDropped = false;
  while (bt.members.length < B) {
    const open = graph.tasks.map((_, i) => i).filter((i) => !bt.has(i) && !removed[i]);
    let candidates = capDropped ? open : open.filter((i) => bt.countInEnv(graph.tasks[i].env) < 2);
    if (candidates.length === 0 && !capDropped) {
      capDropped = true; // SPEC 7.2: if the cap leaves no candidate, drop it (for the rest of the step)
      candidates = open;
    }
    if (candidates.length === 0) break; // N < B: the cold-start batch ends short
    const picked = argmaxLowestIndex(candidates, (i) => novelty(bt.similarityToBatch(i), bt.similarityToBatchSameEnv(i)));
    bt.add(picked, 'cold-start');
  }
  return { batch: bt.picks, relaxed: [] };
}
