#!/usr/bin/env node
// Screenshots of the web app's main views at 1024x768, 1280x800 and 1920x1080 (normal and
// presentation mode) into docs/screenshots/
// (`node scripts/screenshots.mjs`; builds the site first when it is stale, like the e2e tests).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/lib/browser-harness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'docs', 'screenshots');
execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
writeFileSync(join(ROOT, 'site', '.built'), new Date().toISOString());
mkdirSync(OUT, { recursive: true });

const server = await preview({ root: ROOT, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
const url = server.resolvedUrls.local[0];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? CHROMIUM,
  args: CHROMIUM_ARGS,
});

const shots = [
  { file: 'main-1024x768.png', width: 1024, height: 768, query: 'step=120', inspect: false, scrollTo: null },
  { file: 'present-1024x768.png', width: 1024, height: 768, query: 'step=120&present=1', inspect: false, scrollTo: null },
  { file: 'main-1280x800.png', width: 1280, height: 800, query: 'step=120', inspect: true, scrollTo: null },
  { file: 'inspector-1280x800.png', width: 1280, height: 800, query: 'step=120', inspect: true, scrollTo: '[data-testid=batch-view]' },
  { file: 'main-1920x1080.png', width: 1920, height: 1080, query: 'step=120', inspect: true, scrollTo: null },
  { file: 'present-1920x1080.png', width: 1920, height: 1080, query: 'step=120&present=1&controls=0', inspect: true, scrollTo: null },
  { file: 'present-controls-1920x1080.png', width: 1920, height: 1080, query: 'step=120&present=1', inspect: true, scrollTo: null },
  {
    file: 'sweep-1280x800.png',
    width: 1280,
    height: 800,
    query: 'dataset=tiny&T=40&sweep.rho=0,0.25,0.5,0.75,1&sweep.seeds=2',
    inspect: false,
    scrollTo: '[data-testid=sweep-panel]',
    sweep: true,
  },
  { file: 'compare-1280x800.png', width: 1280, height: 800, query: 'b.scheduler=random&step=120', inspect: false, scrollTo: null },
  { file: 'intro-1280x800.png', width: 1280, height: 800, query: '', inspect: false, scrollTo: null, intro: true },
];

try {
  for (const shot of shots) {
    const context = await browser.newContext({ viewport: { width: shot.width, height: shot.height } });
    if (!shot.intro) await context.addInitScript(() => localStorage.setItem('envsched-lab:intro-seen', '1'));
    const page = await context.newPage();
    await page.goto(`${url}?${shot.query}`);
    await page.waitForFunction(() => document.querySelector('[data-testid=fingerprint]')?.getAttribute('data-done') === 'true', null, {
      timeout: 120_000,
    });
    if (shot.inspect) {
      await page.locator('[data-testid=batch-view] button.chip').nth(40).click();
      await page.waitForSelector('[data-testid=insp-q]', { timeout: 60_000 });
    }
    // The step charts are Chart.js, drawn in jobs after Chart.js's chunk has loaded: wait until each shows the run.
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid^=chart-] canvas')].every((c) => Number(c.getAttribute('data-drawn-points')) > 0),
      null,
      { timeout: 60_000 },
    );
    // The result card: all five seeds in (its bands are the first thing on the page).
    await page.waitForFunction(
      () => {
        const c = document.querySelector('[data-testid=result-card]');
        return !c || c.getAttribute('data-pairs') === c.getAttribute('data-seeds');
      },
      null,
      { timeout: 120_000 },
    );
    if (shot.sweep) await page.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 300_000 });
    if (shot.scrollTo) await page.locator(shot.scrollTo).scrollIntoViewIfNeeded();
    else await page.evaluate(() => window.scrollTo(0, 0)); // clicking a chip scrolled it into view
    await page.mouse.move(5, shot.height - 5);
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(OUT, shot.file) });
    process.stderr.write(`wrote docs/screenshots/${shot.file}\n`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
