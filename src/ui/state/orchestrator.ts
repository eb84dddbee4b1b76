// The app's one orchestrator, plain TypeScript (no runes): it decides what runs when and writes the
// answers into the stores (model.ts). It owns the rerun trigger (a leading + trailing throttle),
// "latest request wins" (one AbortController per request: a newer request aborts the older one),
// streaming (steps batched into one re-render per FLUSH_MS), fault recovery (re-run the last
// configuration that finished), import, reproduce and the on-demand views. A Node test drives it
// with a fake engine client (test/ui-orchestrator.test.ts).
import { CONFIG_KEYS, DEFAULT_CONFIG, checkConfigValue, type ConfigKey } from '../../engine/config.ts';
import type { Config } from '../../engine/types.ts';
import type {
  DatasetInfo,
  ImportedScores,
  Inspection,
  Lane,
  PoolSnapshot,
  Result,
  RunDone,
  StepChunk,
  StepRecord,
} from '../../worker/api.ts';
import type { ReproduceResult } from '../../sim/reproduce.ts';
import type { WorldSettings } from '../../sim/model-params.ts';
import { Cancelled, type EngineFault } from '../engine/errors.ts';
import { Latest } from '../lib/latest.ts';
import { throttle } from '../lib/throttle.ts';
import { configKey, copyConfig, isRandomReferenceOf, randomKey, type LabModel, type LaneRun } from './model.ts';

/** The engine calls the orchestrator makes (src/ui/engine/client.ts's EngineClient; a fake in tests). */
export interface EngineLike {
  readonly busy: boolean;
  /** Increases whenever the worker was replaced (its recorded lanes are gone). */
  readonly epoch: number;
  onFault: ((fault: EngineFault) => void) | null;
  /** Stops the worker's current work; null when there was nothing to stop (send the next request now). */
  interrupt(): Promise<void> | null;
  datasetNames(): Promise<string[]>;
  loadDataset(name: string): Promise<Result<DatasetInfo>>;
  loadGraphFile(bytes: Uint8Array, fileName: string): Promise<Result<DatasetInfo>>;
  run(lane: Lane, runId: number, config: Config, onChunk: (chunk: StepChunk) => void, world?: WorldSettings): Promise<Result<RunDone>>;
  pool(lane: Lane, step: number): Promise<PoolSnapshot | null>;
  inspect(lane: Lane | 'imported', step: number, task: number): Promise<Result<Inspection>>;
  importHistory(text: string, fileName: string, config: Config): Promise<Result<ImportedScores>>;
  reproduce(
    config: Config,
    seeds: number,
    steps: number,
    table4Runs: number,
    onProgress: (done: number, total: number, label: string) => void,
    world?: WorldSettings,
  ): Promise<Result<ReproduceResult>>;
}

/** How the orchestrator waits: the page passes requestAnimationFrame and setTimeout, tests their own. */
export interface Timing {
  frame(fn: () => void): void;
  after(fn: () => void, ms: number): void;
}

/** A dropped or picked file, as much of `File` as the import needs. */
export interface InputFile {
  name: string;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
}

const FAULT_CAUSE: Record<EngineFault['kind'], string> = {
  trap: 'its WebAssembly code stopped with an internal error',
  abort: 'its WebAssembly code refused to continue (an internal check failed)',
  oom: 'it ran out of memory (the data or the pool is too large for this browser tab)',
  hang: 'it stopped responding',
  crash: 'it crashed',
};

/** One plain sentence for a lecturer: what was being done, what went wrong, and the browser's words. */
export function faultSentence(fault: EngineFault): string {
  const detail = fault.detail.length > 160 ? `${fault.detail.slice(0, 157)}...` : fault.detail;
  return `The engine failed while ${fault.during}: ${FAULT_CAUSE[fault.kind]} (${detail}).`;
}

