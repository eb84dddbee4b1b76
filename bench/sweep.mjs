// Sweep benchmark (issue 8): the Table 3(b) preset (K_within in {3,6,12} x K_cross in {6,12,24},
// 3 seeds, 200 steps, envscaler-rl: 27 runs) on the Node worker-thread pool with every worker and
// with one, measured in the same process, and the speed-up. Each measurement starts a fresh pool
// (thread start-up and dataset loading included) and an empty cache. Reads the compiled modules in
// dist/ (npm run build:node). `node bench/sweep.mjs` prints the rows.
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;

export async function run() {
  const { DEFAULT_CONFIG } = await import(dist('engine/config.js'));
  const { findPreset, presetKnobs } = await import(dist('sweep/presets.js'));
  const { NodeSweepPool } = await import(dist('sweep/pool-node.js'));
  const { runSweep } = await import(dist('sweep/runner.js'));
  const definition = {
    knobs: presetKnobs(findPreset('table3b')),
    seeds: 3,
    base: { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha], dataset: 'envscaler-rl', T: 200 },
    // The 27 runs of the preset; steps_to_random_best would add 3 random reference runs.
    metrics: ['final', 'auc', 'mean_variance', 'envs_per_batch', 'tools_per_batch'],
    preset: 'table3b',
  };
  const timed = async (workers) => {
    const pool = new NodeSweepPool(workers);
    const t0 = performance.now();
    const result = await runSweep(definition, pool);
    const seconds = (performance.now() - t0) / 1000;
    await pool.close();
    if (result.runs !== 27 || result.points.length !== 9) throw new Error(`expected 27 runs in 9 points, got ${result.runs} in ${result.points.length}`);
    return { seconds, result };
  };
  const all = availableParallelism();
  const many = await timed(all);
  const one = await timed(1);
  // Same runs, same numbers, whatever the number of workers.
  const same = many.result.points.every((p, k) => p.fingerprints.join() === one.result.points[k].fingerprints.join());
  if (!same) throw new Error('fingerprints differ between the pool sizes');
  return [
    { name: `sweep: Table 3(b) preset, 9 configs x 3 seeds x 200 steps on envscaler-rl, Node, ${all} workers`, value: +many.seconds.toFixed(2), unit: 's', target: '< 10 s on 2 cores' },
    { name: 'sweep: same, Node, 1 worker', value: +one.seconds.toFixed(2), unit: 's' },
    { name: `sweep: speed-up of ${all} workers over 1 (Node)`, value: +(one.seconds / many.seconds).toFixed(2), unit: 'x' },
    { name: 'sweep: time per run, all workers (wall / 27)', value: +((many.seconds / 27) * 1000).toFixed(0), unit: 'ms' },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const row of await run()) console.log(`${row.name}: ${row.value} ${row.unit}${row.target ? ` (target ${row.target})` : ''}`);
}
