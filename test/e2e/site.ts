// The e2e harness: makes sure the WASM module, the datasets and the static site are built (only
// what is stale), serves site/ with `vite preview` on 127.0.0.1 (a free port), and drives Debian's
// Chromium through playwright-core with a fresh profile.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';

export const ROOT = resolve(import.meta.dirname, '../..');
/** The production site, and a test build with the fault-injection hooks (VITE_ENVSCHED_TEST_HOOKS=1) that only the faults test serves. */
const OUT_DIRS = { production: 'site', testHooks: 'site-test-hooks' } as const;
const INPUTS = [
  'src/ui',
  'src/worker',
  'src/engine',
  'src/sim',
  'src/reference',
  'index.html',
  'public',
  'vite.config.ts',
  'build/envsched.wasm',
  'datasets',
];

function newest(path: string): number {
  const full = join(ROOT, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) t = Math.max(t, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return t;
}

/** Builds what is missing or stale: WASM, compiled engine, datasets (scripts/ensure-built.mjs), then the site. */
export function ensureSite(options: { testHooks?: boolean } = {}): string {
  const outDir = options.testHooks ? OUT_DIRS.testHooks : OUT_DIRS.production;
  return underLock(join(ROOT, `${outDir}.lock`), () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/ensure-built.mjs')], { cwd: ROOT, stdio: 'inherit' });
    const stamp = join(ROOT, outDir, '.built');
    const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
    if (built > Math.max(...INPUTS.map(newest))) return outDir;
    // NODE_ENV=production: under vitest NODE_ENV is "test", which made Vite build Svelte's development
    // runtime (slower, and it keeps stack traces of state updates alive) instead of the shipped site.
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', VITE_ENVSCHED_TEST_HOOKS: options.testHooks ? '1' : '' };
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', outDir], {
      cwd: ROOT,
      stdio: 'inherit',
      env,
    });
    writeFileSync(stamp, new Date().toISOString());
    return outDir;
  });
}

/** A lock this old without its pid was left by a process killed between taking it and writing the pid. */
const PIDLESS_LOCK_MS = 5_000;

/** Whether the process that took `lock` is still running (true while it is still writing its pid). */
function lockHeld(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs < PIDLESS_LOCK_MS;
    } catch {
      return false; // released meanwhile
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Runs `build` while holding `lock`, a directory (mkdir is atomic) with the holder's pid in it.
 * Test files run in parallel (vite.config.ts), and two Vite builds into one folder would each empty
 * it under the other; the file that waits then finds the site fresh and serves it. A lock whose
 * holder is gone (a killed run) is taken over at once.
 */
function underLock<T>(lock: string, build: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (lockHeld(lock)) Atomics.wait(pause, 0, 0, 200);
      else rmSync(lock, { recursive: true, force: true });
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
    } catch (error) {
      rmSync(lock, { recursive: true, force: true }); // never a lock that others would wait on for nothing
      throw error;
    }
    break;
  }
  try {
    return build();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface Site {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function startSite(options: { testHooks?: boolean } = {}): Promise<Site> {
  const outDir = ensureSite(options);
  const server: PreviewServer = await preview({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'error',
  });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a URL');
  // playwright-core launches every browser with a fresh temporary profile (user-data-dir) of its own.
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

export interface OpenPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

/** A fresh context (empty storage) with the intro already dismissed unless `intro` is true. */
export async function openPage(
  site: Site,
  query: string,
  options: { intro?: boolean; width?: number; height?: number } = {},
): Promise<OpenPage> {
  const context = await site.browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    acceptDownloads: true,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
  if (!options.intro) await context.addInitScript(() => localStorage.setItem('envsched-lab:intro-seen', '1'));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.url}${query}`);
  return { page, context, errors };
}

/**
 * Awaits one named step of a test within `ms`, so that a test which hangs says where: a bare
 * test timeout names only the test, not the wait that never ended.
 */
export async function step<T>(label: string, ms: number, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`step "${label}" did not finish within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until run A has finished (after `previousRunId`, if given) and returns its fingerprint. */
export async function finishedFingerprint(
  page: Page,
  previousRunId = -1,
  timeout = 90_000,
): Promise<{ fingerprint: string; runId: number }> {
  const handle = await page.waitForFunction(
    (prev) => {
      const el = document.querySelector('[data-testid=fingerprint]');
      if (!el || el.getAttribute('data-done') !== 'true') return null;
      const runId = Number(el.getAttribute('data-run-id'));
      return runId > prev && /^[0-9a-f]{16}$/.test(el.textContent ?? '') ? { fingerprint: el.textContent!, runId } : null;
    },
    previousRunId,
    { timeout, polling: 50 },
  );
  return (await handle.jsonValue()) as { fingerprint: string; runId: number };
}

export async function chartSignatures(page: Page): Promise<Record<string, string>> {
  return page.$$eval('[data-testid^=chart-]', (els) =>
    Object.fromEntries(els.map((e) => [e.getAttribute('data-testid')!, e.getAttribute('data-signature') ?? ''])),
  );
}
