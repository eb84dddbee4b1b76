// Sweep benchmark: the Table 3(b) preset (K_within in {3,6,12} x K_cross in {6,12,24},
// 3 seeds, 200 steps, envscaler-rl: 27 runs) with every worker and with one, measured in the same
// process, and the speed-up: on the Node worker-thread pool, and in headless Chromium on the Web
// Worker pool (src/ui/sweep/sweep.html built into a temporary directory, served by vite preview).
// Each measurement starts a fresh pool (worker start-up, WASM and dataset loading included) and an
// empty cache; the browser's runs are checked against Node's fingerprints. Reads the compiled
// modules in dist/ (npm run build:node). `node bench/sweep.mjs` prints the rows.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM as HARNESS_CHROMIUM, CHROMIUM_ARGS } from './lib/browser-harness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? HARNESS_CHROMIUM;
const METRICS = ['final', 'auc', 'mean_variance', 'envs_per_batch', 'tools_per_batch'];

async function browserRows(nodeFingerprints) {
  if (!existsSync(CHROMIUM)) return [{ name: `sweep: browser part skipped (${CHROMIUM} missing)`, value: 'n/a', unit: '' }];
  const { build, preview } = await import('vite');
  const { chromium } = await import('playwright-core');
  const outDir = mkdtempSync(join(tmpdir(), 'envsched-sweep-bench-'));
  const configFile = join(ROOT, 'vite.config.ts');
  await build({
    root: ROOT,
    configFile,
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, rollupOptions: { input: join(ROOT, 'src/ui/sweep/sweep.html') } },
  });
  const server = await preview({
    root: ROOT,
    configFile,
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'error',
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.resolvedUrls.local[0]}src/ui/sweep/sweep.html`);
    await page.waitForFunction(() => 'envschedSweep' in window);
    const workers = await page.evaluate(() => window.envschedSweep.defaultWorkers);
    const timed = (w) =>
      page.evaluate(
        ([n, metrics]) => window.envschedSweep.bench('table3b', n, { dataset: 'envscaler-rl', steps: 200, seeds: 3, metrics }),
        [w, METRICS],
      );
    const many = await timed(workers);
    const one = await timed(1);
    for (const r of [many, one]) {
      if (JSON.stringify(r.fingerprints) !== JSON.stringify(nodeFingerprints))
        throw new Error('the browser sweep gave other fingerprints than Node (was build/envsched.wasm rebuilt during the benchmark?)');
    }
    return [
      {
        name: `sweep: Table 3(b) preset, 9 configs x 3 seeds x 200 steps on envscaler-rl, Chromium, ${workers} Web Workers`,
        value: +many.seconds.toFixed(2),
        unit: 's',
        target: '< 10 s on 2 cores',
      },
      { name: 'sweep: same, Chromium, 1 Web Worker', value: +one.seconds.toFixed(2), unit: 's' },
      { name: `sweep: speed-up of ${workers} Web Workers over 1 (Chromium)`, value: +(one.seconds / many.seconds).toFixed(2), unit: 'x' },
    ];
  } finally {
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

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
    metrics: METRICS,
    preset: 'table3b',
  };
  const timed = async (workers) => {
    const pool = new NodeSweepPool(workers);
    const t0 = performance.now();
    const result = await runSweep(definition, pool);
    const seconds = (performance.now() - t0) / 1000;
    await pool.close();
    if (result.runs !== 27 || result.points.length !== 9)
      throw new Error(`expected 27 runs in 9 points, got ${result.runs} in ${result.points.length}`);
    return { seconds, result };
  };
  const all = availableParallelism();
  // Speed-ups mean something only on an otherwise idle machine: report how busy it was.
  const load = loadavg()[0];
  const many = await timed(all);
  const one = await timed(1);
  // Same runs, same numbers, whatever the number of workers.
  const same = many.result.points.every((p, k) => p.fingerprints.join() === one.result.points[k].fingerprints.join());
  if (!same) throw new Error('fingerprints differ between the pool sizes (was build/envsched.wasm rebuilt during the benchmark?)');
  const fingerprints = many.result.points.map((p) => p.fingerprints);
  return [
    {
      name: `sweep: Table 3(b) preset, 9 configs x 3 seeds x 200 steps on envscaler-rl, Node, ${all} workers`,
      value: +many.seconds.toFixed(2),
      unit: 's',
      target: '< 10 s on 2 cores',
    },
    { name: 'sweep: same, Node, 1 worker', value: +one.seconds.toFixed(2), unit: 's' },
    { name: `sweep: speed-up of ${all} workers over 1 (Node)`, value: +(one.seconds / many.seconds).toFixed(2), unit: 'x' },
    { name: 'sweep: time per run, all workers (wall / 27)', value: +((many.seconds / 27) * 1000).toFixed(0), unit: 'ms' },
    ...(await browserRows(fingerprints)),
    { name: `sweep: load average (1 min) when the benchmark started, on ${all} cores`, value: +load.toFixed(2), unit: '' },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const row of await run()) console.log(`${row.name}: ${row.value} ${row.unit}${row.target ? ` (target ${row.target})` : ''}`);
}
