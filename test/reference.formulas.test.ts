// Hand-worked numbers for each formula of the reference scheduler (SPEC 2-8).
import { describe, expect, it } from 'vitest';
import {
  argmaxLowestIndex,
  calibratedScores,
  centredValue,
  combineHalfLives,
  computeHalfLife,
  declineTerm,
  dot,
  exposureFactor,
  fullSimilarity,
  fuse,
  globalReference,
  groupStats,
  halfLifeWeight,
  indexHistory,
  isProgressExcluded,
  listTransitions,
  median,
  neighbourBandwidth,
  neighbourDistance,
  neighbourWeight,
  novelty,
  percentileRanks,
  progressScore,
  quantile,
  relationEstimate,
  ridgeFit,
  scoreTransitions,
  shrinkToPrior,
  solveLinearSystem,
  stepReferences,
  taskHistory,
  transitionFeatures,
  environmentCategories,
  firstObserved,
  JS_MATH,
} from '../src/reference/index.ts';
import type { Observation } from '../src/engine/types.ts';
import { configWith, tinyGraph } from './helpers/reference-graphs.ts';

const obs = (step: number, task: number, rewards: number[], flags?: boolean[]): Observation =>
  flags ? { step, task, rewards, flags } : { step, task, rewards };

describe('SPEC 2: group statistics', () => {
  it('computes mean, population variance and dispersion of a small group', () => {
    const s = groupStats([0.5, 0.5, 1, 0]);
    expect(s.m).toBe(0.5);
    expect(s.v).toBe(0.125); // (0 + 0 + 0.25 + 0.25) / 4, population (not sample) variance
    expect(s.d).toBe(0.5); // 0.125 / (0.5 * 0.5)
  });

  it('floors m(1 - m) at 0.01 in d', () => {
    const rewards = [...Array(19).fill(1), 0.9];
    const s = groupStats(rewards);
    expect(s.m).toBeCloseTo(0.995, 14);
    expect(s.v).toBeCloseTo(0.000475, 14);
    // m(1 - m) = 0.004975 < 0.01, so d = v / 0.01 (not 0.0955 as without the floor)
    expect(s.d).toBeCloseTo(0.0475, 12);
  });

  it('gives v = 0 and d = 0 for a group of K = 1', () => {
    expect(groupStats([0.7])).toEqual({ v: 0, m: 0.7, d: 0 });
  });
});

