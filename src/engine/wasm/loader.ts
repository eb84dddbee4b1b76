// Instantiates build/envsched.wasm from bytes or a compiled module (browser and Node alike).
// The module's only import is env.abort, which becomes a JS Error carrying the decoded message.
import { asEnvschedExports, type EnvschedExports } from './exports.ts';

export interface EnvschedWasm {
  instance: WebAssembly.Instance;
  exports: EnvschedExports;
  memory: WebAssembly.Memory;
}

/** Thrown when a kernel aborts (bad input that slipped past the parsers, or a bug). */
export class WasmAbort extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message}${file ? ` (${file}:${line}:${column})` : ''}`);
    this.name = 'WasmAbort';
  }
}

/** Reads an AssemblyScript string: UTF-16LE code units, byte length stored at ptr - 4. */
export function readAsString(memory: WebAssembly.Memory, ptr: number): string {
  if (!ptr) return '';
  const buffer = memory.buffer;
  if (ptr < 4 || ptr > buffer.byteLength) return `<string at ${ptr}>`;
  const bytes = new Uint32Array(buffer, ptr - 4, 1)[0] ?? 0;
  const units = Math.min(bytes >>> 1, (buffer.byteLength - ptr) >>> 1);
  const codes = new Uint16Array(buffer, ptr, units);
  let out = '';
  for (let k = 0; k < codes.length; k += 4096) out += String.fromCharCode(...codes.subarray(k, k + 4096));
  return out;
}

export async function instantiateEnvsched(source: BufferSource | WebAssembly.Module): Promise<EnvschedWasm> {
  let memory: WebAssembly.Memory | null = null;
  const imports = {
    env: {
      abort(msgPtr: number, filePtr: number, line: number, column: number): never {
        const message = memory ? readAsString(memory, msgPtr) : 'abort';
        const file = memory ? readAsString(memory, filePtr) : '';
        throw new WasmAbort(message || 'abort', file, line, column);
      },
    },
  };
  const instance =
    source instanceof WebAssembly.Module
      ? await WebAssembly.instantiate(source, imports)
      : (await WebAssembly.instantiate(source, imports)).instance;
  const exports = asEnvschedExports(instance.exports);
  memory = exports.memory;
  return { instance, exports, memory };
}

/**
 * The module's own exp / pow / log (AssemblyScript NativeMath). The TypeScript reference takes
 * these as its `math` parameter wherever it must agree with the kernels to the bit: property tests
 * and the app's inspector.
 */
export function nativeMathOf(wasm: EnvschedWasm): { exp(x: number): number; pow(x: number, y: number): number; log(x: number): number } {
  const x = wasm.exports;
  return { exp: (v) => x.sched_math_exp(v), pow: (a, b) => x.sched_math_pow(a, b), log: (v) => x.sched_math_log(v) };
}

/** Fetches and compiles the module once per worker (browser); the caller instantiates per run. */
export async function compileEnvschedFromUrl(url: string): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot fetch ${url}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}
