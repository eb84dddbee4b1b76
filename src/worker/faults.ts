// Fault injection for the faults e2e test (docs/reliability.md, "Faults in the app"): real faults,
// armed from the page's debug handle and fired in the engine worker's next run or graph import.
// Built into test bundles only (VITE_ENVSCHED_TEST_HOOKS=1): see engine.worker.ts.
import { instantiateEnvsched } from '../engine/wasm/index.ts';
import type { FaultKind } from './api.ts';

export interface Faults {
  arm(kind: FaultKind): void;
  /** Makes the armed fault happen for real: a WASM trap, a WASM abort, WASM memory exhaustion, an endless loop, or an uncaught error. */
  fire(): Promise<void>;
}

export function createFaults(module: () => WebAssembly.Module | null): Faults {
  let armed: FaultKind | null = null;
  return {
    arm(kind) {
      armed = kind;
    },
    async fire() {
      const kind = armed;
      if (kind === null) return;
      armed = null;
      if (kind === 'hang') for (;;); // never returns: only the page's heartbeat notices
      if (kind === 'crash') {
        // Thrown outside any comlink call: the page sees the worker's 'error' event.
        setTimeout(() => {
          throw new Error('deliberate crash (test hook)');
        });
        return new Promise<never>(() => {}); // a crashed worker finishes nothing
      }
      const compiled = module();
      if (!compiled) throw new Error('engine not initialised');
      const wasm = await instantiateEnvsched(compiled);
      const raw = wasm.instance.exports as unknown as { rng_restore(ptr: number): void };
      if (kind === 'trap') raw.rng_restore(0xfffffff0); // RuntimeError: memory access out of bounds
      if (kind === 'abort') wasm.exports.mem_alloc(0xfffffff0); // the stub runtime aborts: allocation too large
      if (kind === 'oom') {
        // Grow the linear memory half a GiB at a time until the browser refuses (the stub runtime then
        // traps with `unreachable`) or mem_alloc reaches 4 GiB; this loop knows either means "out of memory".
        try {
          for (;;) wasm.exports.mem_alloc(0x20000000);
        } catch (error) {
          const mib = Math.round(wasm.memory.buffer.byteLength / 1048576);
          throw new RangeError(`out of memory: WebAssembly memory could not grow beyond ${mib} MiB (${(error as Error).message})`);
        }
      }
    },
  };
}