describe('SPEC 3: history under one half-life', () => {
  it('weights a step by 2^(-(t - s)/h)', () => {
    expect(halfLifeWeight(10, 10, 2, JS_MATH)).toBe(1);
    expect(halfLifeWeight(10, 8, 2, JS_MATH)).toBe(0.5);
    expect(halfLifeWeight(12, 4, 8, JS_MATH)).toBe(0.5);
    expect(halfLifeWeight(3, 0, 1, JS_MATH)).toBe(0.125);
  });

  // Tasks 0 and 1 observed at step 0 (m = 0.2, 0.6), task 0 again at step 2 (m = 0.9); nothing at step 1.
  const history = indexHistory([obs(2, 0, [0.9]), obs(0, 1, [0.6]), obs(0, 0, [0.2])], 3, 3);

  it('computes B_t over the steps with observations only (a gap step does not enter the sums)', () => {
    const refs = stepReferences(history, 1, JS_MATH);
    expect(refs.map((r) => r.step)).toEqual([0, 2]);
    expect(refs[0].b.m).toBeCloseTo(0.4, 15);
    expect(refs[1].b.m).toBe(0.9);
    expect(refs.map((r) => r.weight)).toEqual([0.125, 0.5]);
    // (0.125 * 0.4 + 0.5 * 0.9) / (0.125 + 0.5) = 0.8; with step 1 in the sums it would not be.
    expect(globalReference(refs, 3, 1, JS_MATH).m).toBeCloseTo(0.8, 14);
    expect(globalReference(refs, 3, 1, JS_MATH).v).toBe(0);
  });

  it('centres and clips observations to I_y', () => {
    expect(centredValue(0.5, 0.4, 0.8, 'm')).toBeCloseTo(0.9, 15);
    expect(centredValue(0.9, 0.4, 0.8, 'm')).toBe(1); // 1.3 clipped to [0, 1]
    expect(centredValue(0.2, 0.1, 0.2, 'v')).toBe(0.25); // 0.3 clipped to [0, 0.25]
    expect(centredValue(0.2, 0.5, 0.1, 'v')).toBe(0); // -0.2 clipped
    expect(centredValue(0.2, 0.5, 0.1, 'd')).toBe(0);
  });

  it('computes W_i and ybar_i from the centred history, and B_t for an unobserved task', () => {
    const refs = stepReferences(history, 1, JS_MATH);
    const B = globalReference(refs, 3, 1, JS_MATH);
    const byStep = new Map(refs.map((r) => [r.step, r]));
    const t0 = taskHistory(history, 0, byStep, B, 1, JS_MATH);
    expect(t0.W).toBe(0.625);
    expect(t0.centred.map((c) => c.centred.m)).toEqual([expect.closeTo(0.6, 14), expect.closeTo(0.8, 14)]);
    expect(t0.ybar.m).toBeCloseTo((0.125 * 0.6 + 0.5 * 0.8) / 0.625, 14); // 0.76
    const t1 = taskHistory(history, 1, byStep, B, 1, JS_MATH);
    expect(t1.W).toBe(0.125);
    expect(t1.ybar.m).toBeCloseTo(1, 14);
    const t2 = taskHistory(history, 2, byStep, B, 1, JS_MATH);
    expect(t2.W).toBe(0);
    expect(t2.ybar).toEqual(B);
  });

  it('keeps B_t and ybar_i exact when every half-life weight underflows (a history ~1,074+ half-lives old)', () => {
    // At t = 5000 with h = 2 every weight 2^(-(t-s)/2) is exactly 0 in doubles; the ratios do not
    // depend on t, so they equal their values at t = 3 (one past the newest step).
    const late = indexHistory([obs(2, 0, [0.9]), obs(0, 1, [0.6]), obs(0, 0, [0.2])], 3, 5000);
    const lateRefs = stepReferences(late, 2, JS_MATH);
    expect(lateRefs.every((r) => r.weight === 0)).toBe(true);
    const nearRefs = stepReferences(history, 2, JS_MATH);
    const lateB = globalReference(lateRefs, 5000, 2, JS_MATH);
    expect(lateB.m).toBeCloseTo(globalReference(nearRefs, 3, 2, JS_MATH).m, 14);
    const lateTask = taskHistory(late, 0, new Map(lateRefs.map((r) => [r.step, r])), lateB, 2, JS_MATH);
    const nearTask = taskHistory(
      history,
      0,
      new Map(nearRefs.map((r) => [r.step, r])),
      globalReference(nearRefs, 3, 2, JS_MATH),
      2,
      JS_MATH,
    );
    expect(lateTask.W).toBe(0);
    expect(lateTask.ybar.m).toBeCloseTo(nearTask.ybar.m, 14);
    expect(Number.isFinite(lateTask.ybar.v)).toBe(true);
  });
});

describe('SPEC 4: relation estimates', () => {
  it('takes the median of an odd count and the mean of the middle two of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([0.7])).toBe(0.7);
  });

  it('floors the bandwidth sigma at 0.05', () => {
    expect(neighbourBandwidth([0.01, 0.03])).toBe(0.05);
    expect(neighbourBandwidth([0.2, 0.4])).toBeCloseTo(0.3, 15);
  });

  it('clips delta = 1 - S to [0, 1]', () => {
    expect(neighbourDistance(0.75)).toBe(0.25);
    expect(neighbourDistance(1.2)).toBe(0);
    expect(neighbourDistance(-0.5)).toBe(1);
  });

  it('weights a neighbour by a Gaussian kernel times clip[0.1, 3](W_j)', () => {
    expect(neighbourWeight(0.3, 0.3, 5, JS_MATH)).toBeCloseTo(Math.exp(-0.5) * 3, 15); // W_j clipped to 3
    expect(neighbourWeight(0, 0.1, 0.01, JS_MATH)).toBeCloseTo(0.1, 15); // W_j clipped up to 0.1
    expect(neighbourWeight(0.2, 0.1, 1, JS_MATH)).toBeCloseTo(Math.exp(-2), 15);
  });

  it('shrinks G toward B_t by lambda_g, and gives B_t with no neighbours', () => {
    expect(relationEstimate([1, 0.5], [0.2, 0.8], 0.5, 2)).toBeCloseTo(1.6 / 3.5, 15);
    expect(relationEstimate([], [], 0.37, 2)).toBe(0.37);
    expect(relationEstimate([], [], 0.37, 0)).toBe(0.37);
  });
});

