// The step meter's pool-wide statistics (docs/simulator.md, "Metrics per step"): the hit
// threshold Q(0.75) of the true variances and Spearman's correlation of a prediction with them.
// Exactly the arithmetic of src/sim/metrics.ts (ranksAndQuantile, averageRanks, pearsonOfRanks),
// which stays the oracle and takes the inputs this kernel declines (NaN, -0 in the truth).
import { sortByKey, sortCapacity, sortedIdx, sortReserve } from '../common/sort';

// @ts-ignore: decorator
@inline function ldF(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
// @ts-ignore: decorator
@inline function stF(base: usize, i: i32, value: f64): void {
  store<f64>(base + (<usize>i << 3), value);
}
// @ts-ignore: decorator
@inline function ldI(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

/** Result slots of meter_judge. */
const OUT_QUANTILE = 0;
const OUT_CORRELATION = 1;
/** 1 when the correlation is undefined (a constant side) or no prediction was given. */
const OUT_CORRELATION_NULL = 2;

/** Status of meter_judge: the result slots hold the statistics. */
const JUDGED = 0;
/** Status of meter_judge: an input the kernel does not take (the caller's TypeScript path does). */
const DECLINED = 1;

function hasNaN(values: usize, n: i32): bool {
  for (let i = 0; i < n; i++) {
    const x = ldF(values, i);
    if (x != x) return true;
  }
  return false;
}

function hasNegativeZero(values: usize, n: i32): bool {
  for (let i = 0; i < n; i++) if (reinterpret<u64>(ldF(values, i)) == 0x8000000000000000) return true;
  return false;
}

/** 1-based average ranks of values into ranks (ties, -0 == +0, share the mean of their positions); the order stays in sortedIdx. */
function averageRanks(values: usize, n: i32, ranks: usize): void {
  sortByKey(values, n);
  const order = sortedIdx;
  let first = 0;
  while (first < n) {
    const x = ldF(values, ldI(order, first));
    let end = first + 1;
    while (end < n && ldF(values, ldI(order, end)) == x) end++;
    const rank = <f64>(first + end - 1) / 2.0 + 1.0; // positions first .. end-1 share their mean rank
    for (let p = first; p < end; p++) stF(ranks, ldI(order, p), rank);
    first = end;
  }
}

function meanOf(values: usize, n: i32): f64 {
  let s = 0.0;
  for (let k = 0; k < n; k++) s += ldF(values, k);
  return s / <f64>n;
}

/** Sizes the sort workspace for pools of up to n tasks (once per simulator, after its buffers). */
export function meter_reserve(n: i32): void {
  sortReserve(n);
}

/**
 * Ranks `truth` (n values) into trueRanks and writes the linear-interpolation quantile Q(p) to
 * out[0]; when `predicted` is not 0, ranks it into predictedRanks and writes Spearman's
 * correlation of the two to out[1] (out[2] = 1 when it is undefined: a constant side). Returns
 * DECLINED, writing nothing, for n = 0, n beyond the sort workspace, NaN anywhere or -0 in the truth.
 */
export function meter_judge(truth: usize, predicted: usize, n: i32, p: f64, trueRanks: usize, predictedRanks: usize, out: usize): i32 {
  if (n <= 0 || n > sortCapacity || hasNaN(truth, n) || hasNegativeZero(truth, n)) return DECLINED;
  if (predicted != 0 && hasNaN(predicted, n)) return DECLINED;
  averageRanks(truth, n, trueRanks);
  // without NaN or -0 the rank order is the sorted order: Q(p) from it
  const order = sortedIdx;
  const pos = p * <f64>(n - 1);
  const lo = <i32>Math.floor(pos);
  const hi = min<i32>(lo + 1, n - 1);
  const xlo = ldF(truth, ldI(order, lo));
  stF(out, OUT_QUANTILE, xlo + (pos - <f64>lo) * (ldF(truth, ldI(order, hi)) - xlo));
  stF(out, OUT_CORRELATION, 0.0);
  stF(out, OUT_CORRELATION_NULL, 1.0);
  if (predicted == 0) return JUDGED;
  averageRanks(predicted, n, predictedRanks);
  // Pearson's correlation of the ranks, in pearsonOfRanks's order of operations
  const mx = meanOf(predictedRanks, n);
  const my = meanOf(trueRanks, n);
  let sxy = 0.0;
  let sxx = 0.0;
  let syy = 0.0;
  for (let k = 0; k < n; k++) {
    const dx = ldF(predictedRanks, k) - mx;
    const dy = ldF(trueRanks, k) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx == 0.0 || syy == 0.0) return JUDGED;
  stF(out, OUT_CORRELATION, sxy / Math.sqrt(sxx * syy));
  stF(out, OUT_CORRELATION_NULL, 0.0);
  return JUDGED;
}
