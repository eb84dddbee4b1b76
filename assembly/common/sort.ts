// The stable radix sort of f64 keys shared by the scheduler's ranks (SPEC 5) and the simulator's
// step meter: indices 0..n-1 in ascending key order, equal keys in index order (-0 == +0; keys are
// never NaN). One sort workspace per instance, sized by sortReserve (an instance plays one role:
// the scheduler's, sized by its pool, or the simulator's).

// @ts-ignore: decorator
@inline function getI32(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}
// @ts-ignore: decorator
@inline function setI32(base: usize, i: i32, value: i32): void {
  store<i32>(base + (<usize>i << 2), value);
}
// @ts-ignore: decorator
@inline function getF64(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}
function allocI32(n: i32): usize {
  const bytes = <usize>max<i32>(n, 1) << 2;
  const ptr = heap.alloc(bytes);
  memory.fill(ptr, 0, bytes);
  return ptr;
}

let sortA: usize = 0; // i32[N]
let sortB: usize = 0; // i32[N]
let radixKeyA: usize = 0; // u64[N]
let radixKeyB: usize = 0; // u64[N]
let radixCount: usize = 0; // i32[passes << bits]
let radixLow: usize = 0; // u32[N]: low words of the keys, by index (8-bit path)
/** Digit width: 8 bits (8 passes) for small pools, 16 bits (4 passes) from 65,536 tasks on. */
let radixBits: i32 = 8;
let radixBitsOverride: i32 = 0;
/** Keys the workspace holds (sortReserve). */
export let sortCapacity: i32 = 0;

/** Test hook: digit width (8 or 16; 0 = by size) for workspaces reserved afterwards. */
export function setRadixBits(bits: i32): void {
  radixBitsOverride = bits == 8 || bits == 16 ? bits : 0;
}
/** Test hook: move budget of the high-word run fix-up (-1 = n; 0 = restart on any unordered run). */
let sortBudgetOverride: i32 = -1;
export function setSortBudget(budget: i32): void {
  sortBudgetOverride = budget;
}
/** After sortByKey: the task indices in ascending key order (valid until the next sort). */
export let sortedIdx: usize = 0;

/** Sizes the workspace for sorts of up to n keys (after the heap was reset: the old one is gone). */
export function sortReserve(n: i32): void {
  sortA = allocI32(n);
  sortB = allocI32(n);
  radixKeyA = heap.alloc(<usize>max<i32>(n, 1) << 3);
  radixKeyB = heap.alloc(<usize>max<i32>(n, 1) << 3);
  radixBits = radixBitsOverride > 0 ? radixBitsOverride : n >= 65536 ? 16 : 8;
  radixCount = allocI32((64 / radixBits) << radixBits);
  radixLow = allocI32(max<i32>(n, 1));
  sortedIdx = sortA;
  sortCapacity = n;
}

/** Maps an f64 to a u64 whose unsigned order is the numeric order (-0 and +0 map alike). */
// @ts-ignore: decorator
@inline function orderedBits(x: f64): u64 {
  const bits = reinterpret<u64>(x + 0.0); // x + 0 turns -0 into +0
  return (bits >> 63) != 0 ? ~bits : bits | (<u64>1 << 63);
}

/**
 * Sorts 0..n-1 by keys[i] ascending, ties by index (keys are never NaN); result in `sortedIdx`.
 * LSD radix sort on the order-preserving bit pattern, 8 or 16 bits per pass: stable, O(N).
 *
 * Most keys already differ in their high 32 bits (sign, exponent, 20 mantissa bits), so the
 * passes run over the high word only (half the passes), then each run of equal high words is put
 * in full-key order by a stable insertion sort. Equal keys (ties: thousands of never-observed
 * tasks share one score) are already in order and cost one comparison each. If the runs need more
 * than n moves in all (many near-equal keys), the sort restarts with every pass. Both paths give
 * the one stable order, so the result never depends on which ran.
 */
export function sortByKey(keys: usize, n: i32): void {
  if (radixBits == 8 && sortHighPacked(keys, n)) return;
  for (let i = 0; i < n; i++) {
    store<u64>(radixKeyA + (<usize>i << 3), orderedBits(getF64(keys, i)));
    setI32(sortA, i, i);
  }
  const passes = 64 / radixBits;
  lsdPasses(n, passes >> 1, passes);
  if (fixHighWordRuns(n)) return;
  for (let i = 0; i < n; i++) {
    store<u64>(radixKeyA + (<usize>i << 3), orderedBits(getF64(keys, i)));
    setI32(sortA, i, i);
  }
  lsdPasses(n, 0, passes);
}

/**
 * The 8-bit-digit path (pools below 65,536 tasks, so an index fits the low word): each element is
 * one u64, the key's high word over the index, so a pass moves 8 bytes instead of 12; the low
 * words wait by index in radixLow for the fix-up of equal-high-word runs (as fixHighWordRuns:
 * stable insertion sort, at most n moves). Returns false, leaving nothing usable, when the budget
 * ran out (sortByKey then sorts on every digit).
 */