describe('SPEC 5: fusion, calibration, priority', () => {
  it('reproduces the Appendix F fusion: G_in = 0.05, G_cross = 0.02 -> P = 0.035', () => {
    const P = fuse(0.05, 0.02, 0.5, 0.5);
    expect(P).toBeCloseTo(0.035, 15);
    // yhat = (W ybar + lambda_s P) / (W + lambda_s): one unit of history at 0.2, lambda_s = 2
    expect(shrinkToPrior(1, 0.2, P, 2)).toBeCloseTo((0.2 + 0.07) / 3, 15);
    // an unobserved task (W = 0) takes the prior itself
    expect(shrinkToPrior(0, 0.5, P, 2)).toBeCloseTo(0.035, 15);
    expect(fuse(0.05, 0.02, 0.5, 0.5, 'within-only')).toBe(0.05);
    expect(fuse(0.05, 0.02, 0.5, 0.5, 'cross-only')).toBe(0.02);
  });

  it('gives percentile ranks with average ranks for ties', () => {
    // sorted: 0.1 (rank 1), 0.2 (rank 2), 0.3, 0.3 (ranks 3 and 4 -> 3.5); pr = (rank - 0.5) / 4
    expect(percentileRanks([0.3, 0.1, 0.3, 0.2])).toEqual([0.75, 0.125, 0.75, 0.375]);
    expect(percentileRanks([5, 5, 5])).toEqual([0.5, 0.5, 0.5]);
  });

  it('interpolates the quantile function linearly', () => {
    const x = [0, 0.1, 0.2, 0.4];
    expect(quantile(x, 0.9)).toBeCloseTo(0.2 + 0.7 * 0.2, 15); // pos 2.7
    expect(quantile(x, 0)).toBe(0);
    expect(quantile(x, 1)).toBe(0.4); // hi = min(lo + 1, N - 1)
    expect(quantile([0.7], 0.5)).toBe(0.7);
  });

  it('calibrates u = Q(0.65 pr(vhat) + 0.35 pr(f))', () => {
    const u = calibratedScores([0.1, 0.2, 0.3, 0.4], [0.4, 0.3, 0.2, 0.1]);
    // task 0: p = 0.65 * 0.125 + 0.35 * 0.875 = 0.3875, pos = 3 p = 1.1625 -> x_1 + 0.1625 (x_2 - x_1)
    expect(u[0]).toBeCloseTo(0.21625, 14);
    // task 3: p = 0.65 * 0.875 + 0.35 * 0.125 = 0.6125, pos = 1.8375
    expect(u[3]).toBeCloseTo(0.2 + 0.8375 * 0.1, 14);
  });

  it('subtracts eta times a recent decline only (an improvement is not rewarded)', () => {
    expect(declineTerm(0.3, 0.1, 0.5)).toBeCloseTo(0.1, 15);
    expect(combineHalfLives(0.3, 0.1, 0.5)).toBeCloseTo(0.2, 15);
    expect(combineHalfLives(0.1, 0.3, 0.5)).toBe(0.1);
    expect(combineHalfLives(0.3, 0.1, 0)).toBe(0.3);
  });
});

