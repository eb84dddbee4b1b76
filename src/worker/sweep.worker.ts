// The sweep worker: runs whole simulations for the browser's sweep pool
// (src/ui/sweep/browser-pool.ts), one request at a time, each on a fresh instance of the same WASM
// module as the engine worker. Same code path as the Node pool (src/sweep/point.ts), so a point
// here has the fingerprint `envsched simulate` prints for its configuration and seed.
import * as Comlink from 'comlink';
import { decodeGraphBytes } from '../engine/graph-bytes.ts';
import type { LoadedGraph } from '../engine/types.ts';
import { compileEnvschedFromUrl, instantiateEnvsched } from '../engine/wasm/index.ts';
import { instantiateSimWasm } from '../sim/wasm.ts';
import { runPoint, type PointRun, type RunRequest } from '../sweep/point.ts';
import { failureOf, fetchBundledGraph, type Failure } from './host.ts';

export type SweepWorkerReply = { ok: true; run: PointRun } | Failure;

export interface SweepWorkerApi {
  /** Compiles the WASM module; `base` is the site's base URL (bundled datasets are fetched relative to it). */
  init(wasmUrl: string, base: string): Promise<void>;
  /** Registers an imported graph file under a dataset name (runs naming it use these bytes). */
  useGraph(name: string, bytes: Uint8Array, fileName: string): Promise<void>;
  run(request: RunRequest): Promise<SweepWorkerReply>;
}

let module: WebAssembly.Module | null = null;
let base = '';
const graphs = new Map<string, Promise<{ loaded: LoadedGraph; source: string }>>();

const api: SweepWorkerApi = {
  async init(wasmUrl, baseUrl) {
    base = baseUrl;
    if (module) return;
    module = await compileEnvschedFromUrl(wasmUrl);
  },

  async useGraph(name, bytes, fileName) {
    graphs.set(name, Promise.resolve({ loaded: decodeGraphBytes(bytes, fileName), source: fileName }));
  },

  async run(request) {
    try {
      if (!module) throw new Error('sweep worker not initialised');
      const name = request.config.dataset;
      let graph = graphs.get(name);
      if (!graph) {
        graph = fetchBundledGraph(base, name);
        graphs.set(name, graph);
        graph.catch(() => graphs.delete(name));
      }
      const { loaded, source } = await graph;
      const sim = await instantiateSimWasm({ module });
      const wasm = { sim, scheduler: await instantiateEnvsched(module) };
      return { ok: true, run: runPoint(wasm, loaded, request, source) };
    } catch (error) {
      // A fault only loses this run: the next one starts on a fresh instance.
      return failureOf(error, 'sweep');
    }
  },
};

Comlink.expose(api);