function sortHighPacked(keys: usize, n: i32): bool {
  for (let i = 0; i < n; i++) {
    const b = orderedBits(getF64(keys, i));
    store<u64>(radixKeyA + (<usize>i << 3), (b & 0xFFFFFFFF00000000) | <u64>i);
    store<u32>(radixLow + (<usize>i << 2), <u32>b);
  }
  const c4 = radixCount + (<usize>(4 << 8) << 2);
  memory.fill(c4, 0, <usize>(4 << 8) << 2);
  for (let i = 0; i < n; i++) {
    const h = <u32>(load<u64>(radixKeyA + (<usize>i << 3)) >> 32);
    const a0 = c4 + (<usize>(h & 255) << 2);
    store<i32>(a0, load<i32>(a0) + 1);
    const a1 = c4 + (<usize>(256 | ((h >> 8) & 255)) << 2);
    store<i32>(a1, load<i32>(a1) + 1);
    const a2 = c4 + (<usize>(512 | ((h >> 16) & 255)) << 2);
    store<i32>(a2, load<i32>(a2) + 1);
    const a3 = c4 + (<usize>(768 | (h >> 24)) << 2);
    store<i32>(a3, load<i32>(a3) + 1);
  }
  let src = radixKeyA;
  let dst = radixKeyB;
  for (let d = 0; d < 4; d++) {
    const cnt = c4 + (<usize>(d << 8) << 2);
    let single = false;
    for (let v = 0; v < 256; v++) {
      const c = load<i32>(cnt + (<usize>v << 2));
      if (c != 0) {
        single = c == n;
        break;
      }
    }
    if (single) continue;
    let sum = 0;
    for (let v = 0; v < 256; v++) {
      const at = cnt + (<usize>v << 2);
      const c = load<i32>(at);
      store<i32>(at, sum);
      sum += c;
    }
    const shift = <u64>(32 + d * 8);
    for (let k = 0; k < n; k++) {
      const b = load<u64>(src + (<usize>k << 3));
      const at = cnt + (<usize>(<i32>((b >> shift) & 255)) << 2);
      const to = load<i32>(at);
      store<i32>(at, to + 1);
      store<u64>(dst + (<usize>to << 3), b);
    }
    const t = src;
    src = dst;
    dst = t;
  }
  const idx = sortA;
  for (let p = 0; p < n; p++) setI32(idx, p, <i32>(<u32>load<u64>(src + (<usize>p << 3))));
  sortedIdx = idx;
  // runs of equal high words, by the low word
  let budget = sortBudgetOverride >= 0 ? sortBudgetOverride : n;
  let first = 0;
  while (first < n) {
    const hi = load<u64>(src + (<usize>first << 3)) >> 32;
    let end = first + 1;
    let ordered = true;
    let prev = load<u32>(radixLow + (<usize>getI32(idx, first) << 2));
    while (end < n) {
      if (load<u64>(src + (<usize>end << 3)) >> 32 != hi) break;
      const l = load<u32>(radixLow + (<usize>getI32(idx, end) << 2));
      if (l < prev) ordered = false;
      prev = l;
      end++;
    }
    if (!ordered) {
      for (let a = first + 1; a < end; a++) {
        const id = getI32(idx, a);
        const l = load<u32>(radixLow + (<usize>id << 2));
        let c = a - 1;
        while (c >= first && load<u32>(radixLow + (<usize>getI32(idx, c) << 2)) > l) {
          setI32(idx, c + 1, getI32(idx, c));
          c--;
          if (--budget < 0) return false;
        }
        setI32(idx, c + 1, id);
      }
    }
    first = end;
  }
  return true;
}

let radixSrcKey: usize = 0;

/**
 * Stable LSD passes [from, to) over the keys in radixKeyA (order sortA); leaves the order in
 * `sortedIdx` and its keys in `radixSrcKey`. Passes where every key shares the digit are skipped.
 */
function lsdPasses(n: i32, from: i32, to: i32): void {
  const bits = radixBits;
  const radix = 1 << bits;
  const mask = <u64>(radix - 1);
  memory.fill(radixCount + (<usize>(from << bits) << 2), 0, <usize>((to - from) << bits) << 2);
  for (let i = 0; i < n; i++) {
    const b = load<u64>(radixKeyA + (<usize>i << 3));
    for (let d = from; d < to; d++) {
      const slot = (d << bits) | <i32>((b >> (<u64>(d * bits))) & mask);
      setI32(radixCount, slot, getI32(radixCount, slot) + 1);
    }
  }
  let srcKey = radixKeyA;
  let dstKey = radixKeyB;
  let src = sortA;
  let dst = sortB;
  for (let d = from; d < to; d++) {
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
  radixSrcKey = srcKey;
}

/**
 * After high-word passes: orders each run of equal high words by the full key (stable insertion
 * sort, at most n moves in all). Returns false, leaving the order unusable, when the budget ran out.
 */
function fixHighWordRuns(n: i32): bool {
  const keysAt = radixSrcKey;
  const idx = sortedIdx;
  let budget = sortBudgetOverride >= 0 ? sortBudgetOverride : n;
  let first = 0;
  while (first < n) {
    const hi = load<u64>(keysAt + (<usize>first << 3)) >> 32;
    let end = first + 1;
    let ordered = true;
    let prev = load<u64>(keysAt + (<usize>first << 3));
    while (end < n) {
      const b = load<u64>(keysAt + (<usize>end << 3));
      if (b >> 32 != hi) break;
      if (b < prev) ordered = false;
      prev = b;
      end++;
    }
    if (!ordered) {
      for (let a = first + 1; a < end; a++) {
        const b = load<u64>(keysAt + (<usize>a << 3));
        const id = getI32(idx, a);
        let c = a - 1;
        while (c >= first && load<u64>(keysAt + (<usize>c << 3)) > b) {
          store<u64>(keysAt + (<usize>(c + 1) << 3), load<u64>(keysAt + (<usize>c << 3)));
          setI32(idx, c + 1, getI32(idx, c));
          c--;
          if (--budget < 0) return false;
        }
        store<u64>(keysAt + (<usize>(c + 1) << 3), b);
        setI32(idx, c + 1, id);
      }
    }
    first = end;
  }
  return true;
}
