// Statistics of the per-step metrics. Plain TypeScript over typed arrays; every
// sort has an explicit numeric comparator, so results are the same in every engine.

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
  const sorted = sortedCopy(values);
  const h = n >> 1;
  return n % 2 === 1 ? sorted[h] : (sorted[h - 1] + sorted[h]) / 2;
}

/** Linear-interpolation quantile of values (the SPEC 5 Q(p) convention). */
export function quantile(values: ArrayLike<number>, p: number): number {
  const sorted = sortedCopy(values);
  const n = sorted.length;
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

// Why a radix sort: V8's TypedArray#sort takes ~350 us for 2,550 doubles, and the simulator ranks
// and quantiles the whole pool every step. The LSD radix sort below is O(N), stable, and
// gives exactly the order of a numeric sort (same values, same ranks): it only replaces the sort.

let radixKeys = new Uint32Array(0); // [hi, lo] order-preserving key halves, two buffers
let radixIdx = new Int32Array(0); // two index buffers
let hiKeys = new Uint32Array(0); // high words of the keys, two buffers (high-word passes)
let loKeys = new Uint32Array(0); // low words of the keys, by value index
const radixCount = new Int32Array(8 * 256); // digit counts of every pass
const f64Cell = new Float64Array(1);
const u32Cell = new Uint32Array(f64Cell.buffer);
const LOW_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1; // little-endian: low word first

/** Order-preserving [hi, lo] key halves of values (half 0) and the identity order. */
function radixKeysOf(values: ArrayLike<number>, n: number, mergeZeros: boolean): void {
  const keys = radixKeys;
  const idx = radixIdx;
  for (let i = 0; i < n; i++) {
    f64Cell[0] = mergeZeros ? values[i] + 0 : values[i]; // x + 0 turns -0 into +0
    let hi = u32Cell[1 - LOW_WORD];
    let lo = u32Cell[LOW_WORD];
    if (hi >>> 31 !== 0) {
      hi = ~hi >>> 0;
      lo = ~lo >>> 0;
    } else {
      hi = (hi | 0x80000000) >>> 0;
    }
    keys[2 * i] = hi;
    keys[2 * i + 1] = lo;
    idx[i] = i;
  }
}

/**
 * Stable ascending order of the indices of `values` (NaN-free), by 8-bit LSD radix passes on the
 * order-preserving bit pattern. mergeZeros: -0 and +0 share one key (they compare equal, as ranks
 * need); otherwise -0 sorts before +0, like TypedArray#sort. The returned array is reused by the
 * next call: read it before sorting again.
 */
function radixOrder(values: ArrayLike<number>, n: number, mergeZeros: boolean): Int32Array {
  if (radixIdx.length < 2 * n) {
    radixKeys = new Uint32Array(4 * n);
    radixIdx = new Int32Array(2 * n);
    hiKeys = new Uint32Array(2 * n);
    loKeys = new Uint32Array(n);
  }
  // Most keys differ in their high word (sign, exponent, 20 bits of mantissa): sort by it alone
  // (4 passes instead of 8, moving only the high words and the indices), then order each run of
  // equal high words by the low word (read through the index). Runs are short unless values are
  // equal (already in order); a long unordered run sorts the low word too.
  const hi = hiKeys;
  const lo = loKeys;
  const idx = radixIdx;
  for (let i = 0; i < n; i++) {
    f64Cell[0] = mergeZeros ? values[i] + 0 : values[i]; // x + 0 turns -0 into +0
    const h = u32Cell[1 - LOW_WORD];
    if (h >>> 31 !== 0) {
      hi[i] = ~h >>> 0;
      lo[i] = ~u32Cell[LOW_WORD] >>> 0;
    } else {
      hi[i] = (h | 0x80000000) >>> 0;
      lo[i] = u32Cell[LOW_WORD];
    }
    idx[i] = i;
  }
  const count = radixCount;
  count.fill(0, 0, 1024);
  for (let k = 0; k < n; k++) {
    const h = hi[k];
    count[h & 255]++;
    count[256 | ((h >>> 8) & 255)]++;
    count[512 | ((h >>> 16) & 255)]++;
    count[768 | (h >>> 24)]++;
  }
  let src = 0;
  for (let pass = 0; pass < 4; pass++) {
    const shift = pass * 8;
    const base = pass << 8;
    const s0 = src * n;
    if (count[base + ((hi[s0] >>> shift) & 255)] === n) continue; // every key shares this digit
    let sum = 0;
    for (let v = base; v < base + 256; v++) {
      const c = count[v];
      count[v] = sum;
      sum += c;
    }
    const d0 = (1 - src) * n;
    for (let k = 0; k < n; k++) {
      const h = hi[s0 + k];
      const at = d0 + count[base + ((h >>> shift) & 255)]++;
      hi[at] = h;
      idx[at] = idx[s0 + k];
    }
    src = 1 - src;
  }
  const s0 = src * n;
  let first = 0;
  while (first < n) {
    const h = hi[s0 + first];
    let end = first + 1;
    let ordered = true;
    while (end < n && hi[s0 + end] === h) {
      if (lo[idx[s0 + end]] < lo[idx[s0 + end - 1]]) ordered = false;
      end++;
    }
    if (!ordered) {
      // a long run out of low-word order: sort every key on all 8 digits instead (a fresh LSD sort)
      if (end - first > 16) return radixOrderFull(values, n, mergeZeros);
      // stable insertion sort of the run by the low word (unsigned; the high words are equal)
      for (let a = first + 1; a < end; a++) {
        const id = idx[s0 + a];
        const l = lo[id];
        let b = a - 1;
        while (b >= first && lo[idx[s0 + b]] > l) {
          idx[s0 + b + 1] = idx[s0 + b];
          b--;
        }
        idx[s0 + b + 1] = id;
      }
    }
    first = end;
  }
  return idx.subarray(s0, s0 + n);
}

/** The full 8-pass LSD sort (keys written again by radixKeysOf). */
function radixOrderFull(values: ArrayLike<number>, n: number, mergeZeros: boolean): Int32Array {
  radixKeysOf(values, n, mergeZeros);
  const src = radixPasses(radixKeys, radixIdx, n, 0, 8);
  return src === 0 ? radixIdx.subarray(0, n) : radixIdx.subarray(n, 2 * n);
}

/**
 * LSD passes `from`..`to`-1 over 8-bit digits (passes 0-3: low word, 4-7: high word), from half 0;
 * returns the half (0 or 1) that holds the result. Stable; skips a digit every key shares.
 */
function radixPasses(keys: Uint32Array, idx: Int32Array, n: number, from: number, to: number): number {
  // every pass's digit counts in one read of the keys (counts do not depend on the order)
  radixCount.fill(0);
  for (let k = 0; k < n; k++) {
    const hi = keys[2 * k];
    const lo = keys[2 * k + 1];
    for (let pass = from; pass < to; pass++) {
      const word = pass < 4 ? lo : hi;
      radixCount[(pass << 8) | ((word >>> ((pass & 3) * 8)) & 255)]++;
    }
  }
  let src = 0;
  for (let pass = from; pass < to; pass++) {
    const word = pass < 4 ? 1 : 0; // offset of the word in a [hi, lo] pair
    const shift = (pass & 3) * 8;
    const base = pass << 8;
    const sk = src * 2 * n;
    const si = src * n;
    if (radixCount[base + ((keys[sk + word] >>> shift) & 255)] === n) continue; // every key shares this digit
    let sum = 0;
    for (let v = base; v < base + 256; v++) {
      const c = radixCount[v];
      radixCount[v] = sum;
      sum += c;
    }
    const dk = (1 - src) * 2 * n;
    const di = (1 - src) * n;
    for (let k = 0; k < n; k++) {
      const from = sk + 2 * k;
      const at = radixCount[base + ((keys[from + word] >>> shift) & 255)]++;
      keys[dk + 2 * at] = keys[from];
      keys[dk + 2 * at + 1] = keys[from + 1];
      idx[di + at] = idx[si + k];
    }
    src = 1 - src;
  }
  return src;
}

function hasNaN(values: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (values[i] !== values[i]) return true;
  return false;
}

/** The values sorted ascending, exactly as `Float64Array.from(values).sort()` orders them. */
export function sortedCopy(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const sorted = new Float64Array(n);
  if (n < 64 || hasNaN(values, n)) {
    // tiny inputs, or NaN (sorted last by TypedArray#sort): the native sort
    for (let i = 0; i < n; i++) sorted[i] = values[i];
    return sorted.sort();
  }
  const order = radixOrder(values, n, false);
  for (let p = 0; p < n; p++) sorted[p] = values[order[p]];
  return sorted;
}

/**
 * 1-based average ranks, ties (numerically equal values, -0 == +0) share the mean of their
 * positions. `out` (length >= n) is reused when given: the simulator ranks the pool every step.
 */
export function averageRanks(values: ArrayLike<number>, out?: Float64Array): Float64Array {
  const n = values.length;
  if (hasNaN(values, n)) return averageRanksBySearch(values);
  const ranks = out !== undefined && out.length >= n ? out.subarray(0, n) : new Float64Array(n);
  ranksFromOrder(values, radixOrder(values, n, true), n, ranks);
  return ranks;
}

function ranksFromOrder(values: ArrayLike<number>, order: Int32Array, n: number, ranks: Float64Array): void {
  let first = 0;
  while (first < n) {
    const x = values[order[first]];
    let end = first + 1;
    while (end < n && values[order[end]] === x) end++;
    const rank = (first + end - 1) / 2 + 1; // positions first .. end-1 share their mean rank
    for (let p = first; p < end; p++) ranks[order[p]] = rank;
    first = end;
  }
}

function hasNegativeZero(values: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (values[i] === 0 && 1 / values[i] < 0) return true;
  return false;
}

/**
 * `averageRanks(values)` and `quantile(values, p)` from one sort (the simulator needs both of the
 * pool's true variances every step). Without NaN or -0 the rank order (-0 == +0) and the sorted
 * order (-0 < +0) are the same order, so both numbers are exactly those of the two functions;
 * otherwise it calls them.
 */
export function ranksAndQuantile(values: ArrayLike<number>, p: number, out?: Float64Array): { ranks: Float64Array; quantile: number } {
  const n = values.length;
  if (n === 0 || hasNaN(values, n) || hasNegativeZero(values, n))
    return { ranks: averageRanks(values, out), quantile: quantile(values, p) };
  const ranks = out !== undefined && out.length >= n ? out.subarray(0, n) : new Float64Array(n);
  const order = radixOrder(values, n, true);
  ranksFromOrder(values, order, n, ranks);
  const pos = p * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  const xlo = values[order[lo]];
  return { ranks, quantile: xlo + (pos - lo) * (values[order[hi]] - xlo) };
}

/** averageRanks by binary search in a natively sorted copy: the definition, kept for NaN inputs. */
function averageRanksBySearch(values: ArrayLike<number>): Float64Array {
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

/**
 * How many of the `k` items of highest `scores` (ties to the lower index) have `values` at or above
 * `cut`: the hits of a prediction's top picks (Table 4's readings).
 */
export function hitsOfHighest(scores: ArrayLike<number>, k: number, values: ArrayLike<number>, cut: number): number {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((i, j) => scores[j] - scores[i] || i - j);
  let hits = 0;
  for (const i of order.slice(0, k)) if (values[i] >= cut) hits++;
  return hits;
}

/** Spearman rank correlation (Pearson on average ranks); null when either side is constant. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  return pearsonOfRanks(averageRanks(x), averageRanks(y));
}

/** Spearman's correlation from the two sides' average ranks (`averageRanks`); null when either side is constant. */
export function pearsonOfRanks(rx: ArrayLike<number>, ry: ArrayLike<number>): number | null {
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
