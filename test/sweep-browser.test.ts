// The sweep view in headless Chromium, on its standalone page src/ui/sweep/sweep.html
// built into a temporary directory: the Table 3(b) preset from a link runs to completion on the
// Web Worker pool, shows its heatmap, each point has the fingerprint of the same run in Node, the
// link reopens the same sweep, a one-knob sweep draws a line per metric, and cancelling stops it.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import type { Config } from '../src/engine/types.ts';
import { loadDataset } from '../src/sim/dataset-node.ts';
import { DEFAULT_SIM_MODEL } from '../src/sim/model-params.ts';
import { runSimulation } from '../src/sim/run.ts';
import { loadRunWasmNode } from '../src/sim/wasm-node.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

let server: PreviewServer;
let browser: Browser;
let url: string;
const errors: string[] = [];

interface PageSweep {
  store: {
    running: boolean;
    result: { cancelled: boolean; runs: number } | null;
    points: { values: (number | string)[]; seeds: number[]; fingerprints: string[] }[];
    definition: { world?: Record<string, number> };
    progress: { done: number; total: number };
  };
}

async function open(query: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : undefined));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${url}src/ui/sweep/sweep.html?${query}`);
  await page.waitForFunction(() => 'envschedSweep' in window);
  return page;
}

/** A configuration on `tiny`, SPEC 11 defaults but for `overrides`. */
const tinyConfig = (overrides: Partial<Config>): Config => ({
  ...DEFAULT_CONFIG,
  alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'],
  dataset: 'tiny',
  ...overrides,
});

const sweepOf = (page: Page) =>
  page.evaluate(() => {
    const s = (window as unknown as { envschedSweep: PageSweep }).envschedSweep.store;
    return {
      running: s.running,
      result: s.result && { cancelled: s.result.cancelled, runs: s.result.runs },
      points: s.points.map((p) => ({ values: p.values, seeds: p.seeds, fingerprints: p.fingerprints })),
      definition: JSON.parse(JSON.stringify(s.definition)),
      progress: { ...s.progress },
    };
  });

beforeAll(async () => {
  expect(existsSync(CHROMIUM), `${CHROMIUM} (apt-get install chromium)`).toBe(true);
  const outDir = mkdtempSync(join(tmpdir(), 'envsched-sweep-site-'));
  const configFile = join(ROOT, 'vite.config.ts');
  await build({
    root: ROOT,
    configFile,
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, rollupOptions: { input: join(ROOT, 'src/ui/sweep/sweep.html') } },
  });
  server = await preview({
    root: ROOT,
    configFile,
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'error',
  });
  url = server.resolvedUrls!.local[0];
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  expect(errors).toEqual([]);
});

describe('sweep view in Chromium', () => {
  it('runs the Table 3(b) preset from its link to completion, shows the heatmap, and matches Node run for run', async () => {
    const query = 'dataset=tiny&T=6&sweep.preset=table3b&sweep.seeds=2&sweep.metrics=final,auc';
    const page = await open(query);
    await page.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 120_000 });
    const done = await sweepOf(page);
    expect(done.result).toEqual({ cancelled: false, runs: 18 });
    expect(done.points.map((p) => p.values)).toEqual([
      [3, 6],
      [6, 6],
      [12, 6],
      [3, 12],
      [6, 12],
      [12, 12],
      [3, 24],
      [6, 24],
      [12, 24],
    ]);
    expect(await page.getAttribute('[data-testid=sweep-heatmap]', 'data-cells')).toBe('9');
    // Hovering a cell shows its mean and band.
    const box = (await page.locator('[data-testid=sweep-heatmap] canvas').boundingBox())!;
    await page.mouse.move(box.x + 70 + 45, box.y + 24 + 22);
    await expect
      .poll(() => page.textContent('[data-testid=sweep-tip]'))
      .toMatch(/^K_within=3, K_cross=6: mean \d+\.\d+, 95% band \[\d+\.\d+, \d+\.\d+\], n = 2$/);

    // Same fingerprints as the Node simulator for the same configurations and seeds.
    const { loaded, source } = await loadDataset('tiny');
    for (const k of [0, 4, 8]) {
      const p = done.points[k];
      const config = tinyConfig({ T: 6, K_within: p.values[0] as number, K_cross: p.values[1] as number });
      for (const [j, seed] of p.seeds.entries()) {
        expect(p.fingerprints[j]).toBe(runSimulation(await loadRunWasmNode(), loaded, { ...config, seed }, source).fingerprint);
      }
    }

    // The link reopens the same sweep (same definition, same results).
    const again = await open(new URL(page.url()).search.slice(1));
    await again.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 120_000 });
    const reopened = await sweepOf(again);
    expect(reopened.definition).toEqual(done.definition);
    expect(reopened.points).toEqual(done.points);
    await page.close();
    await again.close();
  });

  it("runs every point in the link's simulated world (w.<knob>), says so, and keeps the world in the link", async () => {
    const page = await open('dataset=tiny&T=4&w.partialCredit=0&sweep.rho=0,1&sweep.seeds=1&sweep.metrics=final');
    await page.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 120_000 });
    const done = await sweepOf(page);
    expect(done.definition.world).toEqual({ partialCredit: 0 });
    expect(await page.textContent('[data-testid=sweep-world]')).toContain('the calibrated one except partialCredit=0');
    const { loaded, source } = await loadDataset('tiny');
    for (const p of done.points) {
      const config = tinyConfig({ T: 4, rho: p.values[0] as number });
      const inWorld = runSimulation(await loadRunWasmNode(), loaded, config, source, { model: { ...DEFAULT_SIM_MODEL, partialCredit: 0 } });
      expect(p.fingerprints[0]).toBe(inWorld.fingerprint);
      expect(p.fingerprints[0]).not.toBe(runSimulation(await loadRunWasmNode(), loaded, config, source).fingerprint);
    }
    expect(new URL(page.url()).searchParams.get('w.partialCredit')).toBe('0');
    await page.close();

    // A world mechanism as the knob: each point in its own world.
    const axis = await open('dataset=tiny&T=4&sweep.w.partialCredit=0,0.5&sweep.seeds=1&sweep.metrics=final');
    await axis.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 120_000 });
    for (const p of (await sweepOf(axis)).points) {
      const model = { ...DEFAULT_SIM_MODEL, partialCredit: p.values[0] as number };
      expect(p.fingerprints[0]).toBe(runSimulation(await loadRunWasmNode(), loaded, tinyConfig({ T: 4 }), source, { model }).fingerprint);
    }
    await axis.close();
  });

  it('draws one line per metric for one knob, and cancelling stops the sweep with partial results', async () => {
    const page = await open('dataset=tiny&T=4&sweep.rho=0,1&sweep.seeds=2&sweep.metrics=final,mean_variance');
    await page.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 120_000 });
    expect(
      await page.$$eval('[data-testid=sweep-line]', (els) =>
        els.map((e) => [e.getAttribute('data-metric'), e.getAttribute('data-points')]),
      ),
    ).toEqual([
      ['final', '2'],
      ['mean_variance', '2'],
    ]);

    await page.close();

    // A long sweep (105 runs of 200 steps: seconds, so that it cannot end before the click), cancelled
    // as soon as its first run is in.
    const long = await open('dataset=tiny&T=200&sweep.rho=0,1&sweep.seeds=1&sweep.metrics=final');
    await long.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 120_000 });
    await long.fill('[aria-label="knob 1 values"]', '0:1:0.05');
    await long.fill('input[type=number]', '5');
    await long.click('button:has-text("Run sweep")');
    await long.waitForFunction(() => (window as unknown as { envschedSweep: PageSweep }).envschedSweep.store.progress.done >= 1, null, {
      timeout: 120_000,
    });
    await long.click('button:has-text("Cancel")');
    await long.waitForSelector('[data-testid=sweep-progress][data-done=true]');
    const cancelled = await sweepOf(long);
    expect(cancelled.result?.cancelled).toBe(true);
    expect(cancelled.progress.done).toBeLessThan(cancelled.progress.total);
    await long.waitForTimeout(300);
    expect((await sweepOf(long)).progress.done).toBe(cancelled.progress.done); // nothing arrives after the cancel
    await long.close();
  });
});
