// Simulator benchmark: a 200-step default run (EnvSched, B = 64, K = 8) on envscaler-rl,
// or on the synthetic 51 x 50 pool when that dataset is not built, and the time per step of every
// scheduler, and (bench/browser/run-chromium.mjs) a 100K pool simulated for 50 steps in headless
// Chromium. Reads the compiled CLI modules in dist/ (npm run build:node). `run()` returns rows
// {name, value, unit} for bench/run.mjs; `node bench/simulate.mjs` prints them.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;

export async function run() {
  const { loadDataset, datasetCandidates, SYNTHETIC_DATASET } = await import(dist('sim/dataset-node.js'));
  const { loadRunWasmNode } = await import(dist('sim/wasm-node.js'));
  const { runSimulation } = await import(dist('sim/run.js'));
  const { DEFAULT_CONFIG } = await import(dist('engine/config.js'));
  const { REPRODUCE_SCHEDULERS } = await import(dist('sim/reproduce.js')); // every scheduler, in the tables' order
  const name = datasetCandidates('envscaler-rl').some((p) => existsSync(p)) ? 'envscaler-rl' : SYNTHETIC_DATASET;
  const { loaded, source } = await loadDataset(name);
  const rows = [];
  const timed = async (scheduler, steps) => {
    const wasm = await loadRunWasmNode();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const result = runSimulation(wasm, loaded, { ...DEFAULT_CONFIG, scheduler, seed: 1, T: steps }, source);
    const c = process.cpuUsage(c0);
    return { ms: performance.now() - t0, cpuMs: (c.user + c.system) / 1000, result };
  };
  await timed('envsched', 5); // warm-up (JIT)
  const best = [];
  for (let k = 0; k < 3; k++) best.push(await timed('envsched', 200));
  best.sort((a, b) => a.ms - b.ms);
  rows.push({
    name: `simulate: 200-step default run (envsched, B=64, K=8) on ${name}`,
    value: +best[0].ms.toFixed(1),
    unit: 'ms',
    target: '<= 500 ms',
  });
  rows.push({ name: 'simulate: the same run, CPU time (this process)', value: +best[0].cpuMs.toFixed(1), unit: 'ms' });
  rows.push({ name: 'simulate: the same run, fingerprint', value: best[0].result.fingerprint, unit: '' });
  for (const scheduler of REPRODUCE_SCHEDULERS) {
    const { ms } = await timed(scheduler, 200);
    rows.push({
      name: `simulate: time per step, ${scheduler} (simulator + metrics included)`,
      value: +(ms / 200).toFixed(3),
      unit: 'ms/step',
    });
  }
  // Scale: a 100K pool, 50 steps in headless Chromium (bench/browser/); SIMULATE_BROWSER=0 skips it.
  if (process.env.SIMULATE_BROWSER !== '0') {
    const { run: runBrowser } = await import('./browser/run-chromium.mjs');
    rows.push(...(await runBrowser(50)));
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const row of await run()) console.log(`${row.name}: ${row.value} ${row.unit}`);
}
