// Node-only: reads the release build (build/envsched.wasm). The same relative path works from
// src/engine/wasm (tests, vitest) and dist/engine/wasm (tsc output, the installed package).
import { readFile } from 'node:fs/promises';
import { instantiateEnvsched, type EnvschedWasm } from './loader.ts';

export const ENVSCHED_WASM_URL = new URL('../../../build/envsched.wasm', import.meta.url);

const compiled = new Map<string, Promise<WebAssembly.Module>>();

/** The compiled release module, compiled once per process. */
export function compileEnvschedNode(url: URL = ENVSCHED_WASM_URL): Promise<WebAssembly.Module> {
  let module = compiled.get(url.href);
  if (!module) {
    module = readFile(url).then(
      (bytes) => WebAssembly.compile(bytes),
      (error: Error) => {
        throw new Error(`cannot read ${url.pathname} (run npm run build:wasm): ${error.message}`);
      },
    );
    compiled.set(url.href, module);
  }
  return module;
}

/** A fresh instance of the release module. */
export async function loadEnvschedWasmNode(url: URL = ENVSCHED_WASM_URL): Promise<EnvschedWasm> {
  return instantiateEnvsched(await compileEnvschedNode(url));
}
