// The sweep worker: runs whole simulations for the browser's sweep pool
// (src/ui/sweep/browser-pool.ts), one request at a time, each on a fresh instance of the same WASM
// module as the engine worker. Same code path as the Node pool (src/sweep/point.ts), so a point
// here has the fingerprint `envsched simulate` prints for its configuration and seed.
import * as Comlink from 'comlink';
import { isInputError } from '../engine/errors.ts';
import { decodeGraphBinary } from '../engine/graph-binary.ts';
import { loadGraphJson } from '../engine/graph-json.ts';
import type { LoadedGraph } from '../engine/types.ts';
import { compileEnvschedFromUrl, instantiateEnvsched } from '../engine/wasm/index.ts';
import { instantiateSimWasm } from '../sim/wasm.ts';
import { runPoint, type PointRun, type RunRequest } from '../sweep/point.ts';

export type SweepWorkerReply =
  | { ok: true; run: PointRun }
  | { ok: false; input: { source: string; place: string; problem: string } | null; message: string };

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

function decode(bytes: Uint8Array, fileName: string): LoadedGraph {
  // A binary graph starts with "ESGB"; anything else is read as JSON text (as in the engine worker).
  const isBinary = bytes.length >= 4 && bytes[0] === 0x45 && bytes[1] === 0x53 && bytes[2] === 0x47 && bytes[3] === 0x42;
  return isBinary ? decodeGraphBinary(bytes, fileName) : loadGraphJson(new TextDecoder().decode(bytes), fileName);
}

async function fetchBundled(name: string): Promise<{ loaded: LoadedGraph; source: string }> {
  const response = await fetch(new URL('datasets/catalog.json', base));
  const catalog = response.ok ? ((await response.json()) as { datasets: { name: string; file: string }[] }) : { datasets: [] };
  const entry = catalog.datasets.find((d) => d.name === name);
  if (!entry) throw new Error(`url:dataset: no bundled dataset named ${JSON.stringify(name)}`);
  const file = await fetch(new URL(`datasets/${entry.file}`, base));
  if (!file.ok) throw new Error(`datasets/${entry.file}: HTTP ${file.status}`);
  return { loaded: decode(new Uint8Array(await file.arrayBuffer()), entry.file), source: entry.file };
}

const api: SweepWorkerApi = {
  async init(wasmUrl, baseUrl) {
    base = baseUrl;
    if (module) return;
    module = await compileEnvschedFromUrl(wasmUrl);
  },

  async useGraph(name, bytes, fileName) {
    graphs.set(name, Promise.resolve({ loaded: decode(bytes, fileName), source: fileName }));
  },

  async run(request) {
    try {
      if (!module) throw new Error('sweep worker not initialised');
      const name = request.config.dataset;
      let graph = graphs.get(name);
      if (!graph) {
        graph = fetchBundled(name);
        graphs.set(name, graph);
        graph.catch(() => graphs.delete(name));
      }
      const { loaded, source } = await graph;
      const sim = await instantiateSimWasm({ module });
      const wasm = { sim, scheduler: await instantiateEnvsched(module) };
      return { ok: true, run: runPoint(wasm, loaded, request.config, source) };
    } catch (error) {
      if (isInputError(error)) return { ok: false, input: { source: error.source, place: error.place, problem: error.problem }, message: error.message };
      return { ok: false, input: null, message: error instanceof Error ? error.message : String(error) };
    }
  },
};

Comlink.expose(api);
