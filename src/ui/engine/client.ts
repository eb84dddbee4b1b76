// The page's handle on the engine worker. Latest wins: a request that supersedes a busy worker
// first asks it to cancel (runs yield every slice, so they stop within ~40 ms and the worker keeps
// its compiled, tiered-up module and its graph). Calls that do not yield (reproduce, loading a
// graph, scoring an import), and runs that do not stop within CANCEL_GRACE_MS, are dropped the
// hard way: the worker is terminated and a warm standby (same WASM module compiled, same graph
// loaded) takes its place; a fresh standby is then prepared in the background.
import * as Comlink from 'comlink';
import type { Config } from '../../engine/types.ts';
import type { DatasetInfo, EngineApi, ImportedScores, Inspection, Lane, PoolSnapshot, Result, RunDone, StepChunk } from '../../worker/api.ts';
import type { ReproduceResult } from '../../sim/reproduce.ts';

/** Thrown into callers whose request was dropped because a newer one replaced its worker. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled by a newer request');
    this.name = 'Cancelled';
  }
}

type GraphSource = { kind: 'bundled'; name: string } | { kind: 'file'; bytes: Uint8Array; fileName: string };

/** run: stops on cancel(); quick: short calls left to finish; long: only termination stops them. */
type CallKind = 'run' | 'quick' | 'long';

/** How long a cancelled run may take to stop before its worker is terminated. */
const CANCEL_GRACE_MS = 400;

interface Slot {
  worker: Worker;
  remote: Comlink.Remote<EngineApi>;
  /** Resolves when the module is compiled and the current graph loaded. */
  ready: Promise<Result<DatasetInfo> | null>;
  /** Reject function of every call in flight -> its kind and its settled promise. */
  pending: Map<(error: Error) => void, { kind: CallKind; settled: Promise<unknown> }>;
}

export class EngineClient {
  private active: Slot;
  private standby: Slot | null = null;
  private graph: GraphSource | null = null;

  constructor(
    private readonly wasmUrl: string,
    private readonly base: string,
    private readonly makeWorker: () => Worker,
  ) {
    this.active = this.spawn();
  }

  private spawn(): Slot {
    const worker = this.makeWorker();
    const remote = Comlink.wrap<EngineApi>(worker);
    const graph = this.graph;
    const ready = remote.init(this.wasmUrl, this.base).then(() => (graph ? this.loadInto(remote, graph) : null));
    return { worker, remote, ready, pending: new Map() };
  }

  private loadInto(remote: Comlink.Remote<EngineApi>, graph: GraphSource): Promise<Result<DatasetInfo>> {
    return graph.kind === 'bundled' ? remote.loadDataset(graph.name) : remote.loadGraphFile(graph.bytes.slice(), graph.fileName);
  }

  /** True while some request is running in the active worker. */
  get busy(): boolean {
    return this.active.pending.size > 0;
  }

  /** Runs `f` on the active worker; rejects with Cancelled if that worker is replaced first. */
  private call<T>(f: (remote: Comlink.Remote<EngineApi>) => Promise<unknown>, kind: CallKind = 'quick'): Promise<T> {
    const slot = this.active;
    let settle: () => void = () => {};
    const settled = new Promise<void>((r) => (settle = r));
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(reject, { kind, settled });
      slot.ready
        .then(() => f(slot.remote))
        .then(
          (value) => {
            slot.pending.delete(reject);
            settle();
            resolve(value as T);
          },
          (error: unknown) => {
            slot.pending.delete(reject);
            settle();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
    });
  }

  private prepareStandby(): void {
    this.standby?.worker.terminate();
    this.standby = this.spawn();
  }

  /** Terminates the active worker (its calls reject with Cancelled) and promotes the standby. */
  private replaceActive(): void {
    const old = this.active;
    old.worker.terminate();
    for (const reject of old.pending.keys()) reject(new Cancelled());
    old.pending.clear();
    this.active = this.standby ?? this.spawn();
    this.standby = null;
    // The replacement standby compiles while the new request runs; it is idle until needed.
    queueMicrotask(() => this.prepareStandby());
  }

  /**
   * Stops whatever the active worker is doing so the next request starts now: runs are cancelled
   * cooperatively (their calls reject with Cancelled), anything else is terminated with its worker.
   * Resolves when the worker is free for the next request.
   */
  async interrupt(): Promise<void> {
    const slot = this.active;
    const calls = [...slot.pending.values()];
    if (calls.some((c) => c.kind === 'long')) return this.replaceActive();
    const runs = calls.filter((c) => c.kind === 'run').map((c) => c.settled);
    if (runs.length === 0) return; // quick calls (pool, inspect) just finish
    slot.remote.cancel().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = await Promise.race([Promise.all(runs).then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), CANCEL_GRACE_MS)))]);
    clearTimeout(timer);
    if (!stopped && this.active === slot) this.replaceActive();
  }

  async datasetNames(): Promise<string[]> {
    return this.call((r) => r.datasetNames());
  }

  /** Loads a bundled dataset into the active worker and the standby. */
  async loadDataset(name: string): Promise<Result<DatasetInfo>> {
    await this.interrupt();
    const result = await this.call<Result<DatasetInfo>>((r) => r.loadDataset(name), 'long');
    if (result.ok) {
      this.graph = { kind: 'bundled', name };
      this.prepareStandby();
    }
    return result;
  }

  async loadGraphFile(bytes: Uint8Array, fileName: string): Promise<Result<DatasetInfo>> {
    await this.interrupt();
    const result = await this.call<Result<DatasetInfo>>((r) => r.loadGraphFile(bytes.slice(), fileName), 'long');
    if (result.ok) {
      this.graph = { kind: 'file', bytes, fileName };
      this.prepareStandby();
    }
    return result;
  }

  /** Rejects with Cancelled when the run was cancelled (by interrupt) or its worker replaced. */
  async run(lane: Lane, runId: number, config: Config, onChunk: (chunk: StepChunk) => void): Promise<Result<RunDone>> {
    const result = await this.call<Result<RunDone>>((r) => r.run(lane, runId, config, Comlink.proxy(onChunk)), 'run');
    if (!result.ok && result.cancelled) throw new Cancelled();
    return result;
  }

  pool(lane: Lane, step: number): Promise<PoolSnapshot | null> {
    return this.call((r) => r.pool(lane, step));
  }

  inspect(lane: Lane | 'imported', step: number, task: number): Promise<Result<Inspection>> {
    return this.call((r) => r.inspect(lane, step, task));
  }

  exportHistory(lane: Lane, beforeStep: number): Promise<string> {
    return this.call((r) => r.exportHistory(lane, beforeStep));
  }

  exportGraphJson(): Promise<string> {
    return this.call((r) => r.exportGraphJson(), 'long');
  }

  exportRun(lane: Lane): Promise<{ json: string; csv: string } | null> {
    return this.call((r) => r.exportRun(lane));
  }

  importHistory(text: string, fileName: string, config: Config): Promise<Result<ImportedScores>> {
    return this.call((r) => r.importHistory(text, fileName, config), 'long');
  }

  reproduce(config: Config, seeds: number, steps: number, table4Runs: number, onProgress: (done: number, total: number, label: string) => void): Promise<Result<ReproduceResult>> {
    return this.call((r) => r.reproduce(config, seeds, steps, table4Runs, Comlink.proxy(onProgress)), 'long');
  }
}