const REF_CACHE = 8;
/** Streamed steps are drawn at most this often (ms). */
export const FLUSH_MS = 200;
/** A dragged slider starts a run at once and then at most every RERUN_MS; its last value always runs. */
export const RERUN_MS = 120;
/**
 * The longest run the page starts (a link may ask for up to 100,000 steps: minutes of silent
 * work and ~6 MB of recorded pool per 200 steps). The CLI runs any T. docs/app-architecture.md.
 */
export const MAX_APP_STEPS = 2000;

/** A plain copy of the simulated world's settings (works on a Svelte state proxy too). */
function copyWorld(world: WorldSettings): WorldSettings {
  return JSON.parse(JSON.stringify(world)) as WorldSettings;
}

function quiet(error: unknown): boolean {
  return error instanceof Cancelled || (error instanceof Error && error.name === 'AbortError');
}

export class Orchestrator {
  private runCounter = 0;
  /** The run request in flight (aborted by the next one, by an import, a fault or reproduce). */
  private controller: AbortController | null = null;
  private refCache = new Map<string, LaneRun>();
  private pendingSteps: Record<Lane, StepRecord[]> = { a: [], b: [], ref: [] };
  private flushScheduled = false;
  private loadedDataset: string | null = null;
  /** The last configurations whose runs finished (what a fault recovery re-runs). */
  private lastGood: { a: Config; b: Config | null; world: WorldSettings } | null = null;
  /** True from a fault until the recovery run finishes: a second fault then stops the retries. */
  private recovering = false;
  /** The worker epoch each lane's shown run was recorded in (a replaced worker lost it), and its world. */
  private laneEpoch: Record<Lane, number> = { a: -1, b: -1, ref: -1 };
  private laneWorld: Record<Lane, string> = { a: '', b: '', ref: '' };
  /** The run each lane waits for: the old run stays on screen until the new one's first step arrives. */
  private expected: Record<Lane, { runId: number; config: Config } | null> = { a: null, b: null, ref: null };
  /** Steps received for the expected run of each lane, and who waits for the last of them. */
  private received: Record<Lane, number> = { a: 0, b: 0, ref: 0 };
  private waiting: Record<Lane, { count: number; resolve: () => void } | null> = { a: null, b: null, ref: null };
  /** Key of the (A, B) configuration last started: an unchanged configuration is not run again. */
  private startedKey: string | null = null;
  private readonly trigger: () => void;
  private readonly inspector: Latest<{ lane: Lane | 'imported'; step: number; task: number }>;
  private readonly poolView: Latest<{ step: number }>;

  constructor(
    readonly model: LabModel,
    readonly client: EngineLike,
    private readonly timing: Timing,
  ) {
    client.onFault = (fault) => this.recover(fault);
    this.trigger = throttle(() => {
      this.model.lanes.pending = false;
      void this.rerun();
    }, RERUN_MS);
    this.inspector = new Latest((want, signal) => this.inspect(want, signal));
    this.poolView = new Latest((want, signal) => this.fetchPool(want.step, signal));
  }

  private notify(kind: 'error' | 'info', text: string): void {
    this.model.notices.notify(kind, text);
  }

  // ---- steps ----

  /** The number of steps computed so far in lane A (an imported history: its steps). */
  get stepCount(): number {
    const { data, lanes } = this.model;
    if (data.source === 'imported') return data.imported ? data.imported.step + 1 : 0;
    return lanes.a?.steps.length ?? 0;
  }

  /**
   * The step every view shows (the URL's, else the latest computed; an import: the step it scored).
   * While a new run streams, the step of the previous run (its ghost) is kept: the view does not
   * jump back to step 0 and follow the stream.
   */
  get currentStep(): number {
    const { data, state, lanes } = this.model;
    if (data.source === 'imported') return data.imported?.step ?? 0;
    const n = Math.max(this.stepCount, lanes.ghostA?.steps.length ?? 0);
    if (n === 0) return 0;
    return state.step === null ? n - 1 : Math.min(state.step, n - 1);
  }

