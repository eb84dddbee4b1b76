// The scheduler's formulas (SPEC 2-8), one small pure function each, written to read like the
// SPEC text. This is the oracle the WASM kernels are tested against: clarity beats speed, and
// every loop sums in the order SPEC 12 fixes (histories by step ascending, neighbours in list
// order, everything else by task index ascending).
import type { StatTriple } from '../engine/types.ts';
import type { ScalarMath } from './math.ts';

/** SPEC 0: clip[a,b](x) = min(max(x, a), b). */
export function clip(x: number, lo: number, hi: number): number {
  return Math.min(Math.max(x, lo), hi);
}

/** Ascending numeric order, written out (never rely on the default sort, which compares strings). */
export function ascending(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Plain arithmetic mean, summed in the given order; 0 for an empty list (SPEC 8 "0 if none"). */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const x of values) sum += x;
  return sum / values.length;
}

// ---------------------------------------------------------------------------------------------
// SPEC 2: one rollout group

/** SPEC 2: mean m, population variance v and mean-corrected dispersion d of one group of K >= 1 rewards. */
export function groupStats(rewards: readonly number[]): StatTriple {
  const K = rewards.length;
  if (K < 1) throw new Error('groupStats: a group needs at least one reward (SPEC 2: K >= 1)');
  let sum = 0;
  for (const r of rewards) sum += r;
  const m = sum / K;
  let squares = 0;
  for (const r of rewards) squares += (r - m) * (r - m);
  const v = squares / K; // population variance: a group of K = 1 has v = 0
  const d = clip(v / Math.max(m * (1 - m), 0.01), 0, 1); // SPEC 2: the 0.01 floor keeps m near 0 or 1 finite
  return { v, m, d };
}

// ---------------------------------------------------------------------------------------------
// SPEC 3: history under one half-life

/** SPEC 3: w(t,s) = 2^(-(t - s) / h). */
export function halfLifeWeight(t: number, s: number, h: number, math: ScalarMath): number {
  return math.pow(2, -(t - s) / h);
}

/** The SPEC 3 interval I_y that centred observations are clipped to. */
export const STAT_RANGE: Readonly<Record<keyof StatTriple, readonly [number, number]>> = {
  v: [0, 0.25],
  m: [0, 1],
  d: [0, 1],
};

/** SPEC 3: y~ = clip_{I_y}(y - b_s + B_t). */
export function centredValue(y: number, stepRef: number, globalRef: number, stat: keyof StatTriple): number {
  const [lo, hi] = STAT_RANGE[stat];
  return clip(y - stepRef + globalRef, lo, hi);
}

/**
 * SPEC 3: the weighted mean sum(w * x) / sum(w), summed in list order. Used for B_t (x = b_s) and
 * for ybar_i (x = y~_{i,s}). Returns `fallback` when the list is empty (ybar_i = B_t then).
 */
export function weightedMean(weights: readonly number[], values: readonly number[], fallback: number): number {
  if (weights.length === 0) return fallback;
  let num = 0;
  let den = 0;
  for (let k = 0; k < weights.length; k++) {
    num += weights[k] * values[k];
    den += weights[k];
  }
  return num / den;
}

/**
 * SPEC 3's half-life average sum_s w(t,s) y_s / sum_s w(t,s) over the given steps. When every
 * weight underflows to 0 (the newest step lies more than ~1,074 half-lives before t) the literal
 * formula is 0/0; the ratio does not depend on t, so it is evaluated at t = the newest step
 * instead, which is its exact value (docs/spec-decisions.md).
 */
export function halfLifeAverage(
  steps: readonly number[],
  values: readonly number[],
  t: number,
  h: number,
  fallback: number,
  math: ScalarMath,
): number {
  if (steps.length === 0) return fallback;
  const weights = steps.map((s) => halfLifeWeight(t, s, h, math));
  if (weights.some((w) => w > 0)) return weightedMean(weights, values, fallback);
  const newest = Math.max(...steps);
  return weightedMean(
    steps.map((s) => halfLifeWeight(newest, s, h, math)),
    values,
    fallback,
  );
}

// ---------------------------------------------------------------------------------------------
// SPEC 4: relation estimates

/** Median of a non-empty list; an even count gives the mean of the middle two (SPEC 4). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of an empty list');
  const sorted = [...values].sort(ascending);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** SPEC 4: delta_ij = clip[0,1](1 - S_r(i,j)). */
export function neighbourDistance(similarity: number): number {
  return clip(1 - similarity, 0, 1);
}

/** SPEC 4: sigma_i = max(median_j delta_ij, 0.05), for a non-empty neighbour set. */
export function neighbourBandwidth(distances: readonly number[]): number {
  return Math.max(median(distances), 0.05);
}

/** SPEC 4: a_ij = exp(-0.5 (delta/sigma)^2) * clip[0.1,3](W_j). */
export function neighbourWeight(distance: number, bandwidth: number, historyWeight: number, math: ScalarMath): number {
  const z = distance / bandwidth;
  return math.exp(-0.5 * z * z) * clip(historyWeight, 0.1, 3);
}

