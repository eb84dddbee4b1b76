// The page's handle on the engine worker. A running WASM call cannot be interrupted, so a request
// that supersedes a busy worker terminates it and promotes a warm standby worker (same WASM module
// compiled, same graph loaded) in its place: the newest request starts at once, the stale one is
// gone with its worker (Squoosh-style "latest wins"). A fresh standby is then prepared in the
// background.
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

interface Slot {
  worker: Worker;
  remote: Comlink.Remote<EngineApi>;
  /** Resolves when the module is compiled and the current graph loaded. */
  ready: Promise<Result<DatasetInfo> | null>;
  pending: Set<(error: Error) => void>;
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
    return { worker, remote, ready, pending: new Set() };
  }

  private loadInto(remote: Comlink.Remote<EngineApi>, graph: GraphSource): Promise<Result<DatasetInfo>> {
    return graph.kind === 'bundled' ? remote.loadDataset(graph.name) : remote.loadGraphFile(graph.bytes.slice(), graph.fileName);
  }

  /** True while some request is running in the active worker. */
  get busy(): boolean {
    return this.active.pending.size > 0;
  }

  /** Runs `f` on the active worker; rejects with Cancelled if that worker is replaced first. */
  private call<T>(f: (remote: Comlink.Remote<EngineApi>) => Promise<unknown>): Promise<T> {
    const slot = this.active;
    return new Promise<T>((resolve, reject) => {
      slot.pending.add(reject);
      slot.ready
        .then(() => f(slot.remote))
        .then(
          (value) => {
            slot.pending.delete(reject);
            resolve(value as T);
          },
          (error: unknown) => {
            slot.pending.delete(reject);
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
    });
  }

  private prepareStandby(): void {
    this.standby?.worker.terminate();
    this.standby = this.spawn();
  }

  /** Drops whatever the active worker is doing (if anything) so the next request starts now. */
  interrupt(): void {
    if (!this.busy) return;
    const old = this.active;
    old.worker.terminate();
    for (const reject of old.pending) reject(new Cancelled());
    old.pending.clear();
    this.active = this.standby ?? this.spawn();
    this.standby = null;
    // The replacement standby compiles while the new request runs; it is idle until needed.
    queueMicrotask(() => this.prepareStandby());
  }

  async datasetNames(): Promise<string[]> {
    return this.call((r) => r.datasetNames());
  }

  /** Loads a bundled dataset into the active worker and the standby. */
  async loadDataset(name: string): Promise<Result<DatasetInfo>> {
    this.interrupt();
    const result = await this.call<Result<DatasetInfo>>((r) => r.loadDataset(name));
    if (result.ok) {
      this.graph = { kind: 'bundled', name };
      this.prepareStandby();
    }
    return result;
  }

  async loadGraphFile(bytes: Uint8Array, fileName: string): Promise<Result<DatasetInfo>> {
    this.interrupt();
    const result = await this.call<Result<DatasetInfo>>((r) => r.loadGraphFile(bytes.slice(), fileName));
    if (result.ok) {
      this.graph = { kind: 'file', bytes, fileName };
      this.prepareStandby();
    }
    return result;
  }

  run(lane: Lane, runId: number, config: Config, onChunk: (chunk: StepChunk) => void): Promise<Result<RunDone>> {
    return this.call((r) => r.run(lane, runId, config, Comlink.proxy(onChunk)));
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
    return this.call((r) => r.exportGraphJson());
  }

  exportRun(lane: Lane): Promise<{ json: string; csv: string } | null> {
    return this.call((r) => r.exportRun(lane));
  }

  importHistory(text: string, fileName: string, config: Config): Promise<Result<ImportedScores>> {
    return this.call((r) => r.importHistory(text, fileName, config));
  }

  reproduce(config: Config, seeds: number, steps: number, table4Runs: number, onProgress: (done: number, total: number, label: string) => void): Promise<Result<ReproduceResult>> {
    return this.call((r) => r.reproduce(config, seeds, steps, table4Runs, Comlink.proxy(onProgress)));
  }
}
