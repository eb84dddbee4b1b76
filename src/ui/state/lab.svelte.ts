// The app's one store (Svelte 5 runes). `state` is the URL-serialised part (url-state.ts); the
// rest is what the worker computed. Large arrays live in `$state.raw` and are replaced, never
// mutated; nothing reactive is handed to the worker or Chart.js without `$state.snapshot`.
import type { Config } from '../../engine/types.ts';
import type { ReproduceResult } from '../../sim/reproduce.ts';
import type { DatasetInfo, ImportedScores, Inspection, Lane, PoolSnapshot, StepChunk, StepRecord } from '../../worker/api.ts';
import { Cancelled, EngineClient, type EngineFault, type FaultKind } from '../engine/client.ts';
import { defaultConfig, parseUrlState, serializeUrlState, type AppState } from './url-state.ts';

export interface LaneRun {
  runId: number;
  config: Config;
  steps: StepRecord[];
  done: boolean;
  fingerprint: string | null;
  millis: number | null;
}

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

/** The test handle on `globalThis.envschedDebug` (only with `?debug=1`). */
export interface DebugHandle {
  armFault(kind: FaultKind): Promise<void>;
  faults(): EngineFault[];
}

const FAULT_CAUSE: Record<FaultKind, string> = {
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

/** Linked highlighting across views. */
export interface Highlight {
  env: number | null;
  task: number | null;
}

const REF_CACHE = 8;
/** Streamed steps are drawn at most this often (ms). */
const FLUSH_MS = 200;

export class Lab {
  state: AppState = $state(parseUrlState('').state);
  notices: Notice[] = $state([]);
  datasets: string[] = $state.raw([]);
  dataset: DatasetInfo | null = $state.raw(null);
  a: LaneRun | null = $state.raw(null);
  b: LaneRun | null = $state.raw(null);
  ref: LaneRun | null = $state.raw(null);
  highlight: Highlight = $state({ env: null, task: null });
  playing = $state(false);
  inspection: Inspection | null = $state.raw(null);
  inspectError: string | null = $state(null);
  inspecting = $state(false);
  pool: PoolSnapshot | null = $state.raw(null);
  imported: ImportedScores | null = $state.raw(null);
  /** Which data the views show: the simulated run, or an imported history's next batch. */
  source: 'sim' | 'imported' = $state('sim');
  reproduce: { running: boolean; done: number; total: number; label: string; result: ReproduceResult | null } = $state({ running: false, done: 0, total: 0, label: '', result: null });
  running = $state(false);

  readonly client: EngineClient;
  private runCounter = 0;
  private generation = 0;
  private noticeCounter = 0;
  private refCache = new Map<string, LaneRun>();
  private pending: Record<Lane, StepRecord[]> = { a: [], b: [], ref: [] };
  private flushScheduled = false;
  private loadedDataset: string | null = null;
  /** The last configurations whose runs finished (what a fault recovery re-runs). */
  private lastGood: { a: Config; b: Config | null } | null = null;
  /** True from a fault until the recovery run finishes: a second fault then stops the retries. */
  private recovering = false;
  /** Faults seen (shown in the debug handle; the e2e tests read it). */
  faults: EngineFault[] = $state.raw([]);

  constructor(client: EngineClient, search: string) {
    this.client = client;
    const { state, notices } = parseUrlState(search);
    this.state = state;
    for (const text of notices) this.notify('error', text);
    client.onFault = (fault) => this.recover(fault);
    // The fault hook exists only when the page was opened with `debug=1` (never written back to
    // the URL, so a copied link never carries it): docs/reliability.md, "Faults in the app".
    if (new URLSearchParams(search).get('debug') === '1') {
      (globalThis as { envschedDebug?: DebugHandle }).envschedDebug = {
        armFault: (kind) => client.armFault(kind),
        faults: () => this.faults.map((f) => ({ ...f })),
      };
    }
  }

  /**
   * A worker failed and client.ts has already replaced it: say so in plain words, then reload the
   * dataset and re-run the last configuration that finished. A fault during that recovery is
   * reported and not retried (no loop on a configuration that always fails).
   */
  private recover(fault: EngineFault): void {
    this.faults = [...this.faults, fault];
    const again = this.recovering;
    this.generation++; // whatever was waiting on the failed worker is stale now
    this.running = false;
    this.reproduce = { ...this.reproduce, running: false };
    this.loadedDataset = null; // the fresh worker loads the dataset again
    if (again || !this.lastGood) {
      this.recovering = false;
      this.notify('error', `${faultSentence(fault)} A fresh engine was started; change a setting to run again.`);
      return;
    }
    const good = this.lastGood;
    this.recovering = true;
    this.notify('error', `${faultSentence(fault)} A fresh engine was started and the last settings that worked were restored.`);
    this.state.a = { ...good.a, alpha: [...good.a.alpha] as Config['alpha'] };
    this.state.b = good.b ? { ...good.b, alpha: [...good.b.alpha] as Config['alpha'] } : null;
    this.source = 'sim';
    this.imported = null;
    this.inspection = null;
    this.pool = null;
    void this.rerun();
  }

  notify(kind: Notice['kind'], text: string): void {
    this.notices = [...this.notices.slice(-4), { id: ++this.noticeCounter, kind, text }];
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  get query(): string {
    return serializeUrlState(this.state);
  }

  /** The number of steps computed so far in lane A. */
  get stepCount(): number {
    return this.a?.steps.length ?? 0;
  }

  /** The step every view shows (the URL's, else the latest computed). */
  get currentStep(): number {
    const n = this.stepCount;
    if (n === 0) return 0;
    return this.state.step === null ? n - 1 : Math.min(this.state.step, n - 1);
  }

  setStep(step: number | null): void {
    const last = this.state.a.T - 1;
    this.state.step = step === null ? null : Math.max(0, Math.min(last, Math.round(step)));
  }

  resetConfig(): void {
    const keep = { dataset: this.state.a.dataset };
    this.state.a = { ...defaultConfig(), ...keep };
  }

  async init(): Promise<void> {
    try {
      this.datasets = await this.client.datasetNames();
    } catch (error) {
      this.notify('error', `datasets: ${(error as Error).message}`);
    }
    if (this.datasets.length > 0 && !this.datasets.includes(this.state.a.dataset)) {
      const fallback = this.datasets[0];
      this.notify('error', `dataset=${this.state.a.dataset}: not bundled with this site; using ${fallback}`);
      this.state.a.dataset = fallback;
      if (this.state.b) this.state.b.dataset = fallback;
    }
  }

  /** Starts (or restarts) the runs of the current configuration: A, then B, then the random reference. */
  async rerun(): Promise<void> {
    const generation = ++this.generation;
    const a = $state.snapshot(this.state.a) as Config;
    const b = this.state.b ? ($state.snapshot(this.state.b) as Config) : null;
    this.running = true;
    try {
      await this.client.interrupt();
      if (generation !== this.generation) return;
      if (this.loadedDataset !== a.dataset) {
        const result = await this.client.loadDataset(a.dataset);
        if (generation !== this.generation) return;
        if (!result.ok) {
          this.notify('error', result.notice);
          return;
        }
        this.dataset = result.value;
        this.loadedDataset = a.dataset;
        this.source = 'sim';
      }
      if (!this.dataset?.simulable) return;
      if (!(await this.runLane('a', a, generation))) return;
      if (b) {
        if (!(await this.runLane('b', b, generation))) return;
      } else this.b = null;
      this.lastGood = { a, b };
      this.recovering = false;
      if (a.scheduler === 'random') {
        this.ref = null;
        return;
      }
      const key = JSON.stringify([a.dataset, a.seed, a.B, a.K, a.T]);
      const cached = this.refCache.get(key);
      if (cached) this.ref = cached;
      else if (await this.runLane('ref', { ...a, scheduler: 'random' }, generation)) {
        if (this.ref) this.refCache.set(key, this.ref);
        while (this.refCache.size > REF_CACHE) this.refCache.delete(this.refCache.keys().next().value!);
      }
    } catch (error) {
      if (!(error instanceof Cancelled)) this.notify('error', `run: ${(error as Error).message}`);
    } finally {
      if (generation === this.generation) this.running = false;
    }
  }

  private setLane(lane: Lane, run: LaneRun | null): void {
    if (lane === 'a') this.a = run;
    else if (lane === 'b') this.b = run;
    else this.ref = run;
  }

  private getLane(lane: Lane): LaneRun | null {
    return lane === 'a' ? this.a : lane === 'b' ? this.b : this.ref;
  }

  /** The run each lane is waiting for: the old run stays on screen until the new one's first step arrives. */
  private expected: Record<Lane, { runId: number; config: Config } | null> = { a: null, b: null, ref: null };

  private async runLane(lane: Lane, config: Config, generation: number): Promise<boolean> {
    const runId = ++this.runCounter;
    this.pending[lane] = [];
    this.expected[lane] = { runId, config };
    const shown = this.getLane(lane);
    if (shown) this.setLane(lane, { ...shown, done: false });
    const result = await this.client.run(lane, runId, config, (chunk) => this.receive(chunk), $state.snapshot(this.state.world));
    if (generation !== this.generation) return false;
    this.flushScheduled = true;
    this.flush();
    if (!result.ok) {
      this.notify('error', result.notice);
      return false;
    }
    const run = this.getLane(lane);
    if (run && run.runId === runId) this.setLane(lane, { ...run, done: true, fingerprint: result.value.fingerprint, millis: result.value.millis });
    else this.setLane(lane, { runId, config, steps: [], done: true, fingerprint: result.value.fingerprint, millis: result.value.millis });
    return true;
  }

  private receive(chunk: StepChunk): void {
    const expected = this.expected[chunk.lane];
    if (!expected || expected.runId !== chunk.runId) return; // a stale run's step
    const run = this.getLane(chunk.lane);
    this.pending[chunk.lane].push(...chunk.steps);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // The first step of a run shows at once (slider -> chart latency); later steps are batched
      // into one re-render every FLUSH_MS, which keeps every main-thread task short.
      const first = !run || run.runId !== chunk.runId;
      if (first) requestAnimationFrame(() => this.flush());
      else setTimeout(() => requestAnimationFrame(() => this.flush()), FLUSH_MS);
    }
  }

  /** Moves streamed steps into the lanes (one re-render for all steps received since the last flush). */
  private flush(): void {
    if (!this.flushScheduled) return;
    this.flushScheduled = false;
    for (const lane of ['a', 'b', 'ref'] as const) {
      const steps = this.pending[lane];
      const expected = this.expected[lane];
      if (steps.length === 0 || !expected) continue;
      this.pending[lane] = [];
      const run = this.getLane(lane);
      if (run && run.runId === expected.runId) this.setLane(lane, { ...run, steps: [...run.steps, ...steps] });
      else this.setLane(lane, { runId: expected.runId, config: expected.config, steps, done: false, fingerprint: null, millis: null });
    }
  }

  // ---- on-demand views (latest request wins, one in flight at a time) ----

  private inspectWanted: string | null = null;
  private inspectBusy = false;

  requestInspection(): void {
    const task = this.state.task;
    const lane = this.source === 'imported' ? 'imported' : 'a';
    const step = this.source === 'imported' ? (this.imported?.step ?? 0) : this.currentStep;
    const ready = this.source === 'imported' ? this.imported !== null : this.a?.done === true;
    if (task === null || !ready || !this.dataset || task >= this.dataset.tasks.length) {
      this.inspectWanted = null;
      if (task === null) this.inspection = null;
      return;
    }
    this.inspectWanted = JSON.stringify([lane, step, task, this.a?.runId]);
    void this.pumpInspection(lane, step, task);
  }

  private async pumpInspection(lane: Lane | 'imported', step: number, task: number): Promise<void> {
    if (this.inspectBusy) return;
    this.inspectBusy = true;
    this.inspecting = true;
    const key = this.inspectWanted;
    try {
      const result = await this.client.inspect(lane, step, task);
      if (key === this.inspectWanted) {
        if (result.ok) {
          this.inspection = result.value;
          this.inspectError = null;
        } else this.inspectError = result.notice;
      }
    } catch (error) {
      if (!(error instanceof Cancelled)) this.inspectError = (error as Error).message;
    } finally {
      this.inspectBusy = false;
      this.inspecting = false;
    }
    if (this.inspectWanted !== null && key !== this.inspectWanted) {
      const [l, s, t] = JSON.parse(this.inspectWanted) as [Lane | 'imported', number, number];
      void this.pumpInspection(l, s, t);
    }
  }

  private poolWanted: string | null = null;
  private poolBusy = false;

  requestPool(): void {
    if (this.source !== 'sim' || !this.a?.done) return;
    const step = this.currentStep;
    this.poolWanted = JSON.stringify([this.a.runId, step]);
    void this.pumpPool();
  }

  private async pumpPool(): Promise<void> {
    if (this.poolBusy || this.poolWanted === null) return;
    this.poolBusy = true;
    const key = this.poolWanted;
    const [, step] = JSON.parse(key) as [number, number];
    try {
      const snapshot = await this.client.pool('a', step);
      if (key === this.poolWanted) this.pool = snapshot;
    } catch (error) {
      if (!(error instanceof Cancelled)) this.notify('error', `pool: ${(error as Error).message}`);
    } finally {
      this.poolBusy = false;
    }
    if (this.poolWanted !== key) void this.pumpPool();
  }

  // ---- import ----

  async importFiles(files: File[]): Promise<void> {
    const graphFile = files.find((f) => /\.(json|bin)$/i.test(f.name) && !/\.jsonl$/i.test(f.name));
    const historyFile = files.find((f) => /\.jsonl$/i.test(f.name));
    const unknown = files.filter((f) => f !== graphFile && f !== historyFile);
    for (const f of unknown) this.notify('error', `${f.name}: not a graph (.json, .bin) or history (.jsonl) file; ignored`);
    try {
      await this.importGraphAndHistory(graphFile, historyFile);
    } catch (error) {
      // A failed worker is reported by recover(); anything else names the file.
      if (!(error instanceof Cancelled)) this.notify('error', `${(graphFile ?? historyFile)?.name ?? 'import'}: ${(error as Error).message}`);
    }
  }

  private async importGraphAndHistory(graphFile: File | undefined, historyFile: File | undefined): Promise<void> {
    if (graphFile) {
      this.generation++;
      const bytes = new Uint8Array(await graphFile.arrayBuffer());
      const result = await this.client.loadGraphFile(bytes, graphFile.name);
      if (!result.ok) {
        this.notify('error', result.notice);
        return;
      }
      this.dataset = result.value;
      this.loadedDataset = null;
      this.a = null;
      this.b = null;
      this.ref = null;
      this.pool = null;
      this.imported = null;
      this.inspection = null;
      this.source = 'imported';
      this.notify('info', `${graphFile.name}: ${result.value.tasks.length} tasks in ${result.value.envs.length} environments loaded${historyFile ? '' : '; now add a history (.jsonl)'}`);
    }
    if (historyFile) {
      if (!this.dataset || (this.source !== 'imported' && !graphFile)) {
        if (!this.dataset) {
          this.notify('error', `${historyFile.name}: load a graph file first (or together)`);
          return;
        }
      }
      const text = await historyFile.text();
      const config = $state.snapshot(this.state.a) as Config;
      const result = await this.client.importHistory(text, historyFile.name, config);
      if (!result.ok) {
        this.notify('error', result.notice);
        return;
      }
      this.source = 'imported';
      this.imported = result.value;
      this.inspection = null;
      this.state.task = result.value.batchTasks[0] ?? 0;
      this.notify('info', `${historyFile.name}: ${result.value.observations} groups scored; the batch for step ${result.value.step} is shown`);
      this.requestInspection();
    }
  }

  /** Back from imported data to the bundled dataset of the configuration. */
  backToSimulation(): void {
    this.loadedDataset = null;
    this.source = 'sim';
    this.imported = null;
    this.inspection = null;
    void this.rerun();
  }

  async runReproduce(seeds: number, steps: number, table4Runs: number): Promise<void> {
    // Interrupting a busy worker loses its recorded lanes: recompute them afterwards.
    const lost = this.client.busy;
    this.generation++;
    this.reproduce = { running: true, done: 0, total: 1, label: 'starting', result: null };
    try {
      await this.client.interrupt();
      const config = $state.snapshot(this.state.a) as Config;
      const result = await this.client.reproduce(config, seeds, steps, table4Runs, (done, total, label) => {
        this.reproduce = { ...this.reproduce, done, total, label };
      }, $state.snapshot(this.state.world));
      if (!result.ok) this.notify('error', result.notice);
      this.reproduce = { ...this.reproduce, running: false, result: result.ok ? result.value : null };
    } catch (error) {
      this.reproduce = { ...this.reproduce, running: false };
      if (!(error instanceof Cancelled)) this.notify('error', `reproduce: ${(error as Error).message}`);
    }
    if (lost && this.source === 'sim') void this.rerun();
  }

  /** Text of the explain box (hover or focus on any knob or view). */
  explain: string = $state('');
}
