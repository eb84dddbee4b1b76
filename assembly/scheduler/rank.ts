// SPEC 5 percentile ranks (average ranks for ties) and the linear-interpolation quantile.
// A bottom-up merge sort of task indices by an f64 key: stable, so equal keys keep index order,
// O(N log N), and compares with `<` only (so -0 == +0; keys are never NaN).
import { gN } from './graph';
import { allocI32, getF64, getI32, setF64, setI32 } from './mem';

let sortA: usize = 0; // i32[N]
let sortB: usize = 0; // i32[N]
/** After sortByKey: the task indices in ascending key order (valid until the next sort). */
export let sortedIdx: usize = 0;

export function rankInitForGraph(): void {
  sortA = allocI32(gN);
  sortB = allocI32(gN);
  sortedIdx = sortA;
}

/** Sorts 0..n-1 by keys[i] ascending, ties by index; result in `sortedIdx`. */
export function sortByKey(keys: usize, n: i32): void {
  let src = sortA;
  let dst = sortB;
  for (let i = 0; i < n; i++) setI32(src, i, i);
  for (let width = 1; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = min<i32>(lo + width, n);
      const hi = min<i32>(lo + (width << 1), n);
      let a = lo;
      let b = mid;
      let o = lo;
      while (a < mid && b < hi) {
        const ia = getI32(src, a);
        const ib = getI32(src, b);
        // take from the right only when strictly smaller: stability keeps lower indices first
        if (getF64(keys, ib) < getF64(keys, ia)) {
          setI32(dst, o++, ib);
          b++;
        } else {
          setI32(dst, o++, ia);
          a++;
        }
      }
      while (a < mid) setI32(dst, o++, getI32(src, a++));
      while (b < hi) setI32(dst, o++, getI32(src, b++));
    }
    const t = src;
    src = dst;
    dst = t;
  }
  sortedIdx = src;
}

/** SPEC 5: out[i] = (rankavg(keys[i]) - 0.5) / n, 1-based ranks, ties share their average rank. */
export function percentileRanks(keys: usize, out: usize, n: i32): void {
  sortByKey(keys, n);
  const idx = sortedIdx;
  const fn = <f64>n;
  let start = 0;
  while (start < n) {
    const key = getF64(keys, getI32(idx, start));
    let end = start + 1;
    while (end < n && getF64(keys, getI32(idx, end)) == key) end++;
    // positions start..end-1 (0-based) hold ranks start+1..end: their average is (start + 1 + end) / 2
    const rank = <f64>(start + 1 + end) * 0.5;
    const pr = (rank - 0.5) / fn;
    for (let p = start; p < end; p++) setF64(out, getI32(idx, p), pr);
    start = end;
  }
}

/** SPEC 5: Q(p) over `sorted` (ascending, length n), linear interpolation. */
export function quantile(sorted: usize, n: i32, p: f64): f64 {
  const pos = p * <f64>(n - 1);
  const lo = min<i32>(max<i32>(<i32>Math.floor(pos), 0), n - 1);
  const hi = min<i32>(lo + 1, n - 1);
  const xlo = getF64(sorted, lo);
  return xlo + (pos - <f64>lo) * (getF64(sorted, hi) - xlo);
}
