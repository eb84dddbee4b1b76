// Determinism across engines (SPEC 10 "the same configuration gives the same batches and
// rewards on every browser and on Node"): the same simulations run in Node, in headless Chromium
// (driven by playwright-core) and in Debian's Firefox ESR (started headless with a fresh profile;
// Playwright cannot drive it, so the page POSTs its results to this test's server), and the run
// fingerprints (FNV-1a 64 of every batch and reward, src/sim) must be identical.
//
// How: Vite builds test/cross-engine/harness.html (+ harness.ts: the engine, the simulator and
// build/envsched.wasm) into a temp dir; a node:http server on 127.0.0.1 serves it, the cases
// (/cases.json) and the graphs (/data/<name>.graph.bin), and collects POST /report. See
// docs/reliability.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/engine/config.ts';
import { decodeGraphBinary, encodeGraphBinary } from '../../src/engine/graph-binary.ts';
import { loadGraph } from '../../src/engine/graph-json.ts';
import type { Config, SchedulerName } from '../../src/engine/types.ts';
import { DEFAULT_SIM_MODEL } from '../../src/sim/model-params.ts';
import { runSimulation } from '../../src/sim/run.ts';
import { syntheticPool } from '../../src/sim/synthetic-pool.ts';
import { loadRunWasmNode } from '../../src/sim/wasm-node.ts';
import type { CaseResult, CrossEngineCase, EngineReport } from './protocol.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const FIREFOX = '/usr/bin/firefox-esr';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCHEDULERS: SchedulerName[] = ['envsched', 'random', 'dps', 'mopps', 'dapo'];
const SEEDS = [1, 7];
/** The fourth fit's mechanisms (docs/calibration.md), not the defaults. */
const GRPO_WORLD = { signalExponent: 1, normalisedDrift: 1 };
/** The sixth fit's fixed step with gradient noise (docs/calibration.md), not the defaults. */
const ADAM_WORLD = { signalExponent: 1, gradientNoise: 1.1138, forgetting: 0.022709 };
/** The tenth fit's drift in quadrature (a pow per step) and familiarity drift (docs/calibration.md), not the defaults. */
const NOISEDRIFT_WORLD = { signalExponent: 1, normalisedDrift: 1, driftExponent: 0.5, forgetting: 0.2036, familiarityDrift: 0.4219 };
/** The fifteenth fit's gradient credit (exact gate derivatives, docs/simulator.md) with its knobs, not the defaults. */
const GRADCREDIT_WORLD = {
  signalExponent: 1,
  gradientCredit: 1,
  partialCredit: 0.9493,
  breadth: 0.1562,
  forgetting: 0.1086,
  hiddenNoise: 0.1187,
};
const BROWSER_TIMEOUT = 240_000;

/** Firefox prefs: no updates, telemetry, studies, safe-browsing lists or first-run pages. */
const FIREFOX_PREFS = {
  'app.update.enabled': false,
  'app.update.auto': false,
  'app.normandy.enabled': false,
  'app.shield.optoutstudies.enabled': false,
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.aboutwelcome.enabled': false,
  'browser.newtabpage.enabled': false,
  'browser.sessionstore.resume_from_crash': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'browser.safebrowsing.update.enabled': false,
  'browser.search.update': false,
  'browser.region.network.url': '',
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.unified': false,
  'toolkit.telemetry.server': '',
  'toolkit.startup.max_resumed_crashes': -1,
  'extensions.update.enabled': false,
  'extensions.getAddons.cache.enabled': false,
  'media.gmp-manager.updateEnabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'network.dns.disablePrefetch': true,
  'network.prefetch-next': false,
  'network.proxy.type': 0,
  'services.settings.server': 'http://127.0.0.1:9/',
} as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
};

let outDir = '';
let server: Server;
let origin = '';
const graphs = new Map<string, Uint8Array>();
let cases: CrossEngineCase[] = [];
const waiting = new Map<string, (report: EngineReport) => void>();
const temps: string[] = [];

