// Statistics of the per-step metrics (issue 4 item 3). Plain TypeScript over typed arrays; every
// sort has an explicit numeric comparator (STACK-NOTES), so results are the same in every engine.

export function ascending(a: number, b: number): number {
  return a - b;
}

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  let s = 0;
  for (let k = 0; k < values.length; k++) s += values[k];
  return s / values.length;
}

/** Median (mean of the middle two for an even count); NaN when empty. */
export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  const h = n >> 1;
  return n % 2 === 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
}

/** Linear-interpolation quantile of values (the SPEC 5 Q(p) convention). */
export function quantile(values: ArrayLike<number>, p: number): number {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

/** 1-based average ranks, ties share the mean of their positions (binary search in a natively sorted copy). */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const sorted = Float64Array.from(values).sort();
  const ranks = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const x = values[k];
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    const first = lo;
    hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] <= x) lo = mid + 1;
      else hi = mid;
    }
    ranks[k] = (first + lo - 1) / 2 + 1; // positions first .. lo-1 share their mean rank
  }
  return ranks;
}

/** Spearman rank correlation (Pearson on average ranks); null when either side is constant. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const mx = mean(rx);
  const my = mean(ry);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let k = 0; k < rx.length; k++) {
    const dx = rx[k] - mx;
    const dy = ry[k] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** Group statistics of SPEC 2: mean and population variance of K rewards starting at offset. */
export function groupMeanVariance(rewards: ArrayLike<number>, offset: number, K: number): { m: number; v: number } {
  let m = 0;
  for (let k = 0; k < K; k++) m += rewards[offset + k];
  m /= K;
  let v = 0;
  for (let k = 0; k < K; k++) {
    const d = rewards[offset + k] - m;
    v += d * d;
  }
  return { m, v: v / K };
}

/** Counts distinct values over several small lists, with a reusable stamp array (no allocation per step). */
export class DistinctCounter {
  private readonly stamp: Int32Array;
  private epoch = 0;
  constructor(size: number) {
    this.stamp = new Int32Array(size);
  }
  begin(): void {
    this.epoch++;
  }
  /** Marks v; returns true when it is new in this round. */
  add(v: number): boolean {
    if (this.stamp[v] === this.epoch) return false;
    this.stamp[v] = this.epoch;
    return true;
  }
}