describe('SPEC 6-7: batch scores and ties', () => {
  it('computes the exposure factor omega = (1 + c/c0)^(-1/2)', () => {
    expect(exposureFactor(0, 16)).toBe(1);
    expect(exposureFactor(48, 16)).toBe(0.5);
    expect(exposureFactor(16, 16)).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('breaks every argmax tie by the lower task index, whatever the candidate order', () => {
    const score = [0, 5, 5, 5];
    expect(argmaxLowestIndex([3, 1, 2], (i) => score[i])).toBe(1);
    expect(argmaxLowestIndex([3, 2], (i) => score[i])).toBe(2);
    expect(argmaxLowestIndex([], () => 0)).toBe(-1);
  });

  it('computes cold-start novelty with an empty max of 0', () => {
    expect(novelty(0.4, 0)).toBeCloseTo(0.3 + 0.5, 15);
    expect(novelty(0.4, 0.2)).toBeCloseTo(0.3 + 0.4, 15);
  });

  it('looks S_full up in within(i), else fullCross(i), else fullCross(j), else 0 (SPEC 1)', () => {
    // Tasks 0, 1 in env 0; tasks 2, 3 in env 1. fullCross keeps only the single best entry.
    const sims: Record<string, number> = { '0,1': 0.9, '0,2': 0.3, '0,3': 0.1, '1,2': 0.35, '1,3': 0.25, '2,3': 0.8 };
    const full = (i: number, j: number) => sims[`${Math.min(i, j)},${Math.max(i, j)}`];
    const g = tinyGraph({ envOf: [0, 0, 1, 1], full, pCross: 1 });
    expect(g.fullCross.map((l) => l.map(([j]) => j))).toEqual([[2], [2], [1], [1]]);
    expect(fullSimilarity(g, 0, 1)).toBe(0.9); // same environment: within(0)
    expect(fullSimilarity(g, 0, 2)).toBe(0.3); // found in fullCross(0)
    expect(fullSimilarity(g, 2, 0)).toBe(0.3); // not in fullCross(2) = [1]; found in fullCross(0)
    expect(fullSimilarity(g, 1, 3)).toBe(0.25); // not in fullCross(1) = [2]; found in fullCross(3)
    expect(fullSimilarity(g, 0, 3)).toBe(0); // in neither list
  });
});

describe('SPEC 8: progress filter', () => {
  it('builds the transition features', () => {
    expect(transitionFeatures(0.5, 0.1, 250, 3, 1, 3, JS_MATH)).toEqual([1, 0.5, 0.25, 0.1, 2.5, Math.log(4), 0, 1, 0]);
  });

  it('fits ridge regression with an unpenalised intercept (closed form on a tiny dataset)', () => {
    // x = 0, 1, 2; y = 1, 3, 2. Centred: Sxx = 2, Sxy = 1. slope = Sxy / (Sxx + lambda), intercept = ybar - slope * xbar.
    const beta = ridgeFit(
      [
        [1, 0],
        [1, 1],
        [1, 2],
      ],
      [1, 3, 2],
      1,
    );
    expect(beta[1]).toBeCloseTo(1 / 3, 14);
    expect(beta[0]).toBeCloseTo(5 / 3, 14);
    const stronger = ridgeFit(
      [
        [1, 0],
        [1, 1],
        [1, 2],
      ],
      [1, 3, 2],
      3,
    );
    expect(stronger[1]).toBeCloseTo(1 / 5, 14);
    expect(stronger[0]).toBeCloseTo(2 - 1 / 5, 14);
  });

  it('solves a linear system that needs pivoting', () => {
    expect(
      solveLinearSystem(
        [
          [0, 1],
          [2, 0],
        ],
        [3, 4],
      ),
    ).toEqual([2, 3]);
  });

  it('combines residuals with the env and neighbour references into p_i', () => {
    // (0.1 - 0.2 + 0.05 + 2 * (0.5 * 0.02 + 0.5 * -0.04)) / (3 + 2)
    const p = progressScore([0.1, -0.2, 0.05], 0.02, -0.04, 2);
    expect(p).toBeCloseTo(-0.014, 15);
    expect(isProgressExcluded(3, p)).toBe(true);
    expect(isProgressExcluded(2, -1)).toBe(false); // needs |R_i| >= 3
    expect(isProgressExcluded(3, 0)).toBe(true); // p_i <= 0
    expect(isProgressExcluded(3, 1e-12)).toBe(false);
    expect(progressScore([], 0.3, 0.1, 2)).toBeCloseTo(0.2, 15); // no residuals: the references alone
  });

  it('scores a transition only with at least 8 earlier complete transitions, fitted on exactly those', () => {
    // One environment with 4 tasks observed at steps 0..3: 4 transitions end at each of s2 = 1, 2, 3.
    const g = tinyGraph({ envOf: [0, 0, 0, 0], categories: ['a'] });
    const rewards = (s: number, i: number) => [((s * 7 + i * 3) % 10) / 10, ((s * 3 + i * 5) % 10) / 10];
    const observations: Observation[] = [];
    for (let s = 0; s <= 3; s++) for (let i = 0; i < 4; i++) observations.push(obs(s, i, rewards(s, i)));
    const history = indexHistory(observations, 4, 4);
    const raw = listTransitions(g, history, JS_MATH);
    expect(raw).toHaveLength(12);
    const second = raw.find((tr) => tr.task === 2 && tr.s1 === 1)!;
    // n1 = 2 observations up to and including step 1; one category -> one-hot [1]
    const st = groupStats(rewards(1, 2));
    expect(second.features).toEqual([1, st.m, st.m * st.m, st.v, 0.01, Math.log(3), 1]);
    expect(second.target).toBe(groupStats(rewards(2, 2)).m);
    const scored = scoreTransitions(raw, 1);
    // s2 = 1, 2: 0 and 4 earlier transitions -> not scorable; s2 = 3: exactly 8 earlier -> scorable.
    expect(scored.map((tr) => tr.residual !== null)).toEqual(raw.map((tr) => tr.s2 === 3));
    const earlier = raw.filter((tr) => tr.s2 < 3);
    const beta = ridgeFit(
      earlier.map((tr) => tr.features),
      earlier.map((tr) => tr.target),
      1,
    );
    for (const tr of scored.filter((x) => x.s2 === 3)) expect(tr.residual).toBeCloseTo(tr.target - dot(tr.features, beta), 14);
    // scoring at a later step does not change a residual already computed (SPEC 8: residuals are fixed)
    const more = [...observations, ...[0, 1, 2, 3].map((i) => obs(4, i, rewards(4, i)))];
    const later = scoreTransitions(listTransitions(g, indexHistory(more, 4, 5), JS_MATH), 1);
    for (const tr of scored.filter((x) => x.s2 === 3)) {
      expect(later.find((x) => x.task === tr.task && x.s2 === 3)!.residual).toBe(tr.residual);
    }
  });

  it('numbers categories by first appearance, a null category being its own', () => {
    const g = tinyGraph({ envOf: [0, 1, 2, 3], categories: ['b', null, 'a', 'b'] });
    expect(environmentCategories(g)).toEqual({ envCategory: [0, 1, 2, 0], nCategories: 3 });
  });
});

describe('SPEC 3-5 end to end on a tiny pool', () => {
  it('predicts an unobserved task from its observed neighbours with the reference as shrinkage', () => {
    // Tasks 0, 1 in env 0 (S = 0.9); task 2 alone in env 1 (similarity 0.2 to the others).
    const full = (i: number, j: number) => (i + j === 1 ? 0.9 : 0.2);
    const g = tinyGraph({ envOf: [0, 0, 1], full });
    // Step 0: task 0 rewards [1, 0] (m 0.5, v 0.25, d 1), task 2 rewards [0.5, 0.5] (m 0.5, v 0, d 0).
    const history = indexHistory([obs(0, 0, [1, 0]), obs(0, 2, [0.5, 0.5])], 3, 1);
    const config = configWith({ lambda_g: 2, lambda_s: 2, K_within: 6, K_cross: 12 });
    const observed = (j: number) => history.byTask[j].length > 0;
    const sets = {
      within: g.within.map((l) => firstObserved(l, config.K_within, observed)),
      cross: g.cross.map((l) => firstObserved(l, config.K_cross, observed)),
    };
    expect(sets.within[1]).toEqual([[0, 0.9]]);
    expect(sets.cross[1]).toEqual([[2, 0.2]]);
    const result = computeHalfLife(history, sets, config, 8, JS_MATH);
    expect(result.reference).toEqual({ v: 0.125, m: 0.5, d: 0.5 });
    const w = 2 ** (-1 / 8); // w(1, 0) with h = 8: W_0 = W_2 = w
    expect(result.tasks[0].W).toBe(w);
    const t1 = result.tasks[1];
    // G_in: one neighbour, delta = 0.1 = sigma, a = exp(-0.5) * clip[0.1,3](w)
    const a = Math.exp(-0.5) * w;
    expect(t1.within.sigma).toBeCloseTo(0.1, 15);
    expect(t1.within.neighbours[0].weight).toBeCloseTo(a, 15);
    expect(t1.within.G.v).toBeCloseTo((a * 0.25 + 2 * 0.125) / (a + 2), 15);
    // G_cross: neighbour 2, delta = 0.8 = sigma, same weight a, its centred v is 0
    expect(t1.cross.G.v).toBeCloseTo((a * 0 + 2 * 0.125) / (a + 2), 15);
    expect(t1.prior.v).toBeCloseTo(0.5 * t1.within.G.v + 0.5 * t1.cross.G.v, 15);
    expect(t1.predicted.v).toBeCloseTo(t1.prior.v, 15); // W = 0: yhat = P
    expect(t1.W).toBe(0);
    // task 0 keeps its own history: yhat = (W * 0.25 + 2 * P) / (W + 2), with only task 2 as a cross neighbour
    const t0 = result.tasks[0];
    expect(t0.within.neighbours).toEqual([]);
    expect(t0.within.G).toEqual(result.reference);
    expect(t0.predicted.v).toBeCloseTo((w * 0.25 + 2 * t0.prior.v) / (w + 2), 15);
  });
});
