// SPEC 3-5 under one half-life h: references, task histories, relation estimates, fusion and
// the calibrated score u^(h) (the kernels' counterpart, for both half-lives at once:
// assembly/scheduler/predict.ts). Every intermediate is kept so `explainTask` can show it.
import type { Config, Neighbour, StatTriple } from '../engine/types.ts';
import {
  calibratedScores,
  centredValue,
  fuse,
  halfLifeAverage,
  halfLifeWeight,
  learnability,
  mean,
  neighbourBandwidth,
  neighbourDistance,
  neighbourWeight,
  relationEstimate,
  shrinkToPrior,
  weightedMean,
  type PriorKind,
} from './formulas.ts';
import type { HistoryIndex } from './history.ts';
import type { NeighbourSets } from './neighbours.ts';
import type { ScalarMath } from './math.ts';

/** One step's reference b_s (SPEC 3) with its weight w(t,s). */
export interface StepReference {
  step: number;
  weight: number;
  /** Mean of each statistic over the tasks observed at this step. */
  b: StatTriple;
  tasksObserved: number;
}

/** One observed neighbour as it enters G_r (SPEC 4). */
export interface NeighbourTerm {
  index: number;
  similarity: number;
  /** delta_ij = clip[0,1](1 - S_r(i,j)). */
  delta: number;
  /** sigma_i of the relation (the same for every neighbour of that relation). */
  sigma: number;
  /** a_ij. */
  weight: number;
  ybar: StatTriple;
  W: number;
  observationCount: number;
  lastStep: number;
}

export interface RelationTerms {
  /** sigma_i, or null when no neighbour is observed. */
  sigma: number | null;
  neighbours: NeighbourTerm[];
  /** G_r^y(i) for each statistic. */
  G: StatTriple;
}

export interface CentredObservation {
  step: number;
  weight: number;
  centred: StatTriple;
}

export interface TaskUnderHalfLife {
  /** W_i = sum of w(t,s) over H_t(i). */
  W: number;
  /** ybar_i per statistic (B_t when unobserved). */
  ybar: StatTriple;
  centred: CentredObservation[];
  within: RelationTerms;
  cross: RelationTerms;
  /** The fused graph prior P^y(i). */
  prior: StatTriple;
  /** yhat_i per statistic. */
  predicted: StatTriple;
  f: number;
  u: number;
}

export interface HalfLifeResult {
  h: number;
  stepReferences: StepReference[];
  /** B_t^y. */
  reference: StatTriple;
  tasks: TaskUnderHalfLife[];
}

function triple(f: (y: keyof StatTriple) => number): StatTriple {
  return { v: f('v'), m: f('m'), d: f('d') };
}

/** Which prior the scheduler uses (SPEC 5 ablations; coverage-only / exploitation-only only change rho). */
export function priorKind(config: Pick<Config, 'scheduler'>): PriorKind {
  if (config.scheduler === 'within-only') return 'within-only';
  if (config.scheduler === 'cross-only') return 'cross-only';
  return 'fused';
}

/** SPEC 3: b_s^y over the steps s < t with observations, in step order, with w(t,s). */
export function stepReferences(history: HistoryIndex, h: number, math: ScalarMath): StepReference[] {
  return history.steps.map((step) => {
    const groups = history.byStep.get(step) ?? [];
    return {
      step,
      weight: halfLifeWeight(history.t, step, h, math),
      b: triple((y) => mean(groups.map((g) => g.stats[y]))),
      tasksObserved: groups.length,
    };
  });
}

/** SPEC 3: B_t^y = sum w(t,s) b_s^y / sum w(t,s) over steps with observations (needs at least one). */
export function globalReference(refs: readonly StepReference[], t: number, h: number, math: ScalarMath): StatTriple {
  if (refs.length === 0) throw new Error('B_t is undefined without observations (SPEC 3; see the cold start, SPEC 7)');
  const steps = refs.map((r) => r.step);
  return triple((y) =>
    halfLifeAverage(
      steps,
      refs.map((r) => r.b[y]),
      t,
      h,
      NaN,
      math,
    ),
  );
}

