// The simulator's window on the WASM module (build/envsched.wasm): typed exports and typed-array
// views over linear memory. Views are made on demand because any allocation may grow (and so
// detach) memory.buffer (STACK-NOTES). No node: imports: the browser worker uses this file too.

// The WebAssembly JS API, typed locally: the Node build's lib (ES2023 + @types/node 20) has no
// WebAssembly namespace, the browser build's DOM lib does; this shape fits both.
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export type WasmModule = object;
interface WebAssemblyApi {
  compile(bytes: ArrayBuffer | ArrayBufferView): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: Record<string, Record<string, unknown>>): Promise<{ exports: unknown }>;
}
const WA = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

/** The exports of assembly/common and assembly/sim that src/sim calls. Pointers are byte offsets. */
export interface SimWasmExports {
  memory: WasmMemory;
  mem_alloc(bytes: number): number;
  mem_reset(): void;
  rng_seed(seed: number, stream: number): void;
  rng_next_f64(): number;
  sim_bind(
    tasks: number, envs: number, families: number,
    taskEnv: number, gateOff: number, gateFam: number, gateDiff: number, gateChecks: number,
    taskInit: number, taskTotal: number, taskExploit: number,
    competence: number, familiarity: number, memo: number, scratch: number, params: number,
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
  base_mopps_update(alpha: number, beta: number, batch: number, n: number, K: number, rewards: number, lambda: number, alpha0: number, beta0: number): void;
  base_mopps_choose(alpha: number, beta: number, n: number, B: number, target: number, theta: number, key: number, cand: number, out: number, outKeys: number): number;
  base_dps_init(counts: number, belief: number, last: number, n: number): void;
  base_dps_predict(counts: number, belief: number, n: number, prior: number, predicted: number): void;
  base_dps_update(counts: number, belief: number, last: number, batch: number, n: number, K: number, rewards: number, decay: number): void;
  base_dps_choose(perm: number, n: number, m: number, B: number, predicted: number, cand: number, out: number, outKeys: number): number;
}

/** The module's only import (`env.abort`): an AssemblyScript assertion failure becomes an Error. */
function importsFor(getMemory: () => WasmMemory | undefined): Record<string, Record<string, unknown>> {
  return {
    env: {
      abort(msgPtr: number, filePtr: number, line: number, column: number) {
        const memory = getMemory();
        const read = (ptr: number) => {
          if (!memory || ptr === 0) return '?';
          const bytes = new Uint16Array(memory.buffer, ptr, new Uint32Array(memory.buffer, ptr - 4, 1)[0] >>> 1);
          return String.fromCharCode(...bytes);
        };
        throw new Error(`wasm abort: ${read(msgPtr)} at ${read(filePtr)}:${line}:${column}`);
      },
    },
  };
}

/** Instantiates a fresh module from its bytes or an already compiled module (each simulation owns one instance and its memory). */
export async function instantiateSimWasm(source: ArrayBuffer | ArrayBufferView | { module: WasmModule }): Promise<SimWasmExports> {
  let memory: WasmMemory | undefined;
  const module = 'module' in source ? source.module : await WA.compile(source);
  const instance = await WA.instantiate(module, importsFor(() => memory));
  const exports = instance.exports as unknown as SimWasmExports;
  memory = exports.memory;
  return exports;
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
