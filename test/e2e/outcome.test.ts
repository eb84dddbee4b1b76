// The outcome made plain, end to end in headless Chromium against the built site: the result
// card's bands (recomputed here from `envsched simulate` runs of every seed), compare named by its
// difference, Back and Forward, the projector-first layout, exports for slides under the site's
// CSP, and the rough edges of the same review.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { RunResult } from '../../src/sim/run.ts';
import { pointStats } from '../../src/sweep/stats.ts';
import { runCli } from '../helpers/cli.ts';
import { finishedFingerprint, openPage, ROOT, startSite, type OpenPage, type Site } from './site.ts';

let site: Site;
const opened: OpenPage[] = [];
const work = mkdtempSync(join(tmpdir(), 'envsched-e2e-outcome-'));
const TINY = 'dataset=tiny&B=12&T=40';

/** Every page records CSP violations (the site's policy must allow every export). */
async function open(query: string, options: Parameters<typeof openPage>[2] = {}): Promise<OpenPage> {
  const o = await openPage(site, query, options);
  await o.page.evaluate(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  opened.push(o);
  return o;
}

async function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

interface Stats {
  n: number;
  mean: number | null;
  lo: number | null;
  hi: number | null;
}
interface ShownRow {
  metric: string;
  perSeed: { seed: number; a: number | null; b: number | null; diff: number | null }[];
  a: Stats;
  b: Stats;
  diff: Stats;
}

async function cardRows(page: Page, pairs: number): Promise<ShownRow[]> {
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=result-card]')?.getAttribute('data-pairs')) >= n, pairs, {
    timeout: 120_000,
    polling: 100,
  });
  return JSON.parse((await page.getAttribute('[data-testid=result-card]', 'data-rows'))!) as ShownRow[];
}

