// The Node sweep pool: worker_threads, one per core, capped at os.availableParallelism().
// Each thread runs src/sweep/worker-node.ts. From the compiled CLI (dist/) the worker is plain JS;
// from the TypeScript sources (vitest, development) the thread first registers a loader hook that
// transpiles .ts modules with the project's own TypeScript (Node 20 cannot run .ts by itself).
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { InputError } from '../engine/errors.ts';
import { abortError, WorkerPool, type PoolWorker } from './executor.ts';
import type { PointRun, RunRequest } from './point.ts';
import type { WorkerReply, WorkerRequest } from './worker-node.ts';

const HERE = import.meta.url;
const FROM_SOURCE = HERE.endsWith('.ts');

/** The loader hook of source mode: `.ts` file URLs are transpiled (types erased) on load. */
function tsLoaderUrl(): string {
  const typescript = pathToFileURL(createRequire(HERE).resolve('typescript')).href;
  const source = `
import { readFile } from 'node:fs/promises';
import ts from ${JSON.stringify(typescript)};
export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const text = await readFile(new URL(url), 'utf8');
  const out = ts.transpileModule(text, { fileName: url, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true } });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

function spawnThread(): Worker {
  if (!FROM_SOURCE) return new Worker(new URL('./worker-node.js', HERE));
  const entry = new URL('./worker-node.ts', HERE).href;
  const boot = `require('node:module').register(${JSON.stringify(tsLoaderUrl())}); import(${JSON.stringify(entry)});`;
  return new Worker(boot, { eval: true });
}

/** One worker thread; at most one request outstanding (the pool guarantees it). */
class ThreadWorker implements PoolWorker {
  private readonly thread: Worker;
  private pending: { id: number; resolve(run: PointRun): void; reject(error: unknown): void } | null = null;
  private nextId = 1;
  alive = true;
  /** Resolves when the thread has exited (after terminate() or a crash). */
  readonly exited: Promise<void>;

  constructor() {
    this.thread = spawnThread();
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
    this.thread.on('message', (reply: WorkerReply) => {
      const pending = this.pending;
      if (!pending || pending.id !== reply.id) return;
      this.pending = null;
      if (reply.ok) pending.resolve(reply.run);
      else if (reply.input) pending.reject(new InputError(reply.input.source, reply.input.place, reply.input.problem));
      else pending.reject(new Error(`sweep worker: ${reply.message}`));
    });
    this.thread.on('error', (error) => this.fail(error));
    this.thread.on('exit', (code) => this.fail(new Error(`sweep worker exited (code ${code})`)));
  }

  private fail(error: unknown): void {
    this.alive = false;
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }

  run(request: RunRequest): Promise<PointRun> {
    if (!this.alive) return Promise.reject(abortError());
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending = { id, resolve, reject };
      const message: WorkerRequest = { id, request };
      this.thread.postMessage(message);
    });
  }

  terminate(): void {
    if (!this.alive) return;
    this.fail(abortError());
    void this.thread.terminate();
  }
}

export function maxWorkers(): number {
  return Math.max(1, availableParallelism());
}

export class NodeSweepPool extends WorkerPool {
  private readonly threads: ThreadWorker[];

  /** `workers` defaults to one per core and is capped at os.availableParallelism(). */
  constructor(workers?: number) {
    const n = Math.max(1, Math.min(workers ?? maxWorkers(), maxWorkers()));
    const threads: ThreadWorker[] = [];
    super(() => {
      const worker = new ThreadWorker();
      threads.push(worker);
      return worker;
    }, n);
    this.threads = threads;
  }

  /** Threads not yet exited. */
  get liveThreads(): number {
    return this.threads.filter((t) => t.alive).length;
  }

  /** Resolves once every thread this pool started has exited. */
  async allExited(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.exited));
  }

  /** Ends the pool after a finished sweep (same as cancelling, with nothing left to cancel). */
  async close(): Promise<void> {
    this.terminate();
    await this.allExited();
  }
}
