// SPEC 5 percentile ranks (average ranks for ties) and the linear-interpolation quantile.
// Task indices are sorted by an f64 key with a stable radix sort, so equal keys keep index order
// (-0 == +0; keys are never NaN).
import { gN } from './graph';
import { allocI32, getF64, getI32, setF64, setI32 } from './mem';

let sortA: usize = 0; // i32[N]
let sortB: usize = 0; // i32[N]
let radixKeyA: usize = 0; // u64[N]
let radixKeyB: usize = 0; // u64[N]
let radixCount: usize = 0; // i32[passes << bits]
/** Digit width: 8 bits (8 passes) for small pools, 16 bits (4 passes) from 65,536 tasks on. */
let radixBits: i32 = 8;
let radixBitsOverride: i32 = 0;

/** Test hook: digit width (8 or 16; 0 = by pool size) for graphs loaded afterwards. */
export function setRadixBits(bits: i32): void {
  radixBitsOverride = bits == 8 || bits == 16 ? bits : 0;
}
/** After sortByKey: the task indices in ascending key order (valid until the next sort). */
export let sortedIdx: usize = 0;

export function rankInitForGraph(): void {
  sortA = allocI32(gN);
  sortB = allocI32(gN);
  radixKeyA = heap.alloc(<usize>max<i32>(gN, 1) << 3);
  radixKeyB = heap.alloc(<usize>max<i32>(gN, 1) << 3);
  radixBits = radixBitsOverride > 0 ? radixBitsOverride : gN >= 65536 ? 16 : 8;
  radixCount = allocI32((64 / radixBits) << radixBits);
  sortedIdx = sortA;
}

/** Maps an f64 to a u64 whose unsigned order is the numeric order (-0 and +0 map alike). */
// @ts-ignore: decorator
@inline function orderedBits(x: f64): u64 {
  const bits = reinterpret<u64>(x + 0.0); // x + 0 turns -0 into +0
  return (bits >> 63) != 0 ? ~bits : bits | (<u64>1 << 63);
}

/**
 * Sorts 0..n-1 by keys[i] ascending, ties by index (keys are never NaN); result in `sortedIdx`.
 * LSD radix sort on the order-preserving bit pattern, 8 or 16 bits per pass: stable, O(N), no
 * data-dependent branches; passes where every key shares the byte are skipped.
 */
export function sortByKey(keys: usize, n: i32): void {
  const bits = radixBits;
  const passes = 64 / bits;
  const radix = 1 << bits;
  const mask = <u64>(radix - 1);
  memory.fill(radixCount, 0, <usize>(passes << bits) << 2);
  for (let i = 0; i < n; i++) {
    const b = orderedBits(getF64(keys, i));
    store<u64>(radixKeyA + (<usize>i << 3), b);
    setI32(sortA, i, i);
    for (let d = 0; d < passes; d++) {
      const slot = (d << bits) | <i32>((b >> (<u64>(d * bits))) & mask);
      setI32(radixCount, slot, getI32(radixCount, slot) + 1);
    }
  }
  let srcKey = radixKeyA;
  let dstKey = radixKeyB;
  let src = sortA;
  let dst = sortB;
  for (let d = 0; d < passes; d++) {
    const base = d << bits;
    // skip a digit every key shares
    let single = false;
    for (let v = 0; v < radix; v++) {
      const c = getI32(radixCount, base + v);
      if (c != 0) {
        single = c == n;
        break;
      }
    }
    if (single) continue;
    let sum = 0;
    for (let v = 0; v < radix; v++) {
      const c = getI32(radixCount, base + v);
      setI32(radixCount, base + v, sum);
      sum += c;
    }
    const shift = <u64>(d * bits);
    for (let k = 0; k < n; k++) {
      const b = load<u64>(srcKey + (<usize>k << 3));
      const slot = base + <i32>((b >> shift) & mask);
      const at = getI32(radixCount, slot);
      setI32(radixCount, slot, at + 1);
      store<u64>(dstKey + (<usize>at << 3), b);
      setI32(dst, at, getI32(src, k));
    }
    let t = srcKey;
    srcKey = dstKey;
    dstKey = t;
    t = src;
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
