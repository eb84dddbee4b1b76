// Node-only: reads the release build (build/envsched.wasm). The same relative path works from
// src/engine/wasm (tests, vitest) and dist/engine/wasm (tsc output).
import { readFile } from 'node:fs/promises';
import { instantiateEnvsched, type EnvschedWasm } from './loader.ts';

export const ENVSCHED_WASM_URL = new URL('../../../build/envsched.wasm', import.meta.url);

export async function loadEnvschedWasmNode(url: URL = ENVSCHED_WASM_URL): Promise<EnvschedWasm> {
  let bytes: Buffer;
  try {
    bytes = await readFile(url);
  } catch (error) {
    throw new Error(`cannot read ${url.pathname} (run npm run build:wasm): ${(error as Error).message}`);
  }
  return instantiateEnvsched(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
