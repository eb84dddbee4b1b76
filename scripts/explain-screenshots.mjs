#!/usr/bin/env node
// Screenshots of every Explain mode scene in presentation mode at 1280x720 and 1920x1080 into
// docs/screenshots/explain-<scene>-<size>.png (`node scripts/explain-screenshots.mjs [scene ...]`;
// builds the site first, like the e2e tests). The lecture link of each shot is the URL it opens.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/lib/browser-harness.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'docs', 'screenshots');
if (!process.env.SKIP_BUILD) {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  writeFileSync(join(ROOT, 'site', '.built'), new Date().toISOString());
}
mkdirSync(OUT, { recursive: true });

const SCENES = ['rollouts', 'history', 'neighbours', 'fusion', 'coverage', 'exploitation', 'filters', 'update'];
const SIZES = [
  [1280, 720],
  [1920, 1080],
];
const QUERY = process.env.EXPLAIN_QUERY ?? 'dataset=classroom&B=8&T=40&step=14&present=1&controls=0'; // the lecture link of docs/teaching.md
const only = process.argv.slice(2);

const server = await preview({ root: ROOT, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
const url = server.resolvedUrls.local[0];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? CHROMIUM,
  args: CHROMIUM_ARGS,
});
try {
  for (const [width, height] of SIZES) {
    const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
    await context.addInitScript(() => localStorage.setItem('envsched-lab:intro-seen', '1'));
    const page = await context.newPage();
    for (const scene of SCENES) {
      if (only.length > 0 && !only.includes(scene)) continue;
      await page.goto(`${url}?${QUERY}&explain=${scene}`);
      await page.waitForSelector(`[data-testid=explain-mode][data-scene=${scene}][data-ready=true]`, { timeout: 120_000 });
      await page.mouse.move(width - 2, height - 2);
      await page.waitForTimeout(400);
      const file = `explain-${scene}-${width}x${height}.png`;
      await page.screenshot({ path: join(OUT, file) });
      process.stderr.write(`wrote docs/screenshots/${file}\n`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