/** The datasets: tiny (built if missing, < 1 s), the envscaler-shaped synthetic pool, envscaler-rl when built. */
async function datasets(): Promise<void> {
  const tiny = join(ROOT, 'datasets/tiny/tiny.graph.bin');
  if (!existsSync(tiny)) {
    const script = pathToFileURL(join(ROOT, 'scripts/build-datasets.mjs')).href;
    const { ensureDatasets } = (await import(/* @vite-ignore */ script)) as { ensureDatasets(names: string[]): Promise<unknown> };
    await ensureDatasets(['tiny']);
  }
  graphs.set('tiny', new Uint8Array(await readFile(tiny)));
  graphs.set('synthetic-51x50', encodeGraphBinary(loadGraph(syntheticPool())));
  const rl = join(ROOT, 'datasets/envscaler-rl/envscaler-rl.graph.bin');
  if (existsSync(rl)) graphs.set('envscaler-rl', new Uint8Array(await readFile(rl)));
}

function startServer(): Promise<void> {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname === '/report') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        res.writeHead(204).end();
        const report = JSON.parse(body) as EngineReport;
        waiting.get(report.engine)?.(report);
      });
      return;
    }
    const send = (status: number, type: string, data: string | Uint8Array) =>
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(data);
    if (url.pathname === '/cases.json') return send(200, 'application/json', JSON.stringify(cases));
    const data = /^\/data\/(.+)\.graph\.bin$/.exec(url.pathname);
    if (data) {
      const bytes = graphs.get(decodeURIComponent(data[1]));
      return bytes ? send(200, 'application/octet-stream', bytes) : send(404, 'text/plain', 'no such dataset');
    }
    const file = normalize(join(outDir, url.pathname === '/' ? 'harness.html' : url.pathname));
    if (!file.startsWith(outDir)) return send(403, 'text/plain', 'outside the harness');
    readFile(file).then(
      (bytes) => send(200, CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', bytes),
      () => send(404, 'text/plain', 'not found'),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      resolve();
    });
  });
}

function reportFrom(engine: string): Promise<EngineReport> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${engine}: no report within ${BROWSER_TIMEOUT / 1000} s`)), BROWSER_TIMEOUT);
    waiting.set(engine, (report) => {
      clearTimeout(timer);
      resolve(report);
    });
  });
}

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

beforeAll(async () => {
  for (const path of [CHROMIUM, FIREFOX])
    if (!existsSync(path)) throw new Error(`${path} is missing: install Debian's chromium and firefox-esr (see .ci/run)`);
  await datasets();
  const steps = (name: string) => (name === 'tiny' ? 40 : 20);
  cases = [...graphs.keys()].flatMap((dataset) =>
    SCHEDULERS.flatMap((scheduler) =>
      SEEDS.map((seed) => ({ key: `${dataset}/${scheduler}/seed ${seed}`, dataset, scheduler, seed, steps: steps(dataset) })),
    ),
  );
  // The world knobs the defaults leave off (GRPO's signal exponent and normalised drift; the fixed step; drift in quadrature and familiarity drift; gradient credit) in every engine too.
  for (const scheduler of ['random', 'envsched']) {
    cases.push({ key: `tiny/${scheduler}/seed 1/GRPO world`, dataset: 'tiny', scheduler, seed: 1, steps: 40, world: GRPO_WORLD });
    cases.push({ key: `tiny/${scheduler}/seed 1/adam world`, dataset: 'tiny', scheduler, seed: 1, steps: 40, world: ADAM_WORLD });
    cases.push({
      key: `tiny/${scheduler}/seed 1/noisedrift world`,
      dataset: 'tiny',
      scheduler,
      seed: 1,
      steps: 40,
      world: NOISEDRIFT_WORLD,
    });
    cases.push({
      key: `tiny/${scheduler}/seed 1/gradcredit world`,
      dataset: 'tiny',
      scheduler,
      seed: 1,
      steps: 40,
      world: GRADCREDIT_WORLD,
    });
  }
  outDir = await tempDir('envsched-cross-engine-');
  await build({ configFile: join(ROOT, 'test/cross-engine/vite.config.ts'), build: { outDir }, logLevel: 'warn' });
  await startServer();
}, 180_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  for (const dir of temps) await rm(dir, { recursive: true, force: true });
});

