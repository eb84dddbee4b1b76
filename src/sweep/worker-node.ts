// Node worker thread of the sweep pool (pool-node.ts): runs whole simulations on request, one at a
// time, each on a fresh instance of the same release WASM as `envsched simulate`. Datasets are
// loaded once per worker.
import { parentPort } from 'node:worker_threads';
import { isInputError } from '../engine/errors.ts';
import type { LoadedGraph } from '../engine/types.ts';
import { loadDataset } from '../sim/dataset-node.ts';
import { loadRunWasmNode } from '../sim/wasm-node.ts';
import { runPoint, type PointRun, type RunRequest } from './point.ts';

export interface WorkerRequest {
  id: number;
  request: RunRequest;
}

export type WorkerReply =
  | { id: number; ok: true; run: PointRun }
  | { id: number; ok: false; input: { source: string; place: string; problem: string } | null; message: string };

const datasets = new Map<string, Promise<{ loaded: LoadedGraph; source: string }>>();

async function handle({ id, request }: WorkerRequest): Promise<WorkerReply> {
  try {
    const name = request.config.dataset;
    let dataset = datasets.get(name);
    if (!dataset) datasets.set(name, (dataset = loadDataset(name)));
    const { loaded, source } = await dataset;
    return { id, ok: true, run: runPoint(await loadRunWasmNode(), loaded, request, source) };
  } catch (error) {
    if (isInputError(error))
      return { id, ok: false, input: { source: error.source, place: error.place, problem: error.problem }, message: error.message };
    return { id, ok: false, input: null, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

if (parentPort) {
  const port = parentPort;
  port.on('message', (message: WorkerRequest) => {
    void handle(message).then((reply) => port.postMessage(reply));
  });
}
