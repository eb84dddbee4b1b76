// The engine worker: every WASM call of the app happens here, never on the page's thread.
// The page talks to it through comlink (api.ts). Runs stream their steps back as they are
// computed, a slice (~SLICE_MS) at a time; between slices the worker returns to its event loop, so
// `cancel()` is heard and a cancelled run stops within one slice (it aborts the runs' AbortSignal).
// The page keeps terminate-and-respawn as the fallback for calls that do not yield (client.ts).
import * as Comlink from 'comlink';
import { createSchedulerFromModule, loadedGraph } from '../api/create.ts';
import { decodeGraphBytes } from '../engine/graph-bytes.ts';
import { serializeGraphJson, unpackGraph } from '../engine/graph-json.ts';
import { parseHistoryJsonl, serializeHistoryJsonl, taskIndexOf, defaultScoreStep } from '../engine/history.ts';
import { SCORABLE_SCHEDULERS, type Config, type Graph, type LoadedGraph, type Observation } from '../engine/types.ts';
import { compileEnvschedFromUrl, instantiateEnvsched, nativeMathOf, prepareScheduler, WasmScheduler } from '../engine/wasm/index.ts';
import { scorePool } from '../engine/pool-scores.ts';
import { JS_MATH, type ScalarMath } from '../reference/math.ts';
import { reproduce } from '../sim/reproduce.ts';
import { runToCsv, runToJson } from '../sim/run-output.ts';
import { DEFAULT_SIM_MODEL } from '../sim/model-params.ts';
import type { RunWasm } from '../sim/run.ts';
import { instantiateSimWasm } from '../sim/wasm.ts';
import { InputError } from '../engine/errors.ts';
import type { DatasetInfo, EngineApi, ImportedScores, Inspection, Lane, Result, RunDone, StepChunk, StepRecord } from './api.ts';
import type { Faults } from './faults.ts';
import { cancelled, failureOf, fetchBundledGraph, fetchCatalog, isWasmFault, noticeOf } from './host.ts';
import { RunSession } from './run-session.ts';
import { batchWhyOf, explainApi, taskWhy } from './explain.ts';
import { analyseStep, explainTaskAt, PreparedHistory, type StepAnalysis } from './step-analysis.ts';

let module: WebAssembly.Module | null = null;
/** The inspector's reference runs on the module's own exp / pow / log once init has run. */
let referenceMath: ScalarMath = JS_MATH;
let base = '';
let loaded: LoadedGraph | null = null;
let info: DatasetInfo | null = null;
let graph: Graph | null = null;
const lanes = new Map<Lane, RunSession>();
/** Aborted (and replaced) by cancel(): a run started under it stops at its next slice boundary. */
let runs = new AbortController();
/** Steps are computed in slices of about this many ms, then streamed and the event loop runs. */
const SLICE_MS = 40;

/** Lets queued messages (cancel, pool, inspect) run: a MessageChannel task, no 4 ms timer clamp. */
const yieldChannel = new MessageChannel();
const yieldQueue: (() => void)[] = [];
yieldChannel.port1.onmessage = () => yieldQueue.shift()?.();
function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => {
    yieldQueue.push(resolve);
    yieldChannel.port2.postMessage(0);
  });
}
let imported: { observations: Observation[]; config: Config; step: number } | null = null;

/** The last few analyses (one per lane and step): the inspector re-reads them on every hover. */
const analyses = new Map<string, StepAnalysis>();
const ANALYSIS_CACHE = 6;

/**
 * Explain mode's and the inspector's own scheduler instance: the graph loaded once, the history
 * of the lane last analysed (scoring any step t of it reads the observations s < t only).
 */
let explainWasm: { scheduler: WasmScheduler; history: PreparedHistory | null } | null = null;
/** The indexed histories of lane A's run and of the import (per run, not per step). */
const prepared = new Map<Lane | 'imported', PreparedHistory>();

