// The WASM scheduler next to the TypeScript reference, set up so that the two agree to the bit:
// the reference runs on the module's own exp / pow / log while the tests of a file run.
import { afterAll, beforeAll } from 'vitest';
import { nativeMathOf, type EnvschedWasm } from '../../src/engine/wasm/loader.ts';
import { loadEnvschedWasmNode } from '../../src/engine/wasm/loader-node.ts';
import { WasmScheduler } from '../../src/engine/wasm/scheduler.ts';
import { useScalarMath } from '../../src/reference/math.ts';

export interface WasmOracle {
  readonly wasm: EnvschedWasm;
  readonly scheduler: WasmScheduler;
}

/** Registers the file's beforeAll / afterAll hooks; the fields are ready inside tests. */
export function wasmOracle(): WasmOracle {
  let wasm: EnvschedWasm | undefined;
  let scheduler: WasmScheduler | undefined;
  beforeAll(async () => {
    wasm = await loadEnvschedWasmNode();
    scheduler = new WasmScheduler(wasm);
    useScalarMath(nativeMathOf(wasm));
  });
  afterAll(() => useScalarMath(null));
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('wasmOracle() is used before its beforeAll hook ran');
    return value;
  };
  return {
    get wasm() {
      return ready(wasm);
    },
    get scheduler() {
      return ready(scheduler);
    },
  };
}
