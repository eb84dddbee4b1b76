// Node-only: reads build/envsched.wasm from the project (src/sim/ or dist/sim/ -> ../../build/).
import { readFileSync } from 'node:fs';
import { instantiateEnvsched } from '../engine/wasm/index.ts';
import type { RunWasm } from './run.ts';
import { instantiateSimWasm, type SimWasmExports } from './wasm.ts';

let compiled: WebAssembly.Module | undefined;

export function wasmPath(): URL {
  return new URL('../../build/envsched.wasm', import.meta.url);
}

/** A fresh instance of the release module (compiled once per process). */
export async function loadSimWasmNode(): Promise<SimWasmExports> {
  compiled ??= await WebAssembly.compile(readFileSync(wasmPath()));
  return instantiateSimWasm({ module: compiled });
}

/** Fresh simulator and scheduler instances of the release module, for one run. */
export async function loadRunWasmNode(): Promise<RunWasm> {
  const sim = await loadSimWasmNode();
  return { sim, scheduler: await instantiateEnvsched(compiled as WebAssembly.Module) };
}