/** Bad input becomes a notice; a WASM fault is thrown on to the page, which replaces this worker (docs/reliability.md). */
function fail(error: unknown, fallbackSource: string): Result<never> {
  if (isWasmFault(error)) throw error;
  return failureOf(error, fallbackSource);
}

/**
 * The fault-injection hooks of the faults e2e test (docs/reliability.md): only in a test build
 * (VITE_ENVSCHED_TEST_HOOKS=1). The production bundle leaves them out, module and all.
 */
const faults: Promise<Faults> | null =
  import.meta.env.VITE_ENVSCHED_TEST_HOOKS === '1' ? import('./faults.ts').then((m) => m.createFaults(() => module)) : null;
// (no top-level await: comlink must be listening as soon as the worker starts)

async function newRunWasm(): Promise<RunWasm> {
  if (!module) throw new Error('engine not initialised');
  const sim = await instantiateSimWasm({ module });
  return { sim, scheduler: await instantiateEnvsched(module) };
}

/**
 * The next run's instances, made while the worker is idle with the graph already in the
 * scheduler's memory: a knob change's first step then costs a step, not the ~25 ms of copying and
 * indexing the graph (the slider-to-chart latency). Used once; a run of another graph ignores it.
 */
let spare: { graph: LoadedGraph; wasm: Promise<RunWasm> } | null = null;

function prepareSpare(): void {
  const graph = loaded;
  if (!module || !graph || spare?.graph === graph) return;
  const wasm = newRunWasm().then((w) => {
    prepareScheduler(
      w.scheduler,
      graph.packed,
      graph.meta.tasks.map((t) => t.id),
    );
    return w;
  });
  wasm.catch(() => {}); // a failed spare is simply not used
  spare = { graph, wasm };
}

async function runWasmFor(graph: LoadedGraph): Promise<RunWasm> {
  const ready = spare;
  spare = null;
  if (ready?.graph === graph) {
    try {
      return await ready.wasm;
    } catch {
      // fall through to fresh instances
    }
  }
  return newRunWasm();
}

function describe(l: LoadedGraph, source: string): DatasetInfo {
  const sim = l.meta.sim as { heldout?: { name: string }[] } | undefined;
  return {
    name: l.meta.name,
    source,
    envs: l.meta.envs.map((e) => ({ id: e.id, name: e.name, category: e.category })),
    tasks: l.meta.tasks.map((t) => ({ id: t.id, env: t.env, tools: t.tools, checks: t.checks, text: t.text })),
    simulable: typeof sim === 'object' && sim !== null,
    suites: Array.isArray(sim?.heldout) ? sim.heldout.map((s) => String(s.name)) : [],
  };
}

function setGraph(l: LoadedGraph, source: string): DatasetInfo {
  loaded = l;
  graph = null;
  lanes.clear();
  analyses.clear();
  prepared.clear();
  explainWasm = null;
  imported = null;
  info = describe(l, source);
  spare = null;
  setTimeout(prepareSpare, 0);
  return info;
}

function scorable(config: Config): Config {
  return (SCORABLE_SCHEDULERS as readonly string[]).includes(config.scheduler) ? config : { ...config, scheduler: 'envsched' };
}

function preparedHistory(lane: Lane | 'imported', observations: readonly Observation[]): PreparedHistory {
  let p = prepared.get(lane);
  if (p?.observations !== observations) {
    p = new PreparedHistory(observations, loaded!.packed.nTasks);
    prepared.set(lane, p);
  }
  return p;
}

/** The explain instance with `history` stored (loading the graph the first time). */
async function explainScheduler(history: PreparedHistory): Promise<WasmScheduler> {
  if (!explainWasm) {
    const scheduler = new WasmScheduler(await instantiateEnvsched(module!));
    scheduler.loadGraph(
      loaded!.packed,
      loaded!.meta.tasks.map((t) => t.id),
    );
    explainWasm = { scheduler, history: null };
  }
  if (explainWasm.history !== history) {
    explainWasm.scheduler.setHistory(history.observations);
    explainWasm.history = history;
  }
  return explainWasm.scheduler;
}

