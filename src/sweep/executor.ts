// The scheduler-agnostic executor: "run this configuration, give me its summary". The
// Node pool (worker_threads, pool-node.ts), the browser pool (Web Workers, src/ui/sweep/) and the
// in-process executor (tests, one-off runs) all implement it; the sweep runner only sees this.
import type { Config, LoadedGraph } from '../engine/types.ts';
import type { RunWasm } from '../sim/run.ts';
import { runPoint, type PointRun, type RunRequest } from './point.ts';

export interface SweepExecutor {
  /** How many runs it can do at once (the runner keeps that many in flight). */
  readonly concurrency: number;
  run(request: RunRequest): Promise<PointRun>;
  /** Drops queued work (its promises reject with an AbortError) and terminates the workers. */
  terminate(): void;
}

export function abortError(): Error {
  const error = new Error('the sweep was cancelled');
  error.name = 'AbortError';
  return error;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** One worker of a pool: runs one request at a time. */
export interface PoolWorker {
  run(request: RunRequest): Promise<PointRun>;
  terminate(): void;
  /** False once it crashed or was terminated: the pool spawns a replacement. */
  readonly alive: boolean;
}

interface Queued {
  request: RunRequest;
  resolve(run: PointRun): void;
  reject(error: unknown): void;
}

/**
 * A pool of at most `concurrency` workers, spawned on first need, each given one request at a
 * time from a FIFO queue. Shared by the Node and browser pools (only `spawn` differs).
 */
export class WorkerPool implements SweepExecutor {
  private readonly idle: PoolWorker[] = [];
  private readonly busy = new Set<PoolWorker>();
  private queue: Queued[] = [];
  private terminated = false;
  /** Workers spawned over the pool's life (tests check that a cached point spawns none). */
  spawned = 0;

  constructor(
    private readonly spawn: () => PoolWorker,
    readonly concurrency: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`a pool needs at least one worker, got ${concurrency}`);
  }

  run(request: RunRequest): Promise<PointRun> {
    if (this.terminated) return Promise.reject(abortError());
    return new Promise<PointRun>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (!this.terminated && this.queue.length > 0) {
      let worker = this.idle.pop();
      if (!worker) {
        if (this.busy.size >= this.concurrency) return;
        worker = this.spawn();
        this.spawned++;
      }
      const task = this.queue.shift()!;
      const w = worker;
      this.busy.add(w);
      w.run(task.request).then(
        (run) => this.release(w, () => task.resolve(run)),
        (error: unknown) => this.release(w, () => task.reject(this.terminated ? abortError() : error)),
      );
    }
  }

  private release(worker: PoolWorker, settle: () => void): void {
    this.busy.delete(worker);
    if (worker.alive && !this.terminated) this.idle.push(worker);
    settle();
    this.pump();
  }

  terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    const queued = this.queue;
    this.queue = [];
    for (const task of queued) task.reject(abortError());
    for (const worker of [...this.idle, ...this.busy]) worker.terminate();
    this.idle.length = 0;
  }
}

/**
 * Runs in the calling thread, one at a time: what the tests use to compare a sweep point with a
 * direct run, and a fallback where no workers exist. `terminate` only refuses further work (a
 * running WASM call cannot be interrupted).
 */
export class InProcessExecutor implements SweepExecutor {
  readonly concurrency = 1;
  private terminated = false;
  /** Runs actually simulated (a cache hit never reaches the executor). */
  runs = 0;

  constructor(
    private readonly newWasm: () => Promise<RunWasm>,
    private readonly loadDataset: (name: string) => Promise<{ loaded: LoadedGraph; source: string }>,
  ) {}

  async run(request: RunRequest): Promise<PointRun> {
    if (this.terminated) throw abortError();
    const { loaded, source } = await this.loadDataset(request.config.dataset);
    const wasm = await this.newWasm();
    if (this.terminated) throw abortError();
    this.runs++;
    return runPoint(wasm, loaded, request, source);
  }

  terminate(): void {
    this.terminated = true;
  }
}
