// The simulator's per-step statistics (src/sim/metrics.ts) sort by radix for speed: they
// must give exactly the values of the definitions (a native numeric sort, binary-searched ranks).
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../src/util/mulberry32.ts';
import {
  averageRanks,
  hitsOfHighest,
  median,
  pearsonOfRanks,
  quantile,
  ranksAndQuantile,
  sortedCopy,
  spearman,
} from '../src/sim/metrics.ts';
import { sample } from './helpers/metric-samples.ts';

const rng = mulberry32;

/** The definitions the fast code replaces (the first-round implementation). */
function ranksByDefinition(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const sorted = Float64Array.from(values).sort();
  const ranks = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let first = 0;
    while (first < n && sorted[first] < values[k]) first++;
    let last = first;
    while (last < n && sorted[last] <= values[k]) last++;
    ranks[k] = (first + last - 1) / 2 + 1;
  }
  return ranks;
}
function quantileByDefinition(values: ArrayLike<number>, p: number): number {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}
function spearmanByDefinition(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const rx = ranksByDefinition(x);
  const ry = ranksByDefinition(y);
  let mx = 0;
  let my = 0;
  for (let k = 0; k < rx.length; k++) mx += rx[k];
  for (let k = 0; k < ry.length; k++) my += ry[k];
  mx /= rx.length;
  my /= ry.length;
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

describe('simulator metrics', () => {
  it('average ranks, quantiles, medians and Spearman equal their definitions bit for bit', () => {
    const next = rng(42);
    for (let c = 0; c < 300; c++) {
      const n = 1 + Math.floor(next() * (c < 200 ? (c % 2 === 0 ? 20 : 300) : 3000));
      const x = sample(next, n, c % 6);
      const y = sample(next, n, (c + 1 + (c >> 2)) % 6);
      expect(Array.from(averageRanks(x))).toEqual(Array.from(ranksByDefinition(x)));
      const p = c % 3 === 0 ? 0.75 : next();
      expect(Object.is(quantile(x, p), quantileByDefinition(x, p))).toBe(true);
      expect(Array.from(sortedCopy(x)).map((v) => (Object.is(v, -0) ? '-0' : v))).toEqual(
        Array.from(Float64Array.from(x).sort()).map((v) => (Object.is(v, -0) ? '-0' : v)),
      );
      const s = Float64Array.from(x).sort();
      expect(median(x)).toBe(n % 2 === 1 ? s[n >> 1] : (s[(n >> 1) - 1] + s[n >> 1]) / 2);
      expect(spearman(x, y)).toBe(spearmanByDefinition(x, y));
    }
  });

  it('ranks ties by their mean position and treats -0 as +0', () => {
    const values = new Float64Array(100);
    for (let i = 0; i < 100; i++) values[i] = i % 2 === 0 ? 0 : -0;
    values[7] = 1;
    values[8] = -1;
    const ranks = averageRanks(values);
    expect(ranks[8]).toBe(1);
    expect(ranks[7]).toBe(100);
    expect(ranks[0]).toBe(50.5);
    expect(ranks[1]).toBe(50.5);
  });

  it('falls back to the definition when a value is NaN', () => {
    const values = Float64Array.from({ length: 200 }, (_, i) => (i === 3 ? NaN : (i * 7) % 13));
    expect(Array.from(averageRanks(values))).toEqual(Array.from(ranksByDefinition(values)));
    expect(quantile(values, 0.9)).toBe(quantileByDefinition(values, 0.9));
  });

  it('gives the ranks and the quantile of one sort exactly as the two definitions, reusing buffers', () => {
    const next = rng(7);
    const outX = new Float64Array(3000);
    const outY = new Float64Array(3000);
    for (let c = 0; c < 200; c++) {
      const n = 1 + Math.floor(next() * (c % 2 === 0 ? 40 : 3000));
      const y = sample(next, n, c % 6); // kinds 1 and 2 hold -0: the path that calls the definitions
      if (c % 25 === 0) y[Math.floor(next() * n)] = NaN;
      const x = sample(next, n, (c + 3) % 6);
      const p = c % 3 === 0 ? 0.75 : next();
      const got = ranksAndQuantile(y, p, outY);
      expect(got.ranks.length).toBe(n);
      expect(Object.is(got.quantile, quantileByDefinition(y, p))).toBe(true);
      expect(Array.from(got.ranks)).toEqual(Array.from(ranksByDefinition(y)));
      if (!y.some((v) => v !== v)) expect(pearsonOfRanks(averageRanks(x, outX), got.ranks)).toBe(spearmanByDefinition(x, y));
    }
  });
});

describe('hitsOfHighest', () => {
  it('counts, among the k highest scores (ties to the lower index), the items whose value reaches the cut', () => {
    const scores = [0.2, 0.9, 0.5, 0.9, 0.1];
    const values = [1, 0, 1, 1, 1];
    expect(hitsOfHighest(scores, 2, values, 1)).toBe(1); // items 1 and 3
    expect(hitsOfHighest(scores, 3, values, 1)).toBe(2); // then item 2
    expect(hitsOfHighest(scores, 10, values, 1)).toBe(4); // k past the end: every item
    expect(hitsOfHighest([0.5, 0.5], 1, [0, 1], 1)).toBe(0); // the tie goes to item 0
  });
});
