// The kernels' stable radix sort (assembly/common/sort.ts), which orders every SPEC 5 ranking
// and quantile: ascending, -0 == +0, ties by lower index. It sorts on the high 32 bits first and
// fixes runs of equal high words; these keys force long unordered runs, ties and sign changes, and
// both the fix-up and its full-pass fallback (budget 0), at 8- and 16-bit digits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackedGraph } from '../src/engine/types.ts';
import { WasmScheduler } from '../src/engine/wasm/scheduler.ts';
import { mulberry32 } from '../src/util/mulberry32.ts';
import { loadTestWasm, type TestHooks } from './helpers/test-wasm.ts';

const N = 4000;
let scheduler: WasmScheduler;
let hooks: TestHooks;

/** N tasks in environments of two (each task's within list is its partner), no cross lists. */
function pairsGraph(n: number): PackedGraph {
  const empty = { offsets: new Int32Array(n + 1), index: new Int32Array(0), sim: new Float64Array(0) };
  return {
    nTasks: n,
    nEnvs: n / 2,
    nCategories: 1,
    taskEnv: Int32Array.from({ length: n }, (_, i) => i >> 1),
    envCategory: new Int32Array(n / 2),
    within: {
      offsets: Int32Array.from({ length: n + 1 }, (_, i) => i),
      index: Int32Array.from({ length: n }, (_, i) => i ^ 1),
      sim: new Float64Array(n).fill(0.5),
    },
    cross: empty,
    fullCross: { ...empty, offsets: new Int32Array(n + 1) },
  };
}

const rng = mulberry32;

function keysOf(kind: number, n: number, next: () => number): Float64Array {
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = next();
    if (kind === 0)
      keys[i] = 0.1 + Math.floor(u * 5000) * 1e-17; // one high word, unordered low words
    else if (kind === 1)
      keys[i] = u < 0.5 ? 0.1 + Math.floor(u * 50) * 1e-17 : Math.floor(u * 8) / 32; // short runs and ties
    else if (kind === 2) keys[i] = u < 0.3 ? (u < 0.15 ? -0 : 0) : (u - 0.6) * Math.pow(2, Math.floor(next() * 60) - 30);
    else if (kind === 3)
      keys[i] = -0.25 - Math.floor(u * 3000) * 5e-17; // negative, one high word
    else keys[i] = u * 0.25;
  }
  return keys;
}

function expectedOrder(keys: Float64Array): number[] {
  const idx = Array.from({ length: keys.length }, (_, i) => i);
  return idx.sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
}

beforeAll(async () => {
  const wasm = await loadTestWasm();
  scheduler = new WasmScheduler(wasm);
  hooks = wasm.hooks;
});

afterAll(() => {
  hooks.sched_set_sort_budget(-1);
  hooks.sched_set_radix_bits(0);
});

describe('radix sort of the kernels', () => {
  it('orders keys ascending with ties by index, on every path', () => {
    const wasm = scheduler.wasm.exports;
    const next = rng(99);
    let cases = 0;
    for (const bits of [8, 16]) {
      hooks.sched_set_radix_bits(bits);
      scheduler.loadGraph(
        pairsGraph(N),
        Array.from({ length: N }, (_, i) => `t${i}`),
      );
      const ptr = wasm.mem_alloc(N * 8);
      for (const budget of [-1, 0, 40]) {
        hooks.sched_set_sort_budget(budget);
        for (let kind = 0; kind < 5; kind++) {
          for (const n of [1, 2, 17, 300, N]) {
            const keys = keysOf(kind, n, next);
            new Float64Array(wasm.memory.buffer, ptr, n).set(keys);
            const out = hooks.sched_sort_keys(ptr, n);
            expect(Array.from(new Int32Array(wasm.memory.buffer, out, n)), `bits ${bits} budget ${budget} kind ${kind} n ${n}`).toEqual(
              expectedOrder(keys),
            );
            cases++;
          }
        }
      }
    }
    expect(cases).toBe(150);
  });
});
