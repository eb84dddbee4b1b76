// The page's handle on the engine worker. Latest wins: a request that supersedes a busy worker
// first asks it to cancel (runs yield every slice, so they stop within ~40 ms and the worker keeps
// its compiled, tiered-up module and its graph). Calls that do not yield (reproduce, loading a
// graph, scoring an import), and runs that do not stop within CANCEL_GRACE_MS, are dropped the
// hard way: the worker is terminated and a warm standby (same WASM module compiled, same graph
// loaded) takes its place; a fresh standby is then prepared in the background.
//
// Faults (docs/reliability.md, "Faults in the app"): a worker that traps, aborts, runs out of
// memory, crashes (its 'error' / 'messageerror' events) or stops answering the heartbeat while it
// should be answering is terminated and replaced the same way; its calls reject with WorkerFault
// and the `onFault` listener (the store) tells the user and re-runs the last good configuration.
import type { WorldSettings } from '../../sim/model-params.ts';
import * as Comlink from 'comlink';
import type { Config } from '../../engine/types.ts';
import type {
  DatasetInfo,
  EngineApi,
  FaultKind,
  ImportedScores,
  Inspection,
  Lane,
  PoolSnapshot,
  Result,
  RunDone,
  StepChunk,
} from '../../worker/api.ts';
import type { ReproduceResult } from '../../sim/reproduce.ts';
import type { PoolGraph, StepExplanation } from '../../worker/explain.ts';

import { Cancelled, WorkerFault, type EngineFault } from './errors.ts';

export { Cancelled, WorkerFault, type EngineFault };
/** trap: a WebAssembly RuntimeError; abort: the kernels' own abort; oom: memory; hang: no heartbeat; crash: the worker died. */
export type { FaultKind };

/** Errors from a comlink call that mean the worker itself failed (everything else is an ordinary error). */
export function classifyFault(error: unknown): FaultKind | null {
  const name = error instanceof Error ? error.name : '';
  if (name === 'RangeError') return 'oom';
  if (name === 'RuntimeError') return 'trap';
  if (name === 'WasmAbort') return 'abort';
  return null;
}

type GraphSource = { kind: 'bundled'; name: string } | { kind: 'file'; bytes: Uint8Array; fileName: string };

/** run: stops on cancel(); quick: short calls left to finish; long: only termination stops them. */
type CallKind = 'run' | 'quick' | 'long';

/** How long a cancelled run may take to stop before its worker is terminated. */
const CANCEL_GRACE_MS = 400;
/** The heartbeat: a ping every HEARTBEAT_MS while a call that yields is in flight ... */
const HEARTBEAT_MS = 500;
/** ... and a worker that leaves one unanswered this long is hung (runs yield every ~40 ms). */
export const HANG_MS = 4000;

/** Calls `f` now; a synchronous throw becomes a rejected promise, as it would inside `then`. */
function sendNow<T>(f: () => Promise<T>): Promise<T> {
  try {
    return f();
  } catch (error) {
    return Promise.reject(error);
  }
}

interface Slot {
  worker: Worker;
  remote: Comlink.Remote<EngineApi>;
  /** Resolves when the module is compiled and the current graph loaded. */
  ready: Promise<Result<DatasetInfo> | null>;
  readyDone: boolean;
  /** True once `ready` fulfilled: calls then go out at once. */
  readyOk: boolean;
  /** Reject function of every call in flight -> its kind and its settled promise. */
  pending: Map<(error: Error) => void, { kind: CallKind; settled: Promise<unknown>; during: string }>;
  /** When the unanswered heartbeat ping was sent (null: none outstanding), and its number. */
  pingSentAt: number | null;
  pingSeq: number;
}

const LANE_WORDS: Record<Lane, string> = {
  a: 'running configuration A',
  b: 'running configuration B',
  ref: 'running the random reference',
};

