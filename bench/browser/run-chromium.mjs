#!/usr/bin/env node
// Scale in the browser: the 100K bench pool with simulator parameters (bench/lib/bench-sim.mjs),
// 50 simulation steps in headless Chromium, on the page's main thread, with the app's engine code
// and build/envsched.wasm (bench/browser/sim-page.ts, built by Vite into a temp dir). Reports the
// load phases, the median and max step, the tab's memory (page: WASM + JS heap; Chromium process
// tree: peak RSS, polled) and whether the tab survived. `run()` returns rows for bench/run.mjs
// (bench/simulate.mjs calls it); `node bench/browser/run-chromium.mjs [steps]` prints them.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBenchGraph, SIM_100K } from '../lib/bench-files.mjs';
import { CHROMIUM, startHarnessServer, descendantsRss, withChromium } from '../lib/browser-harness.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TIMEOUT_MS = 15 * 60_000;

export async function run(steps = 50, size = SIM_100K) {
  if (!existsSync(CHROMIUM)) return [{ name: 'browser: 100K pool, 50 steps in Chromium', value: 'skipped', unit: `${CHROMIUM} missing` }];
  const graphPath = ensureBenchGraph(size);
  const outDir = await mkdtemp(join(tmpdir(), 'envsched-bench-browser-'));
  const { build } = await import('vite');
  await build({ configFile: join(ROOT, 'bench/browser/vite.config.ts'), build: { outDir }, logLevel: 'warn' });
  const server = await startHarnessServer({ root: outDir, files: { '/graph.bin': graphPath } });
  let peakRss = 0;
  let crashed = false;
  try {
    const report = await withChromium(async (page) => {
      page.on('crash', () => (crashed = true));
      const poll = setInterval(() => {
        descendantsRss().then(
          (b) => (peakRss = Math.max(peakRss, b)),
          () => {},
        );
      }, 250);
      try {
        const done = server.report(TIMEOUT_MS);
        const failed = new Promise((_, reject) => page.on('crash', () => reject(new Error('the tab crashed'))));
        await page.goto(`${server.origin}/?steps=${steps}`);
        return await Promise.race([done, failed]);
      } finally {
        clearInterval(poll);
      }
    });
    if (report.error) throw new Error(`page failed: ${report.error}`);
    const sorted = [...report.stepMs].sort((a, b) => a - b);
    const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    const label = `browser ${report.tasks.toLocaleString('en-US')} tasks`;
    const rows = [
      { name: `${label}: ${report.steps} simulation steps completed, tab alive`, value: crashed ? 'no' : 'yes', unit: '' },
      { name: `${label}: graph fetch (${(report.tasks / 1000).toFixed(0)}K binary)`, value: report.fetchMs / 1000, unit: 's' },
      { name: `${label}: graph decode + validation`, value: report.decodeMs / 1000, unit: 's' },
      { name: `${label}: run setup (graph into WASM, simulator)`, value: report.setupMs / 1000, unit: 's' },
      { name: `${label}: step median (choose, roll out, metrics, learn)`, value: median, unit: 'ms' },
      { name: `${label}: step max`, value: sorted[sorted.length - 1], unit: 'ms' },
      { name: `${label}: ${report.steps} steps in all`, value: report.stepMs.reduce((a, b) => a + b, 0) / 1000, unit: 's' },
      { name: `${label}: WASM linear memory (both instances)`, value: report.wasmBytes / 2 ** 20, unit: 'MiB' },
      { name: `${label}: JS heap used at the end`, value: report.jsHeapUsed === null ? 'n/a' : report.jsHeapUsed / 2 ** 20, unit: 'MiB' },
      { name: `${label}: Chromium peak RSS (all processes)`, value: peakRss / 2 ** 20, unit: 'MiB' },
      { name: `${label}: run fingerprint`, value: report.fingerprint, unit: '' },
    ];
    return rows;
  } finally {
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const row of await run(process.argv[2] ? Number(process.argv[2]) : undefined)) {
    console.log(`${row.name}: ${typeof row.value === 'number' ? +row.value.toFixed(3) : row.value} ${row.unit}`);
  }
}
