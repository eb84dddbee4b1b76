// The browser side of the cross-engine determinism test (test/cross-engine.test.ts): fetches the
// cases from the local test server, runs each simulation with the same engine code and WASM module
// as Node (src/sim/run.ts over build/envsched.wasm), and POSTs the run fingerprints back. The page
// reports by itself, so a browser that cannot be driven (Firefox ESR) needs only to open the URL.
import wasmUrl from '../../build/envsched.wasm?url';
import { DEFAULT_CONFIG } from '../../src/engine/config.ts';
import { decodeGraphBinary } from '../../src/engine/graph-binary.ts';
import type { Config, LoadedGraph, SchedulerName } from '../../src/engine/types.ts';
import { instantiateEnvsched } from '../../src/engine/wasm/loader.ts';
import { DEFAULT_SIM_MODEL } from '../../src/sim/model-params.ts';
import { runSimulation } from '../../src/sim/run.ts';
import { instantiateSimWasm } from '../../src/sim/wasm.ts';
import type { CaseResult, CrossEngineCase, EngineReport } from './protocol.ts';

const engine = new URLSearchParams(location.search).get('engine') ?? 'unknown';
const status = document.getElementById('status') as HTMLElement;

async function bytesOf(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return response.arrayBuffer();
}

async function report(body: EngineReport): Promise<void> {
  await fetch('/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function main(): Promise<void> {
  const cases = (await (await fetch('/cases.json')).json()) as CrossEngineCase[];
  const module = await WebAssembly.compile(await bytesOf(wasmUrl));
  const graphs = new Map<string, LoadedGraph>();
  const results: CaseResult[] = [];
  for (const c of cases) {
    status.textContent = `running ${c.key}`;
    let loaded = graphs.get(c.dataset);
    if (!loaded) {
      loaded = decodeGraphBinary(new Uint8Array(await bytesOf(`/data/${c.dataset}.graph.bin`)), c.dataset);
      graphs.set(c.dataset, loaded);
    }
    const config: Config = {
      ...DEFAULT_CONFIG,
      alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'],
      scheduler: c.scheduler as SchedulerName,
      seed: c.seed,
      T: c.steps,
      dataset: c.dataset,
    };
    // A fresh pair of instances per run, as the CLI and the app's worker make them.
    const wasm = { sim: await instantiateSimWasm({ module }), scheduler: await instantiateEnvsched(module) };
    const started = performance.now();
    const run = runSimulation(wasm, loaded, config, c.dataset, { model: { ...DEFAULT_SIM_MODEL, ...c.world } });
    const last = run.steps[run.steps.length - 1];
    results.push({
      key: c.key,
      fingerprint: run.fingerprint,
      lastMeanReward: last ? last.meanReward : NaN,
      millis: performance.now() - started,
    });
  }
  await report({ engine, userAgent: navigator.userAgent, results });
  status.textContent = `done: ${results.length} runs`;
}

main().catch(async (error: unknown) => {
  const message = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  status.textContent = `failed: ${message}`;
  await report({ engine, userAgent: navigator.userAgent, results: [], error: message });
});
