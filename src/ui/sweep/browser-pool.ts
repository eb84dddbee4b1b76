// The browser's sweep pool: Web Workers running src/worker/sweep.worker.ts, one per
// available core (capped), behind the same WorkerPool as the Node pool. Cancelling terminates the
// workers (a running WASM call cannot be interrupted; Squoosh-style), so every sweep gets a fresh pool.
import * as Comlink from 'comlink';
import { InputError } from '../../engine/errors.ts';
import { abortError, WorkerPool, type PoolWorker } from '../../sweep/executor.ts';
import type { PointRun, RunRequest } from '../../sweep/point.ts';
import type { SweepWorkerApi, SweepWorkerReply } from '../../worker/sweep.worker.ts';

/** More workers than this buy little and each holds its own copy of the graph and WASM memory. */
export const MAX_BROWSER_WORKERS = 8;

export function defaultBrowserWorkers(): number {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 2;
  return Math.max(1, Math.min(cores, MAX_BROWSER_WORKERS));
}

export function makeSweepWorker(): Worker {
  return new Worker(new URL('../../worker/sweep.worker.ts', import.meta.url), { type: 'module' });
}

class WebSweepWorker implements PoolWorker {
  private readonly worker: Worker;
  private readonly remote: Comlink.Remote<SweepWorkerApi>;
  private readonly ready: Promise<void>;
  private rejectPending: ((error: unknown) => void) | null = null;
  alive = true;

  constructor(wasmUrl: string, base: string, graph: ImportedGraph | null, makeWorker: () => Worker) {
    this.worker = makeWorker();
    this.remote = Comlink.wrap<SweepWorkerApi>(this.worker);
    this.ready = this.remote
      .init(wasmUrl, base)
      .then(() => (graph ? this.remote.useGraph(graph.name, graph.bytes.slice(), graph.fileName) : undefined));
    this.worker.addEventListener('error', () => this.fail(new Error('sweep worker crashed')));
  }

  private fail(error: unknown): void {
    this.alive = false;
    this.rejectPending?.(error);
    this.rejectPending = null;
  }

  run(request: RunRequest): Promise<PointRun> {
    if (!this.alive) return Promise.reject(abortError());
    return new Promise<PointRun>((resolve, reject) => {
      this.rejectPending = reject;
      this.ready
        .then((): Promise<SweepWorkerReply> => this.remote.run(request))
        .then(
          (reply) => {
            if (this.rejectPending !== reject) return; // terminated meanwhile
            this.rejectPending = null;
            if (reply.ok) resolve(reply.run);
            else reject(reply.input ? new InputError(reply.input.source, reply.input.place, reply.input.problem) : new Error(reply.notice));
          },
          (error: unknown) => {
            if (this.rejectPending !== reject) return;
            this.rejectPending = null;
            reject(error);
          },
        );
    });
  }

  terminate(): void {
    if (!this.alive) return;
    this.fail(abortError());
    this.remote[Comlink.releaseProxy]();
    this.worker.terminate();
  }
}

/** An imported graph file (not a bundled dataset): handed to every worker of the pool. */
export interface ImportedGraph {
  name: string;
  bytes: Uint8Array;
  fileName: string;
}

export interface BrowserPoolOptions {
  workers?: number;
  graph?: ImportedGraph | null;
  makeWorker?: () => Worker;
}

export function createBrowserSweepPool(wasmUrl: string, base: string, options: BrowserPoolOptions = {}): WorkerPool {
  const workers = Math.max(1, Math.min(options.workers ?? defaultBrowserWorkers(), MAX_BROWSER_WORKERS));
  const make = options.makeWorker ?? makeSweepWorker;
  return new WorkerPool(() => new WebSweepWorker(wasmUrl, base, options.graph ?? null, make), workers);
}
