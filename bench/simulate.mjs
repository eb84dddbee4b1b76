// Simulator benchmark (issue 4): a 200-step default run (EnvSched, B = 64, K = 8) on envscaler-rl,
// or on the synthetic 51 x 50 pool when that dataset is not built, and the time per step of every
// scheduler. Reads the compiled CLI modules in dist/ (npm run build:node). `run()` returns rows
// {name, value, unit} for bench/run.mjs; `node bench/simulate.mjs` prints them.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;

export async function run() {
  const { loadDataset, datasetCandidates, SYNTHETIC_DATASET } = await import(dist('sim/dataset-node.js'));
  const { loadRunWasmNode } = await import(dist('sim/wasm-node.js'));
  const { runSimulation } = await import(dist('sim/run.js'));
  const { DEFAULT_CONFIG } = await import(dist('engine/config.js'));
  const name = datasetCandidates('envscaler-rl').some((p) => existsSync(p)) ? 'envscaler-rl' : SYNTHETIC_DATASET;
  const { loaded, source } = await loadDataset(name);
  const rows = [];
  const timed = async (scheduler, steps) => {
    const wasm = await loadRunWasmNode();
    const t0 = performance.now();
    const result = runSimulation(wasm, loaded, { ...DEFAULT_CONFIG, scheduler, seed: 1, T: steps }, source);
    return { ms: performance.now() - t0, result };
  };
  await timed('envsched', 5); // warm-up (JIT)
  const best = [];
  for (let k = 0; k < 3; k++) best.push((await timed('envsched', 200)).ms);
  rows.push({ name: `simulate: 200-step default run (envsched, B=64, K=8) on ${name}`, value: +Math.min(...best).toFixed(1), unit: 'ms', target: '<= 500 ms' });
  for (const scheduler of ['random', 'dapo', 'mopps', 'dps', 'envsched', 'within-only', 'cross-only', 'coverage-only', 'exploitation-only']) {
    const { ms } = await timed(scheduler, 200);
    rows.push({ name: `simulate: time per step, ${scheduler} (simulator + metrics included)`, value: +(ms / 200).toFixed(3), unit: 'ms/step' });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const row of await run()) console.log(`${row.name}: ${row.value} ${row.unit}`);
}