  /** Lane A's step record at the shown step: the new run's, or the ghost's until the new run gets there. */
  get shownRecord(): StepRecord | null {
    const { lanes } = this.model;
    const step = this.currentStep;
    return lanes.a?.steps[step] ?? lanes.ghostA?.steps[step] ?? null;
  }

  setStep(step: number | null): void {
    const last = this.model.state.a.T - 1;
    this.model.state.step = step === null ? null : Math.max(0, Math.min(last, Math.round(step)));
  }

  // ---- start ----

  async init(): Promise<void> {
    const { data, state } = this.model;
    try {
      data.datasets = await this.client.datasetNames();
    } catch (error) {
      this.notify('error', `datasets: ${(error as Error).message}`);
    }
    if (data.datasets.length > 0 && !data.datasets.includes(state.a.dataset)) {
      const fallback = data.datasets[0];
      this.notify('error', `dataset=${state.a.dataset}: not bundled with this site; using ${fallback}`);
      state.a.dataset = fallback;
      if (state.b) state.b.dataset = fallback;
    }
  }

  /**
   * The rerun trigger: the page calls it whenever configuration A or B changed. It marks the page
   * as running at once (the page never calls an older run the finished run of the current
   * configuration) and runs through the throttle.
   */
  configChanged(): void {
    if (this.model.data.source !== 'sim') return;
    const key = this.keyOf();
    if (key === this.startedKey && this.controller !== null && !this.controller.signal.aborted) return; // already running it
    this.model.lanes.running = true;
    this.model.lanes.pending = true;
    this.trigger();
  }

  private keyOf(): string {
    const { a, b, world } = this.model.state;
    return configKey(a) + (b ? configKey(b) : '') + JSON.stringify(world);
  }

  /** Cancels what is running (the next request starts from a clean slate). */
  cancel(): void {
    this.controller?.abort();
    this.controller = null;
    this.startedKey = null;
    this.model.lanes.running = false;
    this.model.lanes.pending = false;
  }

  /** Bounds a costly configuration (T, B beyond the pool) with a notice; true when it changed. */
  private bound(config: Config, label: string, dataset: DatasetInfo): boolean {
    let changed = false;
    if (config.T > MAX_APP_STEPS) {
      this.notify(
        'error',
        `${label}T=${config.T}: the page runs at most ${MAX_APP_STEPS} steps (a longer run takes minutes here; the envsched CLI runs any T); using ${MAX_APP_STEPS}`,
      );
      config.T = MAX_APP_STEPS;
      changed = true;
    }
    const tasks = dataset.tasks.length;
    if (config.B > tasks) {
      this.notify('error', `${label}B=${config.B}: larger than the pool (${tasks} tasks in ${dataset.name}); using ${tasks}`);
      config.B = tasks;
      changed = true;
    }
    return changed;
  }

  /** Starts (or restarts) the runs of the current configuration: A, then B, then the random reference. */
  async rerun(): Promise<void> {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const { signal } = controller;
    const { state, lanes, data } = this.model;
    this.startedKey = this.keyOf();
    lanes.running = true;
    try {
      const stopping = this.client.interrupt();
      if (stopping) await stopping;
      if (signal.aborted) return;
      if (this.loadedDataset !== state.a.dataset) {
        const result = await this.client.loadDataset(state.a.dataset);
        if (signal.aborted) return;
        if (!result.ok) {
          this.notify('error', result.notice);
          return;
        }
        data.dataset = result.value;
        this.loadedDataset = state.a.dataset;
        data.source = 'sim';
      }
      const dataset = data.dataset;
      if (!dataset?.simulable) return;
      // Costly links are bounded in the state itself, so the URL and the run agree.
      if (this.bound(state.a, '', dataset)) state.a = copyConfig(state.a);
      if (state.b && this.bound(state.b, 'b.', dataset)) state.b = copyConfig(state.b);
      this.startedKey = this.keyOf();
      const a = copyConfig(state.a);
      const b = state.b ? copyConfig(state.b) : null;
      const world = copyWorld(state.world);
      if (!(await this.runLane('a', a, world, signal))) return;
      if (b) {
        if (!(await this.runLane('b', b, world, signal))) return;
      } else {
        lanes.b = null;
        lanes.ghostB = null;
      }
      this.lastGood = { a, b, world };
      this.recovering = false;
      lanes.refIsB = b !== null && isRandomReferenceOf(b, a);
      if (a.scheduler === 'random' || lanes.refIsB) {
        // A or B already is the random run with A's seed: it is not drawn (or run) twice.
        lanes.ref = null;
        return;
      }
      // The random run depends on the simulated world too.
      const key = randomKey(a) + JSON.stringify(world);
      const cached = this.refCache.get(key);
      if (cached) lanes.ref = cached;
      else if (await this.runLane('ref', { ...a, scheduler: 'random' }, world, signal)) {
        if (lanes.ref) this.refCache.set(key, lanes.ref);
        while (this.refCache.size > REF_CACHE) this.refCache.delete(this.refCache.keys().next().value!);
      }
    } catch (error) {
      if (!quiet(error)) this.notify('error', `run: ${(error as Error).message}`);
    } finally {
      if (this.controller === controller) {
        lanes.running = lanes.pending;
        this.controller = null;
      }
    }
  }