export class EngineClient {
  private active: Slot;
  private standby: Slot | null = null;
  private graph: GraphSource | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  /** Counts replaced workers: a lane recorded under an older epoch is no longer in the active worker. */
  epoch = 0;
  /** Told once per fault, after the failed worker has been replaced. */
  onFault: ((fault: EngineFault) => void) | null = null;

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
    const slot: Slot = { worker, remote, ready, readyDone: false, readyOk: false, pending: new Map(), pingSentAt: null, pingSeq: 0 };
    // A failing init surfaces in the calls that wait for it. Loading a graph does not yield, so
    // the heartbeat starts only once the worker is ready.
    ready.then(
      () => (slot.readyDone = slot.readyOk = true),
      () => (slot.readyDone = true),
    );
    // A worker that dies (uncaught error, failed script) or cannot decode a message is replaced.
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.fail(slot, 'crash', event.message || 'the worker stopped with an uncaught error');
    });
    worker.addEventListener('messageerror', () => this.fail(slot, 'crash', 'a message from the worker could not be read'));
    return slot;
  }

  /** What the slot was doing, in words, for the notice. */
  private static during(slot: Slot): string {
    const calls = [...slot.pending.values()];
    return calls.length > 0 ? calls[calls.length - 1].during : 'idle';
  }

  /**
   * Terminates a failed worker, rejects its calls with WorkerFault, promotes the standby (or a
   * fresh worker) with the last graph that loaded, and tells the listener. A failed standby is
   * simply dropped and prepared again.
   */
  private fail(slot: Slot, kind: FaultKind, detail: string, during = EngineClient.during(slot)): void {
    if (slot === this.standby) {
      slot.worker.terminate();
      this.standby = null;
      return;
    }
    if (slot !== this.active) return; // already replaced
    const fault: EngineFault = { kind, during, detail };
    slot.worker.terminate();
    for (const reject of slot.pending.keys()) reject(new WorkerFault(fault));
    slot.pending.clear();
    this.active = this.standby ?? this.spawn();
    this.standby = null;
    this.epoch++;
    queueMicrotask(() => this.prepareStandby());
    this.onFault?.(fault);
  }

  /** Pings the active worker while it runs a call that yields; no answer within HANG_MS is a hang. */
  private beat(): void {
    const slot = this.active;
    const calls = [...slot.pending.values()];
    // Calls that do not yield (loading, reproduce) block the worker's event loop by design.
    if (!slot.readyDone || calls.length === 0 || calls.some((c) => c.kind === 'long')) {
      slot.pingSentAt = null;
      slot.pingSeq++;
      return;
    }
    const now = performance.now();
    if (slot.pingSentAt === null) {
      const seq = ++slot.pingSeq;
      slot.pingSentAt = now;
      slot.remote.ping().then(
        () => {
          if (slot.pingSeq === seq) slot.pingSentAt = null;
        },
        () => {},
      );
    } else if (now - slot.pingSentAt > HANG_MS) {
      this.fail(slot, 'hang', `no answer for ${Math.round((now - slot.pingSentAt) / 1000)} s`);
    }
  }

  private loadInto(remote: Comlink.Remote<EngineApi>, graph: GraphSource): Promise<Result<DatasetInfo>> {
    return graph.kind === 'bundled' ? remote.loadDataset(graph.name) : remote.loadGraphFile(graph.bytes.slice(), graph.fileName);
  }

  /** True while some request is running in the active worker. */
  get busy(): boolean {
    return this.active.pending.size > 0;
  }

  /** Runs `f` on the active worker; rejects with Cancelled if that worker is replaced first. */
  private call<T>(f: (remote: Comlink.Remote<EngineApi>) => Promise<unknown>, kind: CallKind, during: string): Promise<T> {
    const slot = this.active;
    this.heartbeat ??= setInterval(() => this.beat(), HEARTBEAT_MS);
    let settle: () => void = () => {};
    const settled = new Promise<void>((r) => (settle = r));
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(reject, { kind, settled, during });
      // A ready worker gets the message in this task, not after the page's next re-render.
      const sent = slot.readyOk ? sendNow(() => f(slot.remote)) : slot.ready.then(() => f(slot.remote));
      sent.then(
        (value) => {
          slot.pending.delete(reject);
          settle();
          resolve(value as T);
        },
        (error: unknown) => {
          const fault = classifyFault(error);
          if (fault !== null && slot.pending.has(reject)) {
            // The worker trapped, aborted or ran out of memory: its state is unknown, replace it.
            this.fail(slot, fault, error instanceof Error ? `${error.name}: ${error.message}` : String(error), during);
            settle();
            return;
          }
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
    this.epoch++;
    // The replacement standby compiles while the new request runs; it is idle until needed.
    queueMicrotask(() => this.prepareStandby());
  }

  /**
   * Stops whatever the active worker is doing so the next request starts now: runs are cancelled
   * cooperatively (their calls reject with Cancelled), anything else is terminated with its worker.
   * Resolves when the worker is free for the next request.
   */
  /**
   * Stops what the worker is doing for a new request (latest wins). Null when there is nothing to
   * stop, so the caller can send its request in the same task (a knob change's run request then
   * leaves before the page re-renders for the change).
   */
  interrupt(): Promise<void> | null {
    const slot = this.active;
    const calls = [...slot.pending.values()];
    if (calls.some((c) => c.kind === 'long')) {
      this.replaceActive();
      return null;
    }
    const runs = calls.filter((c) => c.kind === 'run').map((c) => c.settled);
    if (runs.length === 0) return null; // quick calls (pool, inspect) just finish
    return this.cancelRuns(slot, runs);
  }

  private async cancelRuns(slot: Slot, runs: Promise<unknown>[]): Promise<void> {
    slot.remote.cancel().catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopped = await Promise.race([
      Promise.all(runs).then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), CANCEL_GRACE_MS))),
    ]);
    clearTimeout(timer);
    if (!stopped && this.active === slot) this.replaceActive();
  }

  async datasetNames(): Promise<string[]> {
    return this.call((r) => r.datasetNames(), 'quick', 'listing the bundled datasets');
  }

  /** Loads a bundled dataset into the active worker and the standby. */
  async loadDataset(name: string): Promise<Result<DatasetInfo>> {
    await this.interrupt();
    const result = await this.call<Result<DatasetInfo>>((r) => r.loadDataset(name), 'long', `loading the dataset ${name}`);
    if (result.ok) {
      this.graph = { kind: 'bundled', name };
      this.prepareStandby();
    }
    return result;
  }

  async loadGraphFile(bytes: Uint8Array, fileName: string): Promise<Result<DatasetInfo>> {
    await this.interrupt();
    const result = await this.call<Result<DatasetInfo>>(
      (r) => r.loadGraphFile(bytes.slice(), fileName),
      'long',
      `importing the graph file ${fileName}`,
    );
    if (result.ok) {
      this.graph = { kind: 'file', bytes, fileName };
      this.prepareStandby();
    }
    return result;
  }

  /** Rejects with Cancelled when the run was cancelled (by interrupt) or its worker replaced. */
  async run(
    lane: Lane,
    runId: number,
    config: Config,
    onChunk: (chunk: StepChunk) => void,
    world?: WorldSettings,
  ): Promise<Result<RunDone>> {
    const result = await this.call<Result<RunDone>>(
      (r) => r.run(lane, runId, config, Comlink.proxy(onChunk), world),
      'run',
      LANE_WORDS[lane],
    );
    if (!result.ok && result.cancelled) throw new Cancelled();
    return result;
  }

  pool(lane: Lane, step: number): Promise<PoolSnapshot | null> {
    return this.call((r) => r.pool(lane, step), 'quick', 'drawing the pool scatter');
  }

  inspect(lane: Lane | 'imported', step: number, task: number): Promise<Result<Inspection>> {
    return this.call((r) => r.inspect(lane, step, task), 'quick', `explaining task ${task} in the inspector`);
  }

  /** Explain mode: one step taken apart (src/worker/explain.ts), and a small pool's graph. */
  explainStep(lane: Lane | 'imported', step: number, task: number | null): Promise<Result<StepExplanation>> {
    return this.call((r) => r.explainStep(lane, step, task), 'quick', `explaining step ${step}`);
  }

  poolGraph(maxTasks: number): Promise<PoolGraph | null> {
    return this.call((r) => r.poolGraph(maxTasks), 'quick', 'drawing the pool graph');
  }

  exportHistory(lane: Lane, beforeStep: number): Promise<string> {
    return this.call((r) => r.exportHistory(lane, beforeStep), 'quick', 'exporting the history');
  }

  exportGraphJson(): Promise<string> {
    return this.call((r) => r.exportGraphJson(), 'long', 'exporting the graph');
  }

  exportRun(lane: Lane): Promise<{ json: string; csv: string } | null> {
    return this.call((r) => r.exportRun(lane), 'quick', 'exporting the run');
  }

  importHistory(text: string, fileName: string, config: Config): Promise<Result<ImportedScores>> {
    return this.call((r) => r.importHistory(text, fileName, config), 'long', `scoring the history file ${fileName}`);
  }

  reproduce(
    config: Config,
    seeds: number,
    steps: number,
    table4Runs: number,
    onProgress: (done: number, total: number, label: string) => void,
    world?: WorldSettings,
  ): Promise<Result<ReproduceResult>> {
    return this.call(
      (r) => r.reproduce(config, seeds, steps, table4Runs, Comlink.proxy(onProgress), world),
      'long',
      "reproducing the paper's tables",
    );
  }

  /** Test hook (only reachable with `?debug=1`, see lab.svelte.ts): arms a fault in the active worker. */
  armFault(kind: FaultKind): Promise<void> {
    return this.active.remote.armFault(kind);
  }
}