/** SPEC 3: a task's centred observations, W_i and ybar_i. */
export function taskHistory(
  history: HistoryIndex,
  task: number,
  refs: ReadonlyMap<number, StepReference>,
  B: StatTriple,
  h: number,
  math: ScalarMath,
): { W: number; ybar: StatTriple; centred: CentredObservation[] } {
  const centred = history.byTask[task].map((g) => {
    const ref = refs.get(g.step)!;
    return { step: g.step, weight: ref.weight, centred: triple((y) => centredValue(g.stats[y], ref.b[y], B[y], y)) };
  });
  const weights = centred.map((c) => c.weight);
  let W = 0;
  for (const w of weights) W += w;
  const steps = centred.map((c) => c.step);
  const ybar = triple((y) =>
    halfLifeAverage(
      steps,
      centred.map((c) => c.centred[y]),
      history.t,
      h,
      B[y],
      math,
    ),
  );
  return { W, ybar, centred };
}

/** SPEC 4: G_r^y(i) from the observed neighbours of one relation. */
export function relationTerms(
  neighbours: readonly Neighbour[],
  history: HistoryIndex,
  perTask: readonly { W: number; ybar: StatTriple }[],
  B: StatTriple,
  lambdaG: number,
  math: ScalarMath,
): RelationTerms {
  if (neighbours.length === 0) return { sigma: null, neighbours: [], G: { ...B } };
  const deltas = neighbours.map(([, s]) => neighbourDistance(s));
  const sigma = neighbourBandwidth(deltas);
  const terms: NeighbourTerm[] = neighbours.map(([j, s], k) => {
    const groups = history.byTask[j];
    return {
      index: j,
      similarity: s,
      delta: deltas[k],
      sigma,
      weight: neighbourWeight(deltas[k], sigma, perTask[j].W, math),
      ybar: perTask[j].ybar,
      W: perTask[j].W,
      observationCount: groups.length,
      lastStep: groups[groups.length - 1].step,
    };
  });
  const weights = terms.map((n) => n.weight);
  const G = triple((y) =>
    relationEstimate(
      weights,
      terms.map((n) => n.ybar[y]),
      B[y],
      lambdaG,
    ),
  );
  return { sigma, neighbours: terms, G };
}

/**
 * SPEC 4-5 for one task under one half-life, before the pool-wide calibration: the relation
 * estimates over its observed neighbours, the fused prior, the prediction yhat_i and f_i.
 * `perTask` needs W and ybar only at the neighbours' indices.
 */
export function taskPrediction(
  own: { W: number; ybar: StatTriple; centred: CentredObservation[] },
  within: readonly Neighbour[],
  cross: readonly Neighbour[],
  history: HistoryIndex,
  perTask: readonly { W: number; ybar: StatTriple }[],
  B: StatTriple,
  config: Config,
  math: ScalarMath,
): Omit<TaskUnderHalfLife, 'u'> {
  const kind = priorKind(config);
  const withinTerms = relationTerms(within, history, perTask, B, config.lambda_g, math);
  const crossTerms = relationTerms(cross, history, perTask, B, config.lambda_g, math);
  const prior = triple((y) => fuse(withinTerms.G[y], crossTerms.G[y], config.w_in, config.w_cross, kind));
  const predicted = triple((y) => shrinkToPrior(own.W, own.ybar[y], prior[y], config.lambda_s));
  return { ...own, within: withinTerms, cross: crossTerms, prior, predicted, f: learnability(predicted) };
}

/** SPEC 3-5 for every task under half-life h. */
export function computeHalfLife(
  history: HistoryIndex,
  neighbourSets: NeighbourSets,
  config: Config,
  h: number,
  math: ScalarMath,
): HalfLifeResult {
  const refs = stepReferences(history, h, math);
  const B = globalReference(refs, history.t, h, math);
  const refByStep = new Map(refs.map((r) => [r.step, r]));
  const nTasks = history.byTask.length;

  const histories: ReturnType<typeof taskHistory>[] = [];
  for (let i = 0; i < nTasks; i++) histories.push(taskHistory(history, i, refByStep, B, h, math));

  const partial = histories.map((own, i) =>
    taskPrediction(own, neighbourSets.within[i], neighbourSets.cross[i], history, histories, B, config, math),
  );

  // SPEC 5: the calibration ranks over the whole pool, so it runs after every prediction exists.
  const u = calibratedScores(
    partial.map((p) => p.predicted.v),
    partial.map((p) => p.f),
  );
  const tasks = partial.map((p, i) => ({ ...p, u: u[i] }));
  return { h, stepReferences: refs, reference: B, tasks };
}
