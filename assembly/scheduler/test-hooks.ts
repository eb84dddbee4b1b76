// Test hooks and diagnostics: exported by the test build (assembly/test-build.ts ->
// build/envsched.test.wasm) only, never by the release module the site and the CLI ship.
import { setLargeGroup } from './batch';
import { gN, gReady } from './graph';
import { nbLastRebuilt } from './neighbours';
import { setRadixBits, setSortBudget, sortByKey, sortedIdx } from '../common/sort';

/** Coverage groups of more than n tasks are searched in q order (default 4096). */
export function sched_set_large_group(n: i32): void {
  setLargeGroup(n);
}

/** How many tasks had their neighbour lists rebuilt by the latest score. */
export function sched_neighbours_rebuilt(): i32 {
  return nbLastRebuilt;
}

/** Radix digit width (8 or 16, 0 = by pool size) for graphs loaded afterwards. */
export function sched_set_radix_bits(bits: i32): void {
  setRadixBits(bits);
}

/** Move budget of the sort's high-word fix-up (-1 = pool size; 0 = full passes whenever a run needs a move). */
export function sched_set_sort_budget(budget: i32): void {
  setSortBudget(budget);
}

/** Sorts n <= N f64 keys at keysPtr (SPEC 5 order: ascending, ties by index); returns the i32 order's pointer. */
export function sched_sort_keys(keysPtr: usize, n: i32): usize {
  if (!gReady || n < 0 || n > gN) abort('sort: n must be within the loaded pool size');
  sortByKey(keysPtr, n);
  return sortedIdx;
}
