// The simulator's window on the WASM module (build/envsched.wasm): typed exports and typed-array
// views over linear memory. Views are made on demand because any allocation may grow (and so
// detach) memory.buffer. No node: imports: the browser worker uses this file too.

import { instantiateEnvsched } from '../engine/wasm/loader.ts';

/** The exports of assembly/common and assembly/sim that src/sim calls. Pointers are byte offsets. */
export interface SimWasmExports {
  memory: WebAssembly.Memory;
  mem_alloc(bytes: number): number;
  mem_reset(): void;
  rng_seed(seed: number, stream: number): void;
  rng_next_f64(): number;
  sim_bind(
    tasks: number,
    envs: number,
    families: number,
    taskEnv: number,
    gateOff: number,
    gateFam: number,
    gateDiff: number,
    gateChecks: number,
    taskInit: number,
    taskTotal: number,
    taskExploit: number,
    competence: number,
    familiarity: number,
    memo: number,
    scratch: number,
    params: number,
    practice: number,
  ): void;
  sim_expect(first: number, count: number, K: number, honest: number, outMean: number, outVar: number): void;
  sim_rollout(batch: number, n: number, K: number, rewards: number, flags: number, honest: number): void;
  sim_learn(batch: number, n: number, K: number, rewards: number): void;
  sim_hash_reset(): void;
  sim_hash_bytes(ptr: number, len: number): void;
  sim_hash_hi(): number;
  sim_hash_lo(): number;
  base_perm_init(perm: number, n: number): void;
  base_random_choose(perm: number, n: number, m: number, out: number): void;
  base_beta_sample(a: number, b: number): number;
  base_mopps_update(
    alpha: number,
    beta: number,
    batch: number,
    n: number,
    K: number,
    rewards: number,
    lambda: number,
    alpha0: number,
    beta0: number,
  ): void;
  base_mopps_choose(
    alpha: number,
    beta: number,
    n: number,
    B: number,
    target: number,
    theta: number,
    key: number,
    cand: number,
    out: number,
    outKeys: number,
  ): number;
  base_dps_init(counts: number, belief: number, last: number, n: number): void;
  base_dps_predict(counts: number, belief: number, n: number, prior: number, predicted: number): void;
  base_dps_update(counts: number, belief: number, last: number, batch: number, n: number, K: number, rewards: number, decay: number): void;
  base_dps_choose(perm: number, n: number, m: number, B: number, predicted: number, cand: number, out: number, outKeys: number): number;
  meter_reserve(n: number): void;
  /** 0: out holds [Q(p), correlation, correlation undefined]; 1: declined (NaN, -0 in the truth, n out of range). */
  meter_judge(truth: number, predicted: number, n: number, p: number, trueRanks: number, predictedRanks: number, out: number): number;
}

/**
 * Instantiates a fresh module from its bytes or an already compiled module (each simulation owns
 * one instance and its memory). The engine's loader supplies the `env.abort` import.
 */
export async function instantiateSimWasm(source: BufferSource | { module: WebAssembly.Module }): Promise<SimWasmExports> {
  const { exports } = await instantiateEnvsched('module' in source ? source.module : source);
  return exports as unknown as SimWasmExports;
}

/** A bump-allocated region of WASM memory with typed-array views made on demand. */
export class WasmHeap {
  constructor(readonly wasm: SimWasmExports) {}

  alloc(bytes: number): number {
    return this.wasm.mem_alloc(Math.max(8, bytes));
  }
  allocF64(count: number): number {
    return this.alloc(count * 8);
  }
  allocI32(count: number): number {
    return this.alloc(count * 4);
  }
  f64(ptr: number, count: number): Float64Array {
    return new Float64Array(this.wasm.memory.buffer, ptr, count);
  }
  i32(ptr: number, count: number): Int32Array {
    return new Int32Array(this.wasm.memory.buffer, ptr, count);
  }
  u8(ptr: number, count: number): Uint8Array {
    return new Uint8Array(this.wasm.memory.buffer, ptr, count);
  }
}