/**
 * SPEC 4: G = (sum_j a_ij ybar_j + lambda_g B) / (sum_j a_ij + lambda_g), in neighbour list order.
 * An empty neighbour set gives B exactly (also when lambda_g = 0, where the formula would be 0/0).
 */
export function relationEstimate(
  weights: readonly number[],
  neighbourMeans: readonly number[],
  globalRef: number,
  lambdaG: number,
): number {
  if (weights.length === 0) return globalRef;
  let num = 0;
  let den = 0;
  for (let k = 0; k < weights.length; k++) {
    num += weights[k] * neighbourMeans[k];
    den += weights[k];
  }
  return (num + lambdaG * globalRef) / (den + lambdaG);
}

// ---------------------------------------------------------------------------------------------
// SPEC 5: fusion, calibration and the priority

export type PriorKind = 'fused' | 'within-only' | 'cross-only';

/** SPEC 5: P = w_in G_in + w_cross G_cross; the within-only / cross-only ablations take one relation. */
export function fuse(gIn: number, gCross: number, wIn: number, wCross: number, kind: PriorKind = 'fused'): number {
  if (kind === 'within-only') return gIn;
  if (kind === 'cross-only') return gCross;
  return wIn * gIn + wCross * gCross;
}

/** SPEC 5: yhat = (W ybar + lambda_s P) / (W + lambda_s). */
export function shrinkToPrior(historyWeight: number, historyMean: number, prior: number, lambdaS: number): number {
  return (historyWeight * historyMean + lambdaS * prior) / (historyWeight + lambdaS);
}

/**
 * SPEC 5: pr(z_i) = (rankavg(z_i) - 0.5) / N over the whole list; ranks are 1-based ascending and
 * tied values (exactly equal doubles) share the average of their ranks.
 */
export function percentileRanks(values: readonly number[]): number[] {
  const n = values.length;
  const order = values.map((_, i) => i).sort((a, b) => ascending(values[a], values[b]) || a - b);
  const ranks = new Array<number>(n);
  let start = 0;
  while (start < n) {
    let end = start; // [start, end] is one run of equal values in sorted position
    while (end + 1 < n && values[order[end + 1]] === values[order[start]]) end++;
    const averageRank = (start + 1 + (end + 1)) / 2;
    for (let k = start; k <= end; k++) ranks[order[k]] = averageRank;
    start = end + 1;
  }
  return ranks.map((rank) => (rank - 0.5) / n);
}

/** SPEC 5: Q(p) over values sorted ascending, with linear interpolation between neighbours. */
export function quantile(sortedAscending: readonly number[], p: number): number {
  const n = sortedAscending.length;
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sortedAscending[lo] + (pos - lo) * (sortedAscending[hi] - sortedAscending[lo]);
}

/** SPEC 5: f_i = dhat_i * mhat_i * (1 - mhat_i). */
export function learnability(predicted: StatTriple): number {
  return predicted.d * predicted.m * (1 - predicted.m);
}

/** SPEC 5: u_i = Q(0.65 pr(vhat_i) + 0.35 pr(f_i)) for every task of one half-life. */
export function calibratedScores(vhat: readonly number[], f: readonly number[]): number[] {
  const prV = percentileRanks(vhat);
  const prF = percentileRanks(f);
  const sorted = [...vhat].sort(ascending);
  return vhat.map((_, i) => quantile(sorted, 0.65 * prV[i] + 0.35 * prF[i]));
}

/** SPEC 5: the recent-decline term eta * max(u_long - u_short, 0). */
export function declineTerm(uLong: number, uShort: number, etaDecline: number): number {
  return etaDecline * Math.max(uLong - uShort, 0);
}

/** SPEC 5: u_i = u_long - eta_decline * max(u_long - u_short, 0). */
export function combineHalfLives(uLong: number, uShort: number, etaDecline: number): number {
  return uLong - declineTerm(uLong, uShort, etaDecline);
}

// ---------------------------------------------------------------------------------------------
// SPEC 6: batch scores

/**
 * SPEC 6: omega_i = (1 + c_i / c0)^(-1/2). Written as 1 / sqrt(.) because sqrt is correctly
 * rounded everywhere (JS and WASM alike), whereas pow's last digit may differ between engines.
 */
export function exposureFactor(count: number, c0: number): number {
  return 1 / Math.sqrt(1 + count / c0);
}

/** SPEC 6: the coverage objective q_i - lambda_sim * max_{j in Bt} S_full(i,j). */
export function coverageObjective(q: number, lambdaSim: number, maxSimilarity: number): number {
  return q - lambdaSim * maxSimilarity;
}

/** SPEC 6: the exploitation objective q_i * omega_i - lambda_sim * max_{j in Bt} S_full(i,j). */
export function exploitationObjective(q: number, omega: number, lambdaSim: number, maxSimilarity: number): number {
  return q * omega - lambdaSim * maxSimilarity;
}

/** SPEC 7: novelty_i = 0.5 (1 - max_{Bt} S_full) + 0.5 (1 - max_{Bt, same env} S_full); empty max = 0. */
export function novelty(maxSimilarity: number, maxSimilaritySameEnv: number): number {
  return 0.5 * (1 - maxSimilarity) + 0.5 * (1 - maxSimilaritySameEnv);
}

