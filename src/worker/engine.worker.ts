// The engine worker: every WASM call of the app happens here, never on the page's thread.
// The page talks to it through comlink (api.ts). Runs stream their steps back as they are
// computed, a slice (~SLICE_MS) at a time; between slices the worker returns to its event loop, so
// `cancel()` is heard and a cancelled run stops within one slice (a generation counter). The page
// keeps terminate-and-respawn as the fallback for calls that do not yield (client.ts).
import * as Comlink from 'comlink';
import { isInputError } from '../engine/errors.ts';
import { decodeGraphBinary } from '../engine/graph-binary.ts';
import { loadGraphJson, serializeGraphJson, unpackGraph } from '../engine/graph-json.ts';
import { parseHistoryJsonl, serializeHistoryJsonl, taskIndexOf, defaultScoreStep } from '../engine/history.ts';
import { SCORABLE_SCHEDULERS, type Config, type Graph, type LoadedGraph, type Observation } from '../engine/types.ts';
import { compileEnvschedFromUrl, instantiateEnvsched, nativeMathOf, WasmScheduler } from '../engine/wasm/index.ts';
import { analyse, explainFromAnalysis, type Analysis } from '../reference/index.ts';
import { JS_MATH, type ScalarMath } from '../reference/math.ts';
import { reproduce } from '../sim/reproduce.ts';
import { runToCsv, runToJson } from '../sim/run-output.ts';
import type { RunWasm } from '../sim/run.ts';
import { instantiateSimWasm } from '../sim/wasm.ts';
import type { DatasetInfo, EngineApi, FaultKind, ImportedScores, Inspection, Lane, Result, RunDone, StepChunk, StepRecord } from './api.ts';
import { RunSession } from './run-session.ts';

let module: WebAssembly.Module | null = null;
/** The inspector's reference runs on the module's own exp / pow / log once init has run. */
let referenceMath: ScalarMath = JS_MATH;
let base = '';
let loaded: LoadedGraph | null = null;
let info: DatasetInfo | null = null;
let graph: Graph | null = null;
const lanes = new Map<Lane, RunSession>();
/** Bumped by cancel(): a run started under an older value stops at its next slice boundary. */
let cancelGeneration = 0;
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
const analyses = new Map<string, Analysis>();
const ANALYSIS_CACHE = 6;

/**
 * Bad input becomes a notice. A trap, a WASM abort or a failed allocation is not bad input: the
 * engine's state after it is unknown, so it is thrown on to the page, which replaces this worker
 * (client.ts, faults in docs/reliability.md).
 */
function fail<T>(error: unknown, fallbackSource: string): Result<T> {
  if (isEngineFault(error)) throw error;
  if (isInputError(error)) return { ok: false, notice: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, notice: `${fallbackSource}: ${message}` };
}

function isEngineFault(error: unknown): boolean {
  return error instanceof WebAssembly.RuntimeError || error instanceof RangeError || (error instanceof Error && error.name === 'WasmAbort');
}

/** A fault armed by the test hook (armFault); it fires in the next run or graph import. */
let armedFault: FaultKind | null = null;

/** Makes the armed fault happen for real: a WASM trap, a WASM abort, WASM memory exhaustion, an endless loop, or an uncaught error. */
async function fireArmedFault(): Promise<void> {
  const kind = armedFault;
  if (kind === null) return;
  armedFault = null;
  if (kind === 'hang') for (;;); // never returns: only the page's heartbeat notices
  if (kind === 'crash') {
    // Thrown outside any comlink call: the page sees the worker's 'error' event.
    setTimeout(() => {
      throw new Error('deliberate crash (test hook)');
    });
    return new Promise<never>(() => {}); // a crashed worker finishes nothing
  }
  const wasm = await instantiateEnvsched(module!);
  const raw = wasm.instance.exports as unknown as { rng_restore(ptr: number): void };
  if (kind === 'trap') raw.rng_restore(0xfffffff0); // RuntimeError: memory access out of bounds
  if (kind === 'abort') wasm.exports.mem_alloc(0xfffffff0); // the stub runtime aborts: allocation too large
  if (kind === 'oom') {
    // Grow the linear memory half a GiB at a time until the browser refuses (the stub runtime then
    // traps with `unreachable`); this allocation loop knows that trap means "out of memory".
    try {
      for (;;) wasm.exports.mem_alloc(0x20000000);
    } catch (error) {
      const mib = Math.round(wasm.memory.buffer.byteLength / 1048576);
      throw new RangeError(`out of memory: WebAssembly memory could not grow beyond ${mib} MiB (${(error as Error).message})`);
    }
  }
}