/** Reads a PNG's width and height from its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function saveFrom(page: Page, click: () => Promise<unknown>): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  const path = join(work, file.suggestedFilename());
  await file.saveAs(path);
  return readFileSync(path);
}

beforeAll(async () => {
  site = await startSite();
}, 600_000);

afterAll(async () => {
  for (const o of opened) expect(o.errors, `console errors on ${o.page.url()}`).toEqual([]);
  await site?.close();
});

describe('the result card', () => {
  it('bands every figure across seeds S..S+4, equal to a computation from the individual runs', async () => {
    const seed = 3;
    const { page } = await open(`?${TINY}&seed=${seed}`);
    await finishedFingerprint(page);
    const rows = await cardRows(page, 5);
    // The paper's figures describe its pool with B = 64: on tiny with B = 12 the card shows none.
    expect(await page.$$eval('[data-testid=result-card] .paper', (els) => els.map((e) => e.textContent?.trim()))).toEqual(
      new Array(5).fill('paper –'),
    );
    // The same runs by the CLI, seed by seed: A (EnvSched) and B (random at the same seed).
    const cfg = join(work, 'card-config.json');
    writeFileSync(cfg, JSON.stringify({ B: 12, T: 40 }));
    const runs: { a: RunResult; b: RunResult }[] = [];
    for (let s = seed; s < seed + 5; s++) {
      const pair: Partial<{ a: RunResult; b: RunResult }> = {};
      for (const [side, scheduler] of [
        ['a', 'envsched'],
        ['b', 'random'],
      ] as const) {
        const out = join(work, `card-${side}-${s}.json`);
        const c = join(work, `card-${side}.json`);
        writeFileSync(c, JSON.stringify({ B: 12, T: 40, scheduler }));
        const cli = await runCli(['simulate', '--dataset', 'tiny', '--config', c, '--seed', String(s), '--out', out]);
        expect(cli.code, cli.stderr).toBe(0);
        pair[side] = JSON.parse(readFileSync(out, 'utf8')) as RunResult;
      }
      runs.push(pair as { a: RunResult; b: RunResult });
    }
    const reach = (r: RunResult, target: number): number | null => {
      const k = r.steps.findIndex((st) => st.heldoutOverall >= target);
      return k < 0 ? null : k + 1;
    };
    const expected: Record<string, [number | null, number | null][]> = {
      envsPerBatch: runs.map((p) => [p.a.summary.envsPerBatch, p.b.summary.envsPerBatch]),
      meanVariance: runs.map((p) => [p.a.summary.meanVariance, p.b.summary.meanVariance]),
      heldoutFinal: runs.map((p) => [p.a.summary.heldoutFinal, p.b.summary.heldoutFinal]),
      stepsToReach: runs.map((p) => [reach(p.a, p.b.summary.heldoutFinal), reach(p.b, p.b.summary.heldoutFinal)]),
      // Rollouts spent when the step is reached, read from the run's cumulative rollouts.
      rolloutsToReach: runs.map((p) => {
        const ka = reach(p.a, p.b.summary.heldoutFinal);
        const kb = reach(p.b, p.b.summary.heldoutFinal);
        return [ka === null ? null : p.a.steps[ka - 1].rollouts, kb === null ? null : p.b.steps[kb - 1].rollouts];
      }),
    };
    const close = (x: number | null, y: number | null) =>
      x === null || y === null ? expect(x).toBe(y) : expect(Math.abs(x - y)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(y)));
    for (const row of rows) {
      const want = expected[row.metric];
      expect(row.perSeed.map((p) => p.seed)).toEqual([3, 4, 5, 6, 7]);
      want.forEach(([a, b], k) => {
        close(row.perSeed[k].a, a);
        close(row.perSeed[k].b, b);
      });
      for (const [side, values] of [
        ['a', want.map((w) => w[0])],
        ['b', want.map((w) => w[1])],
        ['diff', want.map(([a, b]) => (a === null || b === null ? null : a - b))],
      ] as const) {
        const st = pointStats(values);
        expect(row[side].n, `${row.metric} ${side}`).toBe(st.n);
        close(row[side].mean, st.mean);
        close(row[side].lo, st.lo);
        close(row[side].hi, st.hi);
      }
    }
    // The figures are on the card, large.
    const envs = rows.find((r) => r.metric === 'envsPerBatch')!;
    expect(await page.textContent('[data-testid=card-envsPerBatch]')).toContain(`${Number(envs.a.mean!.toFixed(2))}`);
    expect(await page.textContent('[data-testid=card-seeds]')).toContain('seeds 3–7: 5 of 5 done');
  });
});

describe('compare that explains itself', () => {
  it('names lanes by their difference; changing B re-runs B only', async () => {
    const { page } = await open(`?${TINY}&b.rho=1`);
    await finishedFingerprint(page);
    await page.waitForFunction(() => document.querySelector('[data-testid=fingerprint-b]')?.getAttribute('data-done') === 'true');
    expect(await page.textContent('[data-testid=lane-name-a]')).toBe('A: ρ 0.5');
    expect(await page.textContent('[data-testid=lane-name-b]')).toBe('B: ρ 1');
    expect(await page.textContent('[data-testid=chart-envs]')).toContain('B: ρ 1');
    expect(await page.textContent('[data-testid=compare-diff]')).toMatch(/rho\s*0\.5\s*1/);
    const a = async () =>
      page.$eval('[data-testid=fingerprint-a]', (e) => [e.textContent, e.getAttribute('data-millis'), e.getAttribute('data-run-id')]);
    const before = await a();
    const bRun = Number(await page.getAttribute('[data-testid=fingerprint-b]', 'data-run-id'));
    await page.click('.presets button:has-text("B = within-only")');
    await page.waitForFunction((prev) => {
      const el = document.querySelector('[data-testid=fingerprint-b]');
      return Number(el?.getAttribute('data-run-id')) > prev && el?.getAttribute('data-done') === 'true';
    }, bRun);
    expect(await a()).toEqual(before);
    expect(await page.textContent('[data-testid=lane-name-b]')).toBe('B: EnvSched: within-env only');
  });

  it('draws B = random once: the grey reference is that run', async () => {
    const { page } = await open(`?${TINY}&b.scheduler=random`);
    await finishedFingerprint(page);
    await page.waitForFunction(() => document.querySelector('[data-testid=fingerprint-b]')?.getAttribute('data-done') === 'true');
    const legend = await page.textContent('[data-testid=chart-envs] .keys');
    expect(legend).toContain('B: Random');
    expect(legend).not.toContain('random (same seed)');
    expect(await page.textContent('[data-testid=compare-diff]')).toContain('B is the random reference (drawn once)');
  });
});

describe('continuity', () => {
  it('Back and Forward undo and redo a change, with its fingerprint', async () => {
    const { page } = await open(`?${TINY}`);
    const first = await finishedFingerprint(page);
    const entries = await page.evaluate(() => history.length);
    await page.fill('[data-testid=num-a-rho]', '0.8');
    await page.press('[data-testid=num-a-rho]', 'Enter');
    const second = await finishedFingerprint(page, first.runId);
    expect(second.fingerprint).not.toBe(first.fingerprint);
    // The settled change pushed one history entry (debounced).
    await page.waitForFunction((n) => history.length === n + 1, entries, { timeout: 5000 });
    await page.goBack();
    expect(new URL(page.url()).searchParams.get('rho')).toBe(null);
    expect(await page.inputValue('[data-testid=num-a-rho]')).toBe('0.5');
    expect((await finishedFingerprint(page, second.runId)).fingerprint).toBe(first.fingerprint);
    await page.goForward();
    expect(new URL(page.url()).searchParams.get('rho')).toBe('0.8');
    const again = await finishedFingerprint(page, second.runId + 1);
    expect(again.fingerprint).toBe(second.fingerprint);
  });

  it('keeps the previous run as a faint ghost while the new one streams', async () => {
    const { page } = await open('?T=200');
    const first = await finishedFingerprint(page);
    await page.fill('[data-testid=num-a-rho]', '0.9');
    await page.press('[data-testid=num-a-rho]', 'Enter');
    await page.waitForFunction(
      () => (document.querySelector('[data-testid=chart-heldout] .keys')?.textContent ?? '').includes('previous A'),
      null,
      { timeout: 30_000, polling: 20 },
    );
    await finishedFingerprint(page, first.runId);
    expect(await page.textContent('[data-testid=chart-heldout] .keys')).not.toContain('previous A');
  });
});

describe('the projector-first layout', () => {
  for (const [width, height] of [
    [1024, 768],
    [1280, 720],
    [1280, 800],
    [1920, 1080],
  ] as const) {
    it(`shows the result card and its chart inside the first screen at ${width}x${height}`, async () => {
      const { page } = await open(`?${TINY}`, { width, height });
      await finishedFingerprint(page);
      await page.waitForSelector('[data-testid=card-chart]');
      for (const id of ['result-card', 'card-chart']) {
        const box = (await page.locator(`[data-testid=${id}]`).boundingBox())!;
        expect(box.y, id).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height, `${id} bottom at ${width}x${height}`).toBeLessThanOrEqual(height);
        expect(box.x + box.width, id).toBeLessThanOrEqual(width);
      }
    });
  }

  it('in presentation mode at 1024x768: the card and its chart on the first screen, no text below 16 px, no horizontal scrolling, controls in a drawer', async () => {
    const { page } = await open(`?${TINY}&present=1`, { width: 1024, height: 768 });
    await finishedFingerprint(page);
    await cardRows(page, 2);
    for (const id of ['result-card', 'card-chart']) {
      const box = (await page.locator(`[data-testid=${id}]`).boundingBox())!;
      expect(box.y + box.height, `${id} bottom in presentation mode`).toBeLessThanOrEqual(768);
    }
    const small = await page.evaluate(() => {
      const out: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || !(n.textContent ?? '').trim()) continue;
        const r = el.getBoundingClientRect();
        const style = getComputedStyle(el);
        if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || el.closest('.sr-only, [aria-hidden=true]')) continue;
        if (parseFloat(style.fontSize) < 16)
          out.push(`${parseFloat(style.fontSize)}px: ${(n.textContent ?? '').trim().slice(0, 30)} (${el.className})`);
      }
      return out;
    });
    expect(small).toEqual([]);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await page.isVisible('[data-testid=controls-a]')).toBe(false);
    await page.click('[data-testid=drawer-toggle]');
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-testid=controls-a]')?.getBoundingClientRect();
      return r !== undefined && r.left >= 0 && r.width > 0;
    });
  });

  it('keeps the header in place when the fingerprint appears', async () => {
    // A run long enough (1000 steps on the full pool: seconds) to catch the page while it computes.
    const { page } = await open('?dataset=envscaler-rl&T=1000', { width: 1024, height: 768 });
    await page.waitForSelector('[data-testid=fingerprint]');
    const layout = () =>
      page.$$eval('header, header nav button, [data-testid=fingerprint]', (els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
        }),
      );
    const computing = await layout();
    expect(await page.textContent('[data-testid=fingerprint]')).toBe('computing…');
    await finishedFingerprint(page);
    expect(await layout()).toEqual(computing);
  });
});

describe('exports for slides', () => {
  it('saves every chart, the scatter, the heatmap, the graph views, the card and the reproduction table as PNG >= 1600x900 on the built site, SVG where it can, no CSP violation', async () => {
    const { page } = await open(`?${TINY}`, { width: 1920, height: 1080 });
    await finishedFingerprint(page);
    await cardRows(page, 2);
    await page.waitForFunction(() => !(document.querySelector('[data-testid=scatter]')?.textContent ?? '').includes('Loading'));
    const pngs = [
      'png-envs',
      'png-tools',
      'png-variance',
      'png-heldout',
      'png-rollouts',
      'png-scatter',
      'png-heatmap',
      'png-relation-graph',
      'export-card-png',
      'export-bands-png',
    ];
    for (const id of pngs) {
      const bytes = await saveFrom(page, async () => {
        if (id.startsWith('export-')) await page.click('[data-testid=result-card] details.menu > summary');
        await page.click(`[data-testid=${id}]`);
      });
      const size = pngSize(bytes);
      expect(size.width, id).toBeGreaterThanOrEqual(1600);
      expect(size.height, id).toBeGreaterThanOrEqual(900);
      expect(bytes.length, `${id} is not an empty picture`).toBeGreaterThan(30_000);
    }
    // The card's export menu closes after a choice.
    expect(await page.$eval('[data-testid=result-card] details.menu', (d) => (d as HTMLDetailsElement).open)).toBe(false);
    for (const id of ['svg-heldout', 'svg-scatter', 'svg-heatmap', 'svg-relation-graph']) {
      const text = (await saveFrom(page, () => page.click(`[data-testid=${id}]`))).toString('utf8');
      expect(text, id).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1600" height="900"/);
      expect(text).toMatch(
        id === 'svg-scatter'
          ? /true expected variance/
          : id === 'svg-relation-graph'
            ? /Dual-relation graph: the whole pool/
            : /training step/,
      );
    }
    // The graph view's SVG nests the drawn graph with its styles inlined: its nodes and edges, in their colours.
    const graphSvg = (await saveFrom(page, () => page.click('[data-testid=svg-relation-graph]'))).toString('utf8');
    expect(graphSvg.match(/<circle/g)?.length ?? 0).toBeGreaterThan(20);
    expect(graphSvg).toMatch(/stroke:\s*rgb\(0, 114, 178\)/); // a within-environment edge
    // Explain mode's pool graph (the last scene) exports the same way, from inside the dialog.
    await page.click('[data-testid=explain-toggle]');
    await page.waitForSelector('[data-testid=explain-mode][data-ready=true]');
    await page.keyboard.press('End');
    await page.waitForSelector('[data-testid=explain-mode][data-scene=update][data-ready=true] [data-testid=png-pool-graph]');
    for (const id of ['png-pool-graph', 'svg-pool-graph']) {
      const bytes = await saveFrom(page, () => page.click(`[data-testid=${id}]`));
      if (id.startsWith('png')) {
        const size = pngSize(bytes);
        expect(size.width, id).toBeGreaterThanOrEqual(1600);
        expect(size.height, id).toBeGreaterThanOrEqual(900);
        expect(bytes.length, `${id} is not an empty picture`).toBeGreaterThan(30_000);
      } else expect(bytes.toString('utf8')).toMatch(/^<svg [^>]*width="1600" height="900"[\s\S]*The pool graph at step/);
    }
    await page.keyboard.press('Escape');
    await page.click('[data-testid=reproduce-toggle]');
    await page.fill('[data-testid=reproduce-panel] input[type=number] >> nth=1', '10');
    await page.click('[data-testid=reproduce-run]');
    await page.waitForSelector('[data-testid=reproduce-table]', { timeout: 120_000 });
    const table = pngSize(await saveFrom(page, () => page.click('[data-testid=png-reproduce-table]')));
    expect(table.width).toBeGreaterThanOrEqual(1600);
    expect(await cspViolations(page)).toEqual([]);
  }, 150_000); // many exports: 38 s on a 2-core CI run with the other e2e files beside it
});

describe('rough edges', () => {
  it("shows the inspected task's text in whole lines, scrolling the rest", async () => {
    const { page } = await open(`?${TINY}&step=20`);
    await finishedFingerprint(page);
    await page.click('[data-testid=batch-view] button.chip >> nth=0');
    await page.waitForSelector('[data-testid=insp-text]');
    const box = await page.$eval('[data-testid=insp-text]', (e) => ({
      height: e.clientHeight,
      scroll: e.scrollHeight,
      line: parseFloat(getComputedStyle(e).lineHeight),
    }));
    const lines = box.height / box.line;
    expect(Math.abs(lines - Math.round(lines)), `${box.height} px at ${box.line} px a line`).toBeLessThan(0.05);
    if (box.scroll > box.height) expect(Math.round(lines)).toBe(4);
  });

  it('reports every correction of a link, naming the real bad value; notices can be dismissed and cover no view', async () => {
    const { page } = await open(`?${TINY}&rho=abc&h_long=-5&K_within=1e9&lambda_sim=Infinity&c0=%3Cscript%3E&wat=1`);
    await finishedFingerprint(page);
    await page.click('[data-testid=notices-more]');
    const texts = await page.$$eval('[data-testid=notice]', (els) => els.map((e) => e.textContent ?? ''));
    expect(texts).toHaveLength(6);
    expect(texts.join('\n')).toContain('rho=abc: must be a finite number, got "abc"');
    expect(texts.join('\n')).toContain('lambda_sim=Infinity: must be a finite number, got "Infinity"');
    expect(texts.join('\n')).toContain('c0=<script>: must be a finite number, got "<script>"');
    expect(texts.join('\n')).not.toMatch(/got null|undefined/);
    // In the page's flow: no notice overlaps the inspector or the batch.
    await page.click('[data-testid=batch-view] button.chip >> nth=0');
    await page.waitForSelector('[data-testid=inspector]');
    const overlap = await page.evaluate(() => {
      const boxes = [...document.querySelectorAll('[data-testid=notice]')].map((n) => n.getBoundingClientRect());
      return ['inspector', 'batch-view'].some((id) => {
        const v = document.querySelector(`[data-testid=${id}]`)!.getBoundingClientRect();
        return boxes.some((b) => b.left < v.right && v.left < b.right && b.top < v.bottom && v.top < b.bottom);
      });
    });
    expect(overlap).toBe(false);
    await page.click('[data-testid=notice-dismiss] >> nth=0');
    expect(await page.locator('[data-testid=notice]').count()).toBe(5);
    await page.click('[data-testid=notices-dismiss-all]');
    expect(await page.locator('[data-testid=notice]').count()).toBe(0);
  });

  it('bounds a costly link (T = 100000, B beyond the pool) with a notice', async () => {
    const { page } = await open('?dataset=tiny&T=100000&B=100000');
    await finishedFingerprint(page);
    const notices = await page.textContent('[data-testid=notices]');
    expect(notices).toMatch(/T=100000: the page runs at most 2000 steps/);
    expect(notices).toMatch(/B=100000: larger than the pool \(\d+ tasks in tiny\)/);
    expect(new URL(page.url()).searchParams.get('T')).toBe('2000');
  });

  it('uses a config.json dropped with a graph and a history; a failed history leaves no waiting text; Copy link says what it copies', async () => {
    const { page } = await open(`?${TINY}&step=20`);
    await finishedFingerprint(page);
    await page.click('[data-testid=export-menu] > summary');
    const history = join(work, 'history.jsonl');
    writeFileSync(history, await saveFrom(page, () => page.click('.menu-items button:has-text("History before this step")')));
    const config = join(work, 'config.json');
    writeFileSync(config, JSON.stringify({ B: 12, T: 40, rho: 0.25 }));
    await page.click('[data-testid=import-toggle]');
    await page.setInputFiles('[data-testid=import-files]', [join(ROOT, 'datasets/tiny/tiny.graph.json'), history, config]);
    await page.waitForSelector('[data-testid=import-summary]');
    expect(await page.textContent('[data-testid=notices]')).toContain('config.json: configuration A set from the file');
    expect(await page.inputValue('[data-testid=num-a-rho]')).toBe('0.25');
    expect(await page.textContent('[data-testid=step-label]')).toContain('step 20 / 20');
    await page.click('[data-testid=copy-link]');
    // The button speaks once the clipboard has answered (asynchronous).
    await page.waitForFunction(() => document.querySelector('[data-testid=copy-link]')?.textContent !== 'Copy link', undefined, {
      timeout: 10_000,
    });
    expect(await page.textContent('[data-testid=copy-link]')).toContain('configuration only');
    // A broken history with a graph: an error naming the file, and no "Waiting for the first step".
    const broken = join(work, 'broken.jsonl');
    writeFileSync(broken, 'not a json line\n');
    await page.setInputFiles('[data-testid=import-files]', [join(ROOT, 'datasets/tiny/tiny.graph.json'), broken]);
    await expect.poll(() => page.textContent('[data-testid=notices]')).toMatch(/broken\.jsonl:1/);
    expect(await page.textContent('[data-testid=batch-view]')).not.toContain('Waiting for the first step');
  });

  it('keyboard: the intro traps focus and Escape closes it; the chips are one tab stop with arrows inside; charts, scatter and heatmap answer keys', async () => {
    const { page } = await open(`?${TINY}`, { intro: true });
    await page.waitForSelector('[data-testid=intro]');
    for (let k = 0; k < 6; k++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=intro]') !== null)).toBe(true);
    }
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=intro]').count()).toBe(0);
    await finishedFingerprint(page);
    expect(
      await page.$$eval('[data-testid=batch-chips] button.chip', (els) => els.filter((e) => e.getAttribute('tabindex') === '0').length),
    ).toBe(1);
    await page.focus('[data-testid=batch-chips] button.chip[tabindex="0"]');
    const firstTask = await page.evaluate(() => document.activeElement?.getAttribute('data-task'));
    await page.keyboard.press('ArrowRight');
    const secondTask = await page.evaluate(() => document.activeElement?.getAttribute('data-task'));
    expect(secondTask).not.toBe(firstTask);
    expect(await page.textContent('[data-testid=step-label]')).toContain('step 39');
    await page.keyboard.press('Enter');
    await page.waitForFunction((t) => new URLSearchParams(location.search).get('task') === t, secondTask);
    await page.focus('[data-testid=chart-focus-heldout]');
    await page.keyboard.press('ArrowLeft');
    expect(await page.textContent('[data-testid=step-label]')).toContain('step 38');
    await page.focus('[data-testid=scatter-focus]');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction((t) => new URLSearchParams(location.search).get('task') !== t, secondTask);
    await page.focus('[data-testid=heatmap-focus]');
    await page.keyboard.press('ArrowDown');
    expect(await page.textContent('[data-testid=scatter] .keys')).not.toContain('ρ');
  });

  it('paints the heatmap on the dark background in presentation mode, and the intro no longer says "on the left" alone', async () => {
    const intro = await open(`?${TINY}`, { intro: true, width: 1024, height: 768 });
    await intro.page.click('[data-testid=intro] button.primary');
    expect(await intro.page.textContent('[data-testid=intro]')).not.toMatch(/sliders on the left/);
    expect(await intro.page.textContent('[data-testid=intro]')).toContain('Controls');
    const { page } = await open(`?${TINY}&present=1`, { width: 1024, height: 768 });
    await finishedFingerprint(page);
    await page.waitForSelector('[data-testid=heatmap] canvas.cells');
    const white = await page.$eval('[data-testid=heatmap] canvas.cells', (c) => {
      const canvas = c as HTMLCanvasElement;
      const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i] > 240 && data[i + 1] > 240 && data[i + 2] > 240) n++;
      return n;
    });
    expect(white).toBe(0);
  });
});