/** Index of the largest score; ties go to the lower index (SPEC 0). -1 for an empty candidate list. */
export function argmaxLowestIndex(candidates: readonly number[], score: (i: number) => number): number {
  let best = -1;
  let bestScore = -Infinity;
  for (const i of candidates) {
    const s = score(i);
    if (best === -1 || s > bestScore || (s === bestScore && i < best)) {
      best = i;
      bestScore = s;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// SPEC 8: progress filter

/**
 * The normal equations of SPEC 8's ridge fit, X'X and X'y, accumulated one row at a time in row
 * order (so a fit on a prefix of the transitions can be extended instead of recomputed).
 */
export class NormalEquations {
  readonly gram: number[][] = [];
  readonly xty: number[] = [];
  rows = 0;

  constructor(readonly size: number) {
    for (let r = 0; r < size; r++) {
      this.gram.push(new Array<number>(size).fill(0));
      this.xty.push(0);
    }
  }

  add(x: readonly number[], target: number): void {
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) this.gram[r][c] += x[r] * x[c];
      this.xty[r] += x[r] * target;
    }
    this.rows += 1;
  }

  /** beta solving (X'X + lambda * diag(0, 1, ..., 1)) beta = X'y: the intercept (column 0) is not penalised. */
  solveRidge(lambda: number): number[] {
    const a = this.gram.map((row) => [...row]);
    for (let k = 1; k < this.size; k++) a[k][k] += lambda;
    return solveLinearSystem(a, this.xty);
  }
}

/**
 * SPEC 8: ridge regression beta = argmin |y - X beta|^2 + lambda * sum_{k >= 1} beta_k^2 (the
 * intercept, column 0, is not penalised), solved from the normal equations by Gaussian
 * elimination with partial pivoting.
 */
export function ridgeFit(rows: readonly (readonly number[])[], targets: readonly number[], lambda: number): number[] {
  if (rows.length === 0) throw new Error('ridgeFit needs at least one row');
  const equations = new NormalEquations(rows[0].length);
  rows.forEach((x, n) => equations.add(x, targets[n]));
  return equations.solveRidge(lambda);
}

/** Solves A x = b (A square, non-singular) by Gaussian elimination with partial pivoting; does not mutate its inputs. */
export function solveLinearSystem(matrix: readonly (readonly number[])[], rhs: readonly number[]): number[] {
  const n = rhs.length;
  const a = matrix.map((row) => [...row]);
  const b = [...rhs];
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    if (a[pivot][col] === 0) throw new Error('solveLinearSystem: singular matrix');
    if (pivot !== col) {
      [a[pivot], a[col]] = [a[col], a[pivot]];
      [b[pivot], b[col]] = [b[col], b[pivot]];
    }
    for (let r = col + 1; r < n; r++) {
      const factor = a[r][col] / a[col][col];
      if (factor === 0) continue;
      for (let c = col; c < n; c++) a[r][c] -= factor * a[col][c];
      b[r] -= factor * b[col];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = b[r];
    for (let c = r + 1; c < n; c++) sum -= a[r][c] * x[c];
    x[r] = sum / a[r][r];
  }
  return x;
}

/** Dot product in index order. */
export function dot(x: readonly number[], beta: readonly number[]): number {
  let sum = 0;
  for (let k = 0; k < x.length; k++) sum += x[k] * beta[k];
  return sum;
}

/**
 * SPEC 8: transition features x = [1, m1, m1^2, v1, s1/100, ln(1 + n1), onehot(category)].
 */
export function transitionFeatures(
  m1: number,
  v1: number,
  s1: number,
  n1: number,
  category: number,
  nCategories: number,
  math: ScalarMath,
): number[] {
  const x = [1, m1, m1 * m1, v1, s1 / 100, math.log(1 + n1)];
  for (let c = 0; c < nCategories; c++) x.push(c === category ? 1 : 0);
  return x;
}

/** SPEC 8: p_i = (sum R_i + kappa (0.5 ref_env + 0.5 ref_nb)) / (|R_i| + kappa). */
export function progressScore(residuals: readonly number[], refEnv: number, refNb: number, kappa: number): number {
  let sum = 0;
  for (const r of residuals) sum += r;
  return (sum + kappa * (0.5 * refEnv + 0.5 * refNb)) / (residuals.length + kappa);
}

/** SPEC 8: excluded from exploitation when |R_i| >= 3 and p_i <= 0. */
export function isProgressExcluded(residualCount: number, p: number): boolean {
  return residualCount >= 3 && p <= 0;
}

/** SPEC 8: a flagged rollout with reward >= 0.5 removes its task (a history file's flag = confirmed replay). */
export function groupTriggersRemoval(rewards: readonly number[], flags: readonly boolean[] | undefined): boolean {
  if (!flags) return false;
  for (let k = 0; k < rewards.length; k++) if (flags[k] === true && rewards[k] >= 0.5) return true;
  return false;
}