async function cachedAnalysis(
  key: string,
  lane: Lane | 'imported',
  observations: readonly Observation[],
  config: Config,
  step: number,
): Promise<StepAnalysis> {
  let a = analyses.get(key);
  if (a) {
    analyses.delete(key);
    analyses.set(key, a); // most recently used last
    return a;
  }
  graph ??= unpackGraph(loaded!);
  const history = preparedHistory(lane, observations);
  const pool = scorePool(await explainScheduler(history), config, step);
  a = analyseStep(graph, history, config, pool, referenceMath);
  analyses.set(key, a);
  while (analyses.size > ANALYSIS_CACHE) analyses.delete(analyses.keys().next().value!);
  return a;
}

/** Bumped by every run: a background preparation that sees it change gives way. */
let preparation = 0;
/** The preparation waits this long after a run or an import, so a knob changed right away runs first. */
const PREPARE_AFTER_MS = 300;
/** How many of the history's last steps the preparation analyses. */
const WARM_STEPS = 3;

/**
 * Done while the worker is idle after a run or an import: what every step's analysis of that
 * history shares (the readable graph, the explain instance with the history, the progress
 * filter's residuals, the replay's similarity index), by analysing its last few steps and
 * explaining one pick of each (which also compiles and optimises that code). In parts, yielding
 * between them and giving way to any run and to any view's request. Per graph and per history,
 * never per step: any other step the user opens is still analysed when asked (bench/explain.mjs
 * measures that case).
 */
function prepareInBackground(lane: Lane | 'imported', step: number): void {
  const mine = ++preparation;
  const gaveWay = async () => {
    await yieldToEvents();
    return mine !== preparation;
  };
  setTimeout(() => {
    void (async () => {
      const source = laneHistory(lane);
      if (!loaded || !source.ok || mine !== preparation) return;
      const { observations, config } = source.value;
      graph ??= unpackGraph(loaded);
      if (await gaveWay()) return;
      const history = preparedHistory(lane, observations);
      await explainScheduler(history);
      if (await gaveWay()) return;
      history.transitions(graph, config.lambda_ridge, referenceMath);
      if (await gaveWay()) return;
      // The last steps of the history: the first compiles the analysis, the replay takes a few
      // runs before the engine optimises its loops.
      for (let s = step; s > Math.max(0, step - WARM_STEPS); s--) {
        const got = await laneAnalysis(lane, s, true);
        if (!got.ok || (await gaveWay())) return;
        const { analysis } = got.value;
        const why = batchWhyOf(graph, config, analysis);
        if (await gaveWay()) return;
        const task = why.batch.picks[0]?.task ?? 0;
        explainTaskAt(graph, analysis, config, referenceMath, task);
        why.leftOutOf((task + 1) % graph.tasks.length);
        if (await gaveWay()) return;
      }
    })().catch(() => {
      // Nothing to report here: the same work runs again, with its error shown, when a view asks.
    });
  }, PREPARE_AFTER_MS);
}

/** A lane's history and configuration (scored as SPEC 12 allows), or why there is none. */
function laneHistory(lane: Lane | 'imported'): Result<{ observations: readonly Observation[]; config: Config; runId: number }> {
  if (!loaded) return noticeOf('no graph loaded');
  if (lane === 'imported') {
    if (!imported) return noticeOf('no history imported');
    return { ok: true, value: { observations: imported.observations, config: scorable(imported.config), runId: 0 } };
  }
  const r = lanes.get(lane);
  if (!r) return noticeOf(`no run in lane ${lane}`);
  return { ok: true, value: { observations: r.observations, config: scorable(r.config), runId: r.runId } };
}