function nodeResults(): Promise<CaseResult[]> {
  return (async () => {
    const results: CaseResult[] = [];
    for (const c of cases) {
      const loaded = decodeGraphBinary(graphs.get(c.dataset) as Uint8Array, c.dataset);
      const config: Config = {
        ...DEFAULT_CONFIG,
        alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'],
        scheduler: c.scheduler as SchedulerName,
        seed: c.seed,
        T: c.steps,
        dataset: c.dataset,
      };
      const started = performance.now();
      const run = runSimulation(await loadRunWasmNode(), loaded, config, c.dataset, { model: { ...DEFAULT_SIM_MODEL, ...c.world } });
      results.push({
        key: c.key,
        fingerprint: run.fingerprint,
        lastMeanReward: run.steps[run.steps.length - 1].meanReward,
        millis: performance.now() - started,
      });
    }
    return results;
  })();
}

async function chromiumResults(): Promise<EngineReport> {
  const profile = await tempDir('envsched-chromium-');
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    const report = reportFrom('chromium');
    const page = await context.newPage();
    await page.goto(`${origin}/harness.html?engine=chromium`);
    return await report;
  } finally {
    await context.close();
  }
}

async function firefoxResults(): Promise<EngineReport> {
  const profile = await tempDir('envsched-firefox-');
  await writeFile(
    join(profile, 'user.js'),
    Object.entries(FIREFOX_PREFS)
      .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`)
      .join(''),
  );
  const report = reportFrom('firefox');
  // Its own process group, so that Firefox and the content processes it starts end together.
  const child: ChildProcess = spawn(FIREFOX, ['-profile', profile, '-no-remote', '-headless', `${origin}/harness.html?engine=firefox`], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, MOZ_HEADLESS: '1', MOZ_CRASHREPORTER_DISABLE: '1', MOZ_DISABLE_AUTO_SAFE_MODE: '1' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    return await Promise.race([report, exited.then(() => Promise.reject(new Error('firefox-esr exited before reporting')))]);
  } finally {
    if (child.pid !== undefined && child.exitCode === null) {
      process.kill(-child.pid, 'SIGTERM');
      const killed = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]);
      if (!killed) process.kill(-child.pid, 'SIGKILL');
    }
  }
}

describe('determinism across engines: Node, Chromium, Firefox ESR', () => {
  it('every run has the same fingerprint in every engine', async () => {
    const [node, chrome, firefox] = await Promise.all([nodeResults(), chromiumResults(), firefoxResults()]);
    for (const report of [chrome, firefox]) expect(report.error, `${report.engine} (${report.userAgent}) failed`).toBeUndefined();
    const table = cases.map((c) => {
      const n = node.find((r) => r.key === c.key);
      const ch = chrome.results.find((r) => r.key === c.key);
      const ff = firefox.results.find((r) => r.key === c.key);
      return {
        key: c.key,
        node: n?.fingerprint,
        chromium: ch?.fingerprint,
        firefox: ff?.fingerprint,
        millis: [n?.millis, ch?.millis, ff?.millis].map((m) => Math.round(m ?? NaN)),
      };
    });
    const total = (rs: CaseResult[]) => Math.round(rs.reduce((s, r) => s + r.millis, 0));
    console.log(
      `[cross-engine] ${cases.length} runs x 3 engines (${[...graphs.keys()].join(', ')}; ${SCHEDULERS.join(', ')}; seeds ${SEEDS.join(', ')}); ` +
        `run time node ${total(node)} ms, chromium ${total(chrome.results)} ms, firefox ${total(firefox.results)} ms\n` +
        `  chromium: ${chrome.userAgent}\n  firefox: ${firefox.userAgent}\n` +
        table
          .map(
            (r) =>
              `  ${r.key.padEnd(36)} ${r.node} ${r.chromium === r.node ? '=' : '≠'} chromium ${r.firefox === r.node ? '=' : '≠'} firefox`,
          )
          .join('\n'),
    );
    for (const r of table) {
      expect(r.node, r.key).toMatch(/^[0-9a-f]{16}$/);
      expect({ key: r.key, chromium: r.chromium, firefox: r.firefox }).toEqual({ key: r.key, chromium: r.node, firefox: r.node });
    }
    // The runs must differ from one another, or equal fingerprints would prove nothing.
    expect(new Set(table.map((r) => r.node)).size).toBe(table.length);
  }, 600_000);
});