  private getLane(lane: Lane): LaneRun | null {
    return this.model.lanes[lane];
  }

  private setLane(lane: Lane, run: LaneRun | null): void {
    this.model.lanes[lane] = run;
  }

  /** True when the lane's shown run is a finished run of `config` still recorded in the active worker. */
  private fresh(lane: Lane, config: Config, world: WorldSettings): boolean {
    const run = this.getLane(lane);
    return (
      run !== null &&
      run.done &&
      run.fingerprint !== null &&
      configKey(run.config) === configKey(config) &&
      this.laneEpoch[lane] === this.client.epoch &&
      this.laneWorld[lane] === JSON.stringify(world)
    );
  }

  private async runLane(lane: Lane, config: Config, world: WorldSettings, signal: AbortSignal): Promise<boolean> {
    // Changing B leaves A's finished run (its fingerprint and timing) as it is, and vice versa.
    if (this.fresh(lane, config, world)) return true;
    const runId = ++this.runCounter;
    this.pendingSteps[lane] = [];
    this.expected[lane] = { runId, config };
    this.received[lane] = 0;
    const shown = this.getLane(lane);
    if (shown) this.setLane(lane, { ...shown, done: false });
    const result = await this.client.run(lane, runId, config, (chunk) => this.receive(chunk), world);
    if (signal.aborted) return false;
    // The steps come through a callback port of their own: the last ones may arrive after the
    // run's answer. The run is finished when all of them are in.
    if (result.ok && this.received[lane] < result.value.steps) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.waiting[lane] = { count: result.value.steps, resolve };
        timer = setTimeout(resolve, 2000); // a lost message must not hold the page forever
      });
      clearTimeout(timer);
      this.waiting[lane] = null;
      if (signal.aborted) return false;
    }
    this.flushScheduled = true;
    this.flush();
    if (!result.ok) {
      this.notify('error', result.notice);
      return false;
    }
    const run = this.getLane(lane);
    const done = { done: true, fingerprint: result.value.fingerprint, millis: result.value.millis };
    if (run && run.runId === runId) this.setLane(lane, { ...run, ...done });
    else this.setLane(lane, { runId, config, steps: [], ...done });
    this.laneEpoch[lane] = this.client.epoch;
    this.laneWorld[lane] = JSON.stringify(world);
    this.clearGhost(lane, true);
    return true;
  }

  private receive(chunk: StepChunk): void {
    const expected = this.expected[chunk.lane];
    if (!expected || expected.runId !== chunk.runId) return; // a stale run's step
    const run = this.getLane(chunk.lane);
    this.pendingSteps[chunk.lane].push(...chunk.steps);
    this.received[chunk.lane] += chunk.steps.length;
    const waiter = this.waiting[chunk.lane];
    if (waiter && this.received[chunk.lane] >= waiter.count) waiter.resolve();
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // The first step of a run shows at once (slider -> chart latency); later steps are batched
      // into one re-render every FLUSH_MS, which keeps every main-thread task short.
      const first = !run || run.runId !== chunk.runId;
      if (first) this.timing.frame(() => this.flush());
      else this.timing.after(() => this.timing.frame(() => this.flush()), FLUSH_MS);
    }
  }

  /** Moves streamed steps into the lanes (one re-render for all steps received since the last flush). */
  private flush(): void {
    if (!this.flushScheduled) return;
    this.flushScheduled = false;
    for (const lane of ['a', 'b', 'ref'] as const) {
      const steps = this.pendingSteps[lane];
      const expected = this.expected[lane];
      if (steps.length === 0 || !expected) continue;
      this.pendingSteps[lane] = [];
      const run = this.getLane(lane);
      if (run && run.runId === expected.runId) this.setLane(lane, { ...run, steps: [...run.steps, ...steps] });
      else {
        this.keepGhost(lane, run, expected.config);
        this.setLane(lane, { runId: expected.runId, config: expected.config, steps, done: false, fingerprint: null, millis: null });
      }
      this.clearGhost(lane, false);
    }
  }

  /** The previous run of a lane stays as a faint ghost until the new run has covered its steps. */
  private keepGhost(lane: Lane, previous: LaneRun | null, next: Config): void {
    if (lane === 'ref' || !previous || previous.steps.length === 0 || configKey(previous.config) === configKey(next)) return;
    const { lanes } = this.model;
    const ghost = lane === 'a' ? lanes.ghostA : lanes.ghostB;
    // A run cut short by a newer change covers fewer steps than the ghost it replaced: keep the longer.
    const keep = ghost && ghost.steps.length > previous.steps.length ? ghost : previous;
    if (lane === 'a') lanes.ghostA = keep;
    else lanes.ghostB = keep;
  }

  private clearGhost(lane: Lane, finished: boolean): void {
    const { lanes } = this.model;
    const run = this.getLane(lane);
    const ghost = lane === 'a' ? lanes.ghostA : lane === 'b' ? lanes.ghostB : null;
    if (!ghost || !run) return;
    if (finished || run.steps.length >= ghost.steps.length) {
      if (lane === 'a') lanes.ghostA = null;
      else lanes.ghostB = null;
    }
  }

  // ---- faults ----

  /**
   * A worker failed and the client has already replaced it: say so in plain words, then reload the
   * dataset and re-run the last configuration that finished. A fault during that recovery is
   * reported and not retried (no loop on a configuration that always fails).
   */
  private recover(fault: EngineFault): void {
    const { data, lanes, repro, view, state } = this.model;
    data.faults = [...data.faults, fault];
    const again = this.recovering;
    this.controller?.abort(); // whatever was waiting on the failed worker is stale now
    this.controller = null;
    this.startedKey = null;
    lanes.running = false;
    repro.reproduce = { ...repro.reproduce, running: false };
    data.importing = null;
    this.loadedDataset = null; // the fresh worker loads the dataset again
    this.inspector.cancel();
    this.poolView.cancel();
    view.inspecting = false;
    if (again || !this.lastGood) {
      this.recovering = false;
      this.notify('error', `${faultSentence(fault)} A fresh engine was started; change a setting to run again.`);
      return;
    }
    const good = this.lastGood;
    this.recovering = true;
    this.notify('error', `${faultSentence(fault)} A fresh engine was started and the last settings that worked were restored.`);
    state.a = copyConfig(good.a);
    state.b = good.b ? copyConfig(good.b) : null;
    state.world = copyWorld(good.world);
    data.source = 'sim';
    data.imported = null;
    view.inspection = null;
    view.pool = null;
    void this.rerun();
  }

  // ---- on-demand views (latest request wins) ----

  requestInspection(): void {
    const { state, data, lanes, view } = this.model;
    const task = state.task;
    const imported = data.source === 'imported';
    const lane = imported ? 'imported' : 'a';
    const step = this.currentStep;
    const ready = imported ? data.imported !== null : lanes.a?.done === true;
    if (task === null || !ready || !data.dataset || task >= data.dataset.tasks.length) {
      this.inspector.cancel();
      if (task === null) view.inspection = null;
      return;
    }
    this.inspector.request(JSON.stringify([lane, step, task, lanes.a?.runId, data.imported?.observations]), { lane, step, task });
  }

  private async inspect(want: { lane: Lane | 'imported'; step: number; task: number }, signal: AbortSignal): Promise<void> {
    const { view } = this.model;
    view.inspecting = true;
    try {
      const result = await this.client.inspect(want.lane, want.step, want.task);
      if (signal.aborted) return;
      if (result.ok) {
        view.inspection = result.value;
        view.inspectError = null;
      } else view.inspectError = result.notice;
    } catch (error) {
      if (!quiet(error) && !signal.aborted) view.inspectError = (error as Error).message;
    } finally {
      view.inspecting = false;
    }
  }

  requestPool(): void {
    const { data, lanes } = this.model;
    if (data.source !== 'sim' || !lanes.a?.done) return;
    const step = this.currentStep;
    this.poolView.request(JSON.stringify([lanes.a.runId, step]), { step });
  }

  private async fetchPool(step: number, signal: AbortSignal): Promise<void> {
    try {
      const snapshot = await this.client.pool('a', step);
      if (!signal.aborted) this.model.view.pool = snapshot;
    } catch (error) {
      if (!quiet(error)) this.notify('error', `pool: ${(error as Error).message}`);
    }
  }

  // ---- import ----

  /**
   * A graph (.json / .bin), a history (.jsonl) and a configuration (a JSON object of SPEC 12 keys,
   * e.g. the CLI's config.json), in any combination and order. The configuration becomes A and is
   * the one the history is scored with.
   */
  async importFiles(files: InputFile[]): Promise<void> {
    const { data } = this.model;
    const history = files.find((f) => /\.jsonl$/i.test(f.name));
    let graph: { file: InputFile; bytes: Uint8Array } | undefined;
    let config: { file: InputFile; value: Config } | undefined;
    for (const f of files) {
      if (f === history) continue;
      if (/\.bin$/i.test(f.name)) {
        if (!graph) graph = { file: f, bytes: new Uint8Array(await f.arrayBuffer()) };
        else this.notify('error', `${f.name}: a second graph file; ignored`);
      } else if (/\.json$/i.test(f.name)) {
        const bytes = new Uint8Array(await f.arrayBuffer());
        const read = readConfigFile(f.name, bytes);
        if (read.kind === 'config') config = { file: f, value: read.config };
        else if (read.kind === 'error') return this.notify('error', read.notice);
        else if (!graph) graph = { file: f, bytes };
        else this.notify('error', `${f.name}: a second graph file; ignored`);
      } else this.notify('error', `${f.name}: not a graph (.json, .bin), history (.jsonl) or configuration (.json) file; ignored`);
    }
    const label = [graph?.file.name, history?.name].filter(Boolean).join(' and ') || config?.file.name || 'files';
    data.importing = label;
    try {
      if (config) {
        this.model.state.a = { ...config.value, dataset: this.model.state.a.dataset };
        this.notify('info', `${config.file.name}: configuration A set from the file${history ? '; the history is scored with it' : ''}`);
      }
      await this.importGraphAndHistory(graph, history);
    } catch (error) {
      // A failed worker is reported by recover(); anything else names the file.
      if (!quiet(error)) this.notify('error', `${(graph?.file ?? history)?.name ?? 'import'}: ${(error as Error).message}`);
    } finally {
      data.importing = null;
    }
  }

  private async importGraphAndHistory(
    graph: { file: InputFile; bytes: Uint8Array } | undefined,
    historyFile: InputFile | undefined,
  ): Promise<void> {
    const { data, lanes, view, state } = this.model;
    if (graph) {
      this.cancel();
      const result = await this.client.loadGraphFile(graph.bytes, graph.file.name);
      if (!result.ok) {
        this.notify('error', result.notice);
        return;
      }
      data.dataset = result.value;
      this.loadedDataset = null;
      lanes.a = lanes.b = lanes.ref = lanes.ghostA = lanes.ghostB = null;
      view.pool = null;
      data.imported = null;
      view.inspection = null;
      data.source = 'imported';
      this.notify(
        'info',
        `${graph.file.name}: ${result.value.tasks.length} tasks in ${result.value.envs.length} environments loaded${historyFile ? '' : '; now add a history (.jsonl)'}`,
      );
    }
    if (!historyFile) return;
    if (!data.dataset) {
      this.notify('error', `${historyFile.name}: load a graph file first (or together)`);
      return;
    }
    const text = await historyFile.text();
    const result = await this.client.importHistory(text, historyFile.name, copyConfig(state.a));
    if (!result.ok) {
      this.notify('error', result.notice);
      return;
    }
    this.cancel();
    data.source = 'imported';
    data.imported = result.value;
    view.inspection = null;
    state.task = result.value.batchTasks[0] ?? 0;
    this.notify(
      'info',
      `${historyFile.name}: ${result.value.observations} groups scored; the batch for step ${result.value.step} is shown`,
    );
    this.requestInspection();
  }

  /** Back from imported data to the bundled dataset of the configuration. */
  backToSimulation(): void {
    const { data, view } = this.model;
    this.loadedDataset = null;
    this.startedKey = null;
    data.source = 'sim';
    data.imported = null;
    view.inspection = null;
    void this.rerun();
  }

  // ---- reproduce ----

  async runReproduce(seeds: number, steps: number, table4Runs: number): Promise<void> {
    const { repro } = this.model;
    // Interrupting a busy worker loses its recorded lanes: recompute them afterwards.
    const lost = this.client.busy;
    this.controller?.abort();
    this.controller = null;
    this.startedKey = null;
    repro.reproduce = { running: true, done: 0, total: 1, label: 'starting', result: null };
    try {
      await this.client.interrupt();
      const result = await this.client.reproduce(
        copyConfig(this.model.state.a),
        seeds,
        steps,
        table4Runs,
        (done, total, label) => {
          repro.reproduce = { ...repro.reproduce, done, total, label };
        },
        copyWorld(this.model.state.world),
      );
      if (!result.ok) this.notify('error', result.notice);
      repro.reproduce = { ...repro.reproduce, running: false, result: result.ok ? result.value : null };
    } catch (error) {
      repro.reproduce = { ...repro.reproduce, running: false };
      if (!quiet(error)) this.notify('error', `reproduce: ${(error as Error).message}`);
    }
    if (lost && this.model.data.source === 'sim') void this.rerun();
  }
}

/** What a dropped `.json` file is: a configuration (SPEC 12 keys only), a graph, or unreadable. */
export function readConfigFile(
  name: string,
  bytes: Uint8Array,
): { kind: 'config'; config: Config } | { kind: 'graph' } | { kind: 'error'; notice: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return { kind: 'graph' }; // the graph reader names the line of the syntax error
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'graph' };
  const keys = Object.keys(raw);
  const known = keys.filter((k) => (CONFIG_KEYS as string[]).includes(k));
  // A graph has `tasks`, `format`, `envs`...; a configuration has only configuration keys.
  if (keys.length === 0 || known.length < keys.length) return { kind: 'graph' };
  const config: Config = copyConfig(DEFAULT_CONFIG);
  for (const key of known as ConfigKey[]) {
    const value = (raw as Record<string, unknown>)[key];
    const problem = checkConfigValue(key, value);
    if (problem !== null) return { kind: 'error', notice: `${name}: ${key}: ${problem}` };
    (config as unknown as Record<string, unknown>)[key] = Array.isArray(value) ? [...value] : value;
  }
  return { kind: 'config', config };
}