/** The (cached) analysis of a lane's history at `step`, with that history and the configuration scored. */
async function laneAnalysis(
  lane: Lane | 'imported',
  step: number,
  background = false,
): Promise<Result<{ observations: readonly Observation[]; config: Config; analysis: StepAnalysis }>> {
  if (!background) preparation++; // a view asks: the background preparation gives way
  const got = laneHistory(lane);
  if (!got.ok) return got;
  const { observations, config, runId } = got.value;
  const analysis = await cachedAnalysis(`${lane}:${runId}:${step}:${JSON.stringify(config)}`, lane, observations, config, step);
  return { ok: true, value: { observations, config, analysis } };
}

const api: EngineApi = {
  async init(wasmUrl, baseUrl) {
    base = baseUrl;
    if (module) return;
    module = await compileEnvschedFromUrl(wasmUrl);
    // The inspector's reference scheduler uses the WASM module's own exp / pow / log, so its
    // numbers equal the kernels' (and `envsched score`'s) to the last bit.
    referenceMath = nativeMathOf(await instantiateEnvsched(module));
  },

  async datasetNames() {
    return (await fetchCatalog(base)).map((d) => d.name);
  },

  async loadDataset(name) {
    try {
      const { loaded: l } = await fetchBundledGraph(base, name);
      return { ok: true, value: setGraph(l, name) };
    } catch (error) {
      return fail(error, name);
    }
  },

  async loadGraphFile(bytes, fileName) {
    try {
      await (await faults)?.fire();
      return { ok: true, value: setGraph(decodeGraphBytes(bytes, fileName), fileName) };
    } catch (error) {
      return fail(error, fileName);
    }
  },

  async run(lane, runId, config, onChunk, world) {
    try {
      if (!loaded || !info) return noticeOf('no graph loaded');
      if (!info.simulable)
        throw new InputError(info.source, 'sim', 'this graph has no simulator parameters, so it can be scored but not simulated (SPEC 12)');
      const signal = runs.signal;
      const started = performance.now();
      preparation++; // a background preparation gives way to the run
      const wasm = await runWasmFor(loaded);
      lanes.delete(lane);
      for (const key of [...analyses.keys()]) if (key.startsWith(`${lane}:`)) analyses.delete(key);
      const session = new RunSession(wasm, loaded, config, runId, info.source, { ...DEFAULT_SIM_MODEL, ...world });
      // The first step goes out alone (slider -> first chart); later ones in one message per slice.
      let slice = 1;
      while (!session.done) {
        const sliceStart = performance.now();
        const steps: StepRecord[] = [];
        do steps.push(session.step());
        while (!session.done && steps.length < slice && performance.now() - sliceStart < SLICE_MS);
        slice = Infinity;
        void onChunk({ lane, runId, steps } satisfies StepChunk);
        await (await faults)?.fire();
        if (session.done) break;
        await yieldToEvents();
        if (signal.aborted) return cancelled();
      }
      lanes.set(lane, session);
      setTimeout(prepareSpare, 0); // after this answer has gone out
      // Lane A is the one Explain and the inspector read (a later run of another lane, such as the
      // random reference, would otherwise have cut its preparation short).
      const a = lanes.get('a');
      if (a) prepareInBackground('a', a.stepsDone - 1);
      const done: RunDone = {
        lane,
        runId,
        fingerprint: session.result!.fingerprint,
        steps: session.stepsDone,
        millis: performance.now() - started,
      };
      return { ok: true, value: done };
    } catch (error) {
      return fail(error, 'run');
    }
  },

  async cancel() {
    runs.abort();
    runs = new AbortController();
  },

  async ping() {
    return performance.now();
  },

  async armFault(kind) {
    if (!faults) throw new Error('this build has no fault hooks (they are built in only with VITE_ENVSCHED_TEST_HOOKS=1)');
    (await faults).arm(kind);
  },

  async pool(lane, step) {
    const snapshot = lanes.get(lane)?.pool(step);
    if (!snapshot) return null;
    return Comlink.transfer(snapshot, [
      snapshot.truth.buffer,
      snapshot.truthMean.buffer,
      ...(snapshot.predicted ? [snapshot.predicted.buffer] : []),
    ]);
  },

  async inspect(lane, step, task) {
    try {
      const started = performance.now();
      const got = await laneAnalysis(lane, step);
      if (!got.ok) return got;
      const { observations, config: scored, analysis } = got.value;
      const truth: Inspection['truth'] = lane === 'imported' ? null : (lanes.get(lane)?.truthAt(step, task) ?? null);
      const explanation = explainTaskAt(graph!, analysis, scored, referenceMath, task);
      const rolled = observations.find((o) => o.step === step && o.task === task);
      const value: Inspection = {
        lane: lane === 'imported' ? 'a' : lane,
        step,
        task,
        scoredAs: scored.scheduler,
        explanation,
        why: taskWhy(graph!, scored, analysis, task),
        truth,
        rollouts: rolled ? (rolled.flags ? { rewards: rolled.rewards, flags: rolled.flags } : { rewards: rolled.rewards }) : null,
        millis: performance.now() - started,
      };
      return { ok: true, value };
    } catch (error) {
      return fail(error, 'inspector');
    }
  },

  ...explainApi({ graph: () => (loaded ? (graph ??= unpackGraph(loaded)) : null), math: () => referenceMath, analysisAt: laneAnalysis }),

  async exportHistory(lane, beforeStep) {
    const r = lanes.get(lane);
    if (!r || !loaded) return '';
    return serializeHistoryJsonl(
      r.observations.filter((o) => o.step < beforeStep),
      loaded.meta.tasks.map((t) => t.id),
    );
  },

  async exportGraphJson() {
    if (!loaded) return '';
    graph ??= unpackGraph(loaded);
    return serializeGraphJson(graph);
  },

  async exportRun(lane) {
    const r = lanes.get(lane);
    if (!r?.result) return null;
    return { json: runToJson(r.result), csv: runToCsv(r.result) };
  },

  async importHistory(text, fileName, config) {
    try {
      if (!loaded) return noticeOf(`${fileName}: load a graph first`);
      const observations = parseHistoryJsonl(text, fileName, taskIndexOf(loaded.meta));
      const scored = scorable(config);
      const step = defaultScoreStep(observations);
      const scheduler = await createSchedulerFromModule(module!, loadedGraph(loaded), scored, fileName, observations);
      const scores = scheduler.fullScores(step);
      imported = { observations, config: scored, step };
      for (const key of [...analyses.keys()]) if (key.startsWith('imported:')) analyses.delete(key);
      prepareInBackground('imported', step);
      const index = taskIndexOf(loaded.meta);
      const value: ImportedScores = {
        step,
        observations: observations.length,
        batch: scores.batch,
        batchTasks: scores.batch.map((b) => index.get(b.id)!),
        relaxed: scores.relaxed,
        removed: scores.tasks.filter((t) => t.removed).length,
        progressExcluded: scores.tasks.filter((t) => t.progressExcluded).length,
      };
      return { ok: true, value };
    } catch (error) {
      return fail(error, fileName);
    }
  },

  async reproduce(config, seeds, steps, table4Runs, onProgress, world) {
    try {
      if (!loaded || !info?.simulable) return noticeOf('reproduce needs a dataset with simulator parameters');
      const result = await reproduce(newRunWasm, loaded, config, info.source, {
        seeds,
        steps,
        table4Runs,
        model: { ...DEFAULT_SIM_MODEL, ...world },
        onProgress: (done, total, label) => void onProgress(done, total, label),
      });
      return { ok: true, value: result };
    } catch (error) {
      return fail(error, 'reproduce');
    }
  },
};

Comlink.expose(api);
