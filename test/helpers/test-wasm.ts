// The test build of the module (build/envsched.test.wasm, from assembly/test-build.ts): the release
// kernels with the same options, plus test hooks that force rarely taken paths. The release module
// the site and the CLI ship does not export these.
import type { EnvschedWasm } from '../../src/engine/wasm/loader.ts';
import { loadEnvschedWasmNode } from '../../src/engine/wasm/loader-node.ts';

export const TEST_WASM_URL = new URL('../../build/envsched.test.wasm', import.meta.url);

export interface TestHooks {
  /** Coverage groups larger than n tasks are searched in q order (default 4096). */
  sched_set_large_group(n: number): void;
  /** Tasks whose neighbour lists the latest score rebuilt (N after a full rebuild). */
  sched_neighbours_rebuilt(): number;
  /** Radix digit width (8 or 16; 0 = by pool size) for graphs loaded afterwards. */
  sched_set_radix_bits(bits: number): void;
  /** Move budget of the sort's high-word fix-up (-1 = pool size; 0 = full passes on any unordered run). */
  sched_set_sort_budget(budget: number): void;
  /** Sorts n <= N f64 keys at keysPtr (ascending, ties by index); returns a pointer to the i32 order. */
  sched_sort_keys(keysPtr: number, n: number): number;
}

export const TEST_HOOK_NAMES: readonly (keyof TestHooks)[] = [
  'sched_set_large_group',
  'sched_neighbours_rebuilt',
  'sched_set_radix_bits',
  'sched_set_sort_budget',
  'sched_sort_keys',
];

export interface TestWasm extends EnvschedWasm {
  hooks: TestHooks;
}

export async function loadTestWasm(): Promise<TestWasm> {
  const wasm = await loadEnvschedWasmNode(TEST_WASM_URL);
  const exports = wasm.exports as Record<string, unknown>;
  for (const name of TEST_HOOK_NAMES) {
    if (typeof exports[name] !== 'function')
      throw new Error(`envsched.test.wasm: missing test hook ${name} (rebuild with npm run build:wasm)`);
  }
  return { ...wasm, hooks: wasm.exports as unknown as TestHooks };
}
