// Browser side of the scale check (bench/browser/run-chromium.mjs): a large pool (100K tasks,
// bench/lib) simulated for 50 steps in the page's main thread with the app's engine code and
// build/envsched.wasm, timed step by step; the figures are POSTed to the runner's server.
import wasmUrl from '../../build/envsched.wasm?url';
import { DEFAULT_CONFIG } from '../../src/engine/config.ts';
import { decodeGraphBinary } from '../../src/engine/graph-binary.ts';
import type { Config, LoadedGraph } from '../../src/engine/types.ts';
import { instantiateEnvsched } from '../../src/engine/wasm/loader.ts';
import { SimulationRun } from '../../src/sim/run.ts';
import { instantiateSimWasm } from '../../src/sim/wasm.ts';
import type { BrowserSimReport } from './protocol.ts';

const params = new URLSearchParams(location.search);
const steps = Number(params.get('steps') ?? 50);
const status = document.getElementById('status') as HTMLElement;

function heapUsed(): number | null {
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return memory ? memory.usedJSHeapSize : null;
}

async function report(body: BrowserSimReport): Promise<void> {
  await fetch('/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Fetches and decodes the graph; the fetched bytes are garbage once this returns (417 MB at 100K). */
async function fetchGraph(): Promise<{ loaded: LoadedGraph; fetched: number; decoded: number }> {
  const start = performance.now();
  const response = await fetch('/graph.bin');
  if (!response.ok) throw new Error(`GET /graph.bin: ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const fetched = performance.now() - start;
  status.textContent = 'decoding the graph';
  const loaded = decodeGraphBinary(bytes, 'bench graph');
  return { loaded, fetched, decoded: performance.now() - start - fetched };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const module = await WebAssembly.compileStreaming(fetch(wasmUrl));
  const { loaded, fetched, decoded } = await fetchGraph();
  const t2 = performance.now();
  const config: Config = {
    ...DEFAULT_CONFIG,
    alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'],
    scheduler: 'envsched',
    seed: 1,
    T: steps,
    dataset: 'bench',
  };
  const wasm = { sim: await instantiateSimWasm({ module }), scheduler: await instantiateEnvsched(module) };
  const run = new SimulationRun(wasm, loaded, config, 'bench graph');
  const t3 = performance.now();
  const stepMs: number[] = [];
  let meanRewardLast = NaN;
  for (let s = 0; s < steps; s++) {
    status.textContent = `step ${s}`;
    const a = performance.now();
    meanRewardLast = run.step().metrics.meanReward;
    stepMs.push(performance.now() - a);
  }
  const result = run.result();
  await report({
    userAgent: navigator.userAgent,
    tasks: loaded.packed.nTasks,
    steps,
    fetchMs: fetched,
    decodeMs: decoded,
    setupMs: t3 - t2,
    stepMs,
    totalMs: performance.now() - t0,
    fingerprint: result.fingerprint,
    meanRewardLast,
    wasmBytes: wasm.sim.memory.buffer.byteLength + wasm.scheduler.exports.memory.buffer.byteLength,
    jsHeapUsed: heapUsed(),
  });
  status.textContent = 'done';
}

main().catch(async (error: unknown) => {
  const message = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  status.textContent = `failed: ${message}`;
  await report({
    userAgent: navigator.userAgent,
    tasks: 0,
    steps: 0,
    fetchMs: 0,
    decodeMs: 0,
    setupMs: 0,
    stepMs: [],
    totalMs: 0,
    fingerprint: '',
    meanRewardLast: NaN,
    wasmBytes: 0,
    jsHeapUsed: null,
    error: message,
  });
});