async function newRunWasm(): Promise<RunWasm> {
  if (!module) throw new Error('engine not initialised');
  const sim = await instantiateSimWasm({ module });
  return { sim, scheduler: await instantiateEnvsched(module) };
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
  imported = null;
  info = describe(l, source);
  return info;
}

function decode(bytes: Uint8Array, fileName: string): LoadedGraph {
  // A binary graph starts with "ESGB"; anything else is read as JSON text.
  const isBinary = bytes.length >= 4 && bytes[0] === 0x45 && bytes[1] === 0x53 && bytes[2] === 0x47 && bytes[3] === 0x42;
  return isBinary ? decodeGraphBinary(bytes, fileName) : loadGraphJson(new TextDecoder().decode(bytes), fileName);
}

function scorable(config: Config): Config {
  return (SCORABLE_SCHEDULERS as readonly string[]).includes(config.scheduler) ? config : { ...config, scheduler: 'envsched' };
}

function cachedAnalysis(key: string, observations: readonly Observation[], config: Config, step: number): Analysis {
  let a = analyses.get(key);
  if (a) {
    analyses.delete(key);
    analyses.set(key, a); // most recently used last
    return a;
  }
  graph ??= unpackGraph(loaded!);
  a = analyse(graph, observations, config, step, referenceMath);
  analyses.set(key, a);
  while (analyses.size > ANALYSIS_CACHE) analyses.delete(analyses.keys().next().value!);
  return a;
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
    const response = await fetch(new URL('datasets/catalog.json', base));
    if (!response.ok) return [];
    const catalog = (await response.json()) as { datasets: { name: string }[] };
    return catalog.datasets.map((d) => d.name);
  },

  async loadDataset(name) {
    try {
      const response = await fetch(new URL('datasets/catalog.json', base));
      const catalog = response.ok ? ((await response.json()) as { datasets: { name: string; file: string }[] }) : { datasets: [] };
      const entry = catalog.datasets.find((d) => d.name === name);
      if (!entry) return { ok: false, notice: `url:dataset: no bundled dataset named ${JSON.stringify(name)} (available: ${catalog.datasets.map((d) => d.name).join(', ') || 'none'})` };
      const file = await fetch(new URL(`datasets/${entry.file}`, base));
      if (!file.ok) return { ok: false, notice: `datasets/${entry.file}: HTTP ${file.status}` };
      const l = decode(new Uint8Array(await file.arrayBuffer()), entry.file);
      return { ok: true, value: setGraph(l, name) };
    } catch (error) {
      return fail(error, name);
    }
  },

  async loadGraphFile(bytes, fileName) {
    try {
      await fireArmedFault();
      return { ok: true, value: setGraph(decode(bytes, fileName), fileName) };
    } catch (error) {
      return fail(error, fileName);
    }
  },

  async run(lane, runId, config, onChunk) {
    try {
      if (!loaded || !info) return { ok: false, notice: 'no graph loaded' };
      if (!info.simulable) return { ok: false, notice: `${info.source}:sim: this graph has no simulator parameters, so it can be scored but not simulated (SPEC 12)` };
      const generation = cancelGeneration;
      const started = performance.now();
      const wasm = await newRunWasm();
      lanes.delete(lane);
      for (const key of [...analyses.keys()]) if (key.startsWith(`${lane}:`)) analyses.delete(key);
      const session = new RunSession(wasm, loaded, config, runId, info.source);
      // The first step goes out alone (slider -> first chart); later ones in one message per slice.
      let slice = 1;
      while (!session.done) {
        const sliceStart = performance.now();
        const steps: StepRecord[] = [];
        do steps.push(session.step());
        while (!session.done && steps.length < slice && performance.now() - sliceStart < SLICE_MS);
        slice = Infinity;
        void onChunk({ lane, runId, steps } satisfies StepChunk);
        await fireArmedFault();
        if (session.done) break;
        await yieldToEvents();
        if (generation !== cancelGeneration) return { ok: false, notice: 'run cancelled', cancelled: true };
      }
      lanes.set(lane, session);
      const done: RunDone = { lane, runId, fingerprint: session.result!.fingerprint, steps: session.stepsDone, millis: performance.now() - started };
      return { ok: true, value: done };
    } catch (error) {
      return fail(error, 'run');
    }
  },

  async cancel() {
    cancelGeneration++;
  },

  async ping() {
    return performance.now();
  },

  async armFault(kind) {
    armedFault = kind;
  },

  async pool(lane, step) {
    const snapshot = lanes.get(lane)?.pool(step);
    if (!snapshot) return null;
    return Comlink.transfer(snapshot, [snapshot.truth.buffer, snapshot.truthMean.buffer, ...(snapshot.predicted ? [snapshot.predicted.buffer] : [])]);
  },

  async inspect(lane, step, task) {
    try {
      if (!loaded) return { ok: false, notice: 'no graph loaded' };
      const started = performance.now();
      let observations: readonly Observation[];
      let config: Config;
      let truth: Inspection['truth'] = null;
      let runId = 0;
      if (lane === 'imported') {
        if (!imported) return { ok: false, notice: 'no history imported' };
        observations = imported.observations;
        config = imported.config;
      } else {
        const r = lanes.get(lane);
        if (!r) return { ok: false, notice: `no run in lane ${lane}` };
        observations = r.observations;
        config = r.config;
        runId = r.runId;
        truth = r.truthAt(step, task);
      }
      const scored = scorable(config);
      const analysis = cachedAnalysis(`${lane}:${runId}:${step}:${JSON.stringify(scored)}`, observations, scored, step);
      const explanation = explainFromAnalysis(graph!, analysis, task);
      const got = observations.find((o) => o.step === step && o.task === task);
      const value: Inspection = {
        lane: lane === 'imported' ? 'a' : lane,
        step,
        task,
        scoredAs: scored.scheduler,
        explanation,
        truth,
        rollouts: got ? (got.flags ? { rewards: got.rewards, flags: got.flags } : { rewards: got.rewards }) : null,
        millis: performance.now() - started,
      };
      return { ok: true, value };
    } catch (error) {
      return fail(error, 'inspector');
    }
  },

  async exportHistory(lane, beforeStep) {
    const r = lanes.get(lane);
    if (!r || !loaded) return '';
    return serializeHistoryJsonl(r.observations.filter((o) => o.step < beforeStep), loaded.meta.tasks.map((t) => t.id));
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
      if (!loaded) return { ok: false, notice: `${fileName}: load a graph first` };
      const observations = parseHistoryJsonl(text, fileName, taskIndexOf(loaded.meta));
      const scored = scorable(config);
      const step = defaultScoreStep(observations);
      const wasm = await instantiateEnvsched(module!);
      const scheduler = new WasmScheduler(wasm);
      scheduler.loadGraph(loaded.packed, loaded.meta.tasks.map((t) => t.id));
      scheduler.setHistory(observations);
      const scores = scheduler.score(scored, step);
      imported = { observations, config: scored, step };
      for (const key of [...analyses.keys()]) if (key.startsWith('imported:')) analyses.delete(key);
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

  async reproduce(config, seeds, steps, table4Runs, onProgress) {
    try {
      if (!loaded || !info?.simulable) return { ok: false, notice: 'reproduce needs a dataset with simulator parameters' };
      const result = await reproduce(newRunWasm, loaded, config, info.source, {
        seeds,
        steps,
        table4Runs,
        onProgress: (done, total, label) => void onProgress(done, total, label),
      });
      return { ok: true, value: result };
    } catch (error) {
      return fail(error, 'reproduce');
    }
  },
};

Comlink.expose(api);
