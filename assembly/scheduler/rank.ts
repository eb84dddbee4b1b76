// SPEC 5 percentile ranks (average ranks for ties) and the linear-interpolation quantile, over the
// stable sort of assembly/common/sort.ts (equal keys keep index order).
import { sortByKey, sortedIdx, sortReserve } from '../common/sort';
import { gN } from './graph';
import { getF64, getI32, setF64 } from './mem';

export function rankInitForGraph(): void {
  sortReserve(gN);
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
