// Explain mode end to end, in headless Chromium against the built site: every scene shows the
// numbers `envsched score --step t` prints for the exported history and configuration, the "why" of
// every pick agrees with the CLI's batch, a lecture link reopens its scene, the walkthrough works
// with the keyboard alone, and no page logs a console error.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Scores } from '../../src/engine/types.ts';
import { QUANTITY_COLOUR } from '../../src/ui/lib/palette.ts';
import { runCli } from '../helpers/cli.ts';
import { finishedFingerprint, openPage, ROOT, startSite, type OpenPage, type Site } from './site.ts';

let site: Site;
const opened: OpenPage[] = [];
const work = mkdtempSync(join(tmpdir(), 'envsched-e2e-explain-'));
const TINY = 'dataset=tiny&B=12&T=40';
const GRAPH = join(ROOT, 'datasets/tiny/tiny.graph.bin');
const TASK_IDS = (JSON.parse(readFileSync(join(ROOT, 'datasets/tiny/tiny.graph.json'), 'utf8')) as { tasks: { id: string }[] }).tasks.map(
  (t) => t.id,
);
const SCENES = ['rollouts', 'history', 'neighbours', 'fusion', 'coverage', 'exploitation', 'filters', 'update'];

async function open(query: string, options: Parameters<typeof openPage>[2] = {}): Promise<OpenPage> {
  const o = await openPage(site, query, options);
  opened.push(o);
  return o;
}

async function download(page: Page, menuItem: string): Promise<string> {
  await page.click('[data-testid=export-menu] > summary');
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.click(`[data-testid=export-menu] .menu-items button:has-text("${menuItem}")`),
  ]);
  const path = join(work, `${Date.now()}-${file.suggestedFilename()}`);
  await file.saveAs(path);
  // The menu closes itself after a choice.
  return path;
}

async function scoresFor(page: Page, step: number, saved?: { history: string }): Promise<Scores> {
  const history = await download(page, 'History before this step');
  const config = await download(page, 'Configuration');
  if (saved) saved.history = history;
  const cli = await runCli(['score', '--graph', GRAPH, '--history', history, '--config', config, '--step', String(step)]);
  expect(cli.stderr).toBe('');
  expect(cli.code).toBe(0);
  return JSON.parse(cli.stdout) as Scores;
}

async function ready(page: Page, scene: string): Promise<void> {
  await page.waitForSelector(`[data-testid=explain-mode][data-scene=${scene}][data-ready=true]`, { timeout: 30_000 });
}

const value = (page: Page, id: string) => page.getAttribute(`[data-testid=explain-mode] [data-testid=${id}]`, 'data-value').then(Number);
const close = (x: number, y: number, what: string) =>
  expect(Math.abs(x - y), `${what}: ${x} vs ${y}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(y)));

/** Every pick row of a scene: [task id, phase, position, relaxed]. */
async function pickRows(page: Page): Promise<{ id: string; phase: string; position: number; q: number; relaxed: string }[]> {
  const rows = await page.$$eval('[data-testid=explain-mode] [data-testid=ex-pick]', (els) =>
    els.map((e) => ({
      task: Number(e.getAttribute('data-task')),
      phase: e.getAttribute('data-phase') ?? '',
      position: Number(e.getAttribute('data-position')),
      q: Number(e.getAttribute('data-q')),
      relaxed: e.getAttribute('data-relaxed') ?? '',
    })),
  );
  return rows.map((r) => ({ id: TASK_IDS[r.task], phase: r.phase, position: r.position, q: r.q, relaxed: r.relaxed }));
}

beforeAll(async () => {
  site = await startSite();
}, 600_000);

afterAll(async () => {
  for (const o of opened) expect(o.errors, `console errors on ${o.page.url()}`).toEqual([]);
  await site?.close();
});

/** Text smaller than 14 px and SVG labels that overlap, inside `root` (visible text only). */
async function legibility(page: Page, root: string): Promise<{ small: string[]; overlaps: string[] }> {
  return page.evaluate((selector) => {
    const small: string[] = [];
    const overlaps: string[] = [];
    const scope = document.querySelector(selector);
    if (!scope) return { small: ['(no such element)'], overlaps };
    const visible = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    for (const svg of scope.querySelectorAll('svg')) {
      const vb = svg.viewBox.baseVal;
      const rect = svg.getBoundingClientRect();
      const scale = vb && vb.width > 0 ? Math.min(rect.width / vb.width, rect.height / vb.height) : 1;
      const boxes: { text: string; r: DOMRect }[] = [];
      for (const t of svg.querySelectorAll('text')) {
        const text = (t.textContent ?? '').trim();
        if (!text || !visible(t)) continue;
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (px < 14) small.push(`svg "${text}" ${px.toFixed(1)} px`);
        boxes.push({ text, r: t.getBoundingClientRect() });
      }
      for (let a = 0; a < boxes.length; a++) {
        for (let b = a + 1; b < boxes.length; b++) {
          const x = Math.min(boxes[a].r.right, boxes[b].r.right) - Math.max(boxes[a].r.left, boxes[b].r.left);
          const y = Math.min(boxes[a].r.bottom, boxes[b].r.bottom) - Math.max(boxes[a].r.top, boxes[b].r.top);
          if (x > 1 && y > 1) overlaps.push(`"${boxes[a].text}" / "${boxes[b].text}"`);
        }
      }
    }
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('svg') || !(n.textContent ?? '').trim() || !visible(el)) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < 14) small.push(`"${(n.textContent ?? '').trim().slice(0, 30)}" ${px.toFixed(1)} px`);
    }
    return { small, overlaps };
  }, root);
}

describe('Explain mode', () => {
  it('shows in every scene the numbers `envsched score --step t` prints, and every pick agrees with its batch', async () => {
    const step = 20;
    const { page } = await open(`?${TINY}&step=${step}`);
    await finishedFingerprint(page);
    const scores = await scoresFor(page, step);
    await page.click('[data-testid=explain-toggle]');
    await ready(page, 'rollouts');
    const target = Number(await page.getAttribute('[data-testid=explain-mode]', 'data-task'));
    const row = scores.tasks[target];
    expect(await page.getAttribute('[data-testid=explain-mode]', 'data-step')).toBe(String(step));

    // Scene 1: the group's statistics are those of its rewards (SPEC 2).
    const rewards = JSON.parse((await page.getAttribute('[data-testid=ex-group]', 'data-rewards'))!) as number[];
    const m = rewards.reduce((s, r) => s + r, 0) / rewards.length;
    const v = rewards.reduce((s, r) => s + (r - m) ** 2, 0) / rewards.length;
    close(await value(page, 'ex-group-m'), m, 'm');
    close(await value(page, 'ex-group-v'), v, 'v');
    close(await value(page, 'ex-group-d'), Math.min(1, Math.max(0, v / Math.max(m * (1 - m), 0.01))), 'd');

    await page.keyboard.press('ArrowRight');
    await ready(page, 'history');
    for (const h of ['long', 'short'] as const) {
      close(await value(page, `ex-${h}-ref-v`), scores.reference[h]!.v, `B_t.v ${h}`);
      close(await value(page, `ex-${h}-ref-m`), scores.reference[h]!.m, `B_t.m ${h}`);
    }
    const W = await value(page, 'ex-long-W');
    const ybar = await value(page, 'ex-long-ybar-v');

    await page.keyboard.press('ArrowRight');
    await ready(page, 'neighbours');
    const gin = await value(page, 'ex-long-gin-v');
    const gcross = await value(page, 'ex-long-gcross-v');

    await page.keyboard.press('ArrowRight');
    await ready(page, 'fusion');
    const prior = await value(page, 'ex-long-prior-v');
    close(prior, 0.5 * gin + 0.5 * gcross, 'P = ½ G_in + ½ G_cross');
    // Eq. 4 with the shown W, ybar and P gives the CLI's prediction.
    close((W * ybar + 2 * prior) / (W + 2), row.long!.v, 'yhat from W, ybar, P');
    for (const h of ['long', 'short'] as const) {
      for (const y of ['v', 'm', 'd'] as const) close(await value(page, `ex-${h}-${y}`), row[h]![y], `yhat.${y} ${h}`);
      close(await value(page, `ex-${h}-u`), row[h]!.u, `u ${h}`);
    }
    close(await value(page, 'ex-u'), row.u!, 'u');
    close(await value(page, 'ex-q'), row.q!, 'q');
    close(await value(page, 'ex-decline'), row.long!.u - row.u!, 'decline');

    // Scenes 5 and 6: the picks of both phases are the CLI's batch, in order, with its q.
    const picks: Awaited<ReturnType<typeof pickRows>> = [];
    for (const scene of ['coverage', 'exploitation']) {
      await page.keyboard.press('ArrowRight');
      await ready(page, scene);
      expect(await page.textContent('[data-testid=explain-mode] [data-testid=ex-why]')).toMatch(
        scene === 'coverage' ? /Coverage pick #\d+/ : /Exploitation pick #\d+/,
      );
      picks.push(...(await pickRows(page)));
    }
    picks.sort((x, y) => x.position - y.position);
    expect(picks.map((p) => [p.id, p.phase])).toEqual(scores.batch.map((b) => [b.id, b.phase]));
    for (const p of picks) close(p.q, scores.tasks[TASK_IDS.indexOf(p.id)].q!, `q of ${p.id}`);
    const lastRelaxed = picks.at(-1)!.relaxed;
    expect(scores.relaxed.join(',').startsWith(lastRelaxed)).toBe(true);

    await page.keyboard.press('ArrowRight');
    await ready(page, 'filters');
    expect(await value(page, 'ex-progress-count')).toBe(scores.tasks.filter((t) => t.progressExcluded).length);
    expect(await value(page, 'ex-removed-count')).toBe(scores.tasks.filter((t) => t.removed).length);
    expect(await page.getAttribute('[data-testid=ex-relaxed]', 'data-value')).toBe(scores.relaxed.join(','));

    // Scene 8: the groups that enter the history are exactly the batch's tasks.
    await page.keyboard.press('ArrowRight');
    await ready(page, 'update');
    const rolled = await page.$$eval('[data-testid=ex-rollout]', (els) => els.map((e) => Number(e.getAttribute('data-task'))));
    expect(rolled.map((i) => TASK_IDS[i]).sort()).toEqual(scores.batch.map((b) => b.id).sort());
  });

  it('explains an imported history: the batch EnvSched would pick next is the one `envsched score` prints', async () => {
    const { page } = await open(`?${TINY}&step=17`);
    await finishedFingerprint(page);
    const saved = { history: '' };
    const scores = await scoresFor(page, 17, saved);
    await page.click('[data-testid=import-toggle]');
    await page.setInputFiles('[data-testid=import-files]', [join(ROOT, 'datasets/tiny/tiny.graph.json'), saved.history]);
    await page.waitForSelector('[data-testid=import-summary]');
    await page.click('[data-testid=explain-toggle]');
    await ready(page, 'rollouts');
    expect(await page.getAttribute('[data-testid=explain-mode]', 'data-step')).toBe('17');
    const picks: Awaited<ReturnType<typeof pickRows>> = [];
    for (const scene of ['history', 'neighbours', 'fusion', 'coverage', 'exploitation', 'filters', 'update']) {
      await page.keyboard.press('ArrowRight');
      await ready(page, scene);
      if (scene === 'coverage' || scene === 'exploitation') picks.push(...(await pickRows(page)));
    }
    picks.sort((x, y) => x.position - y.position);
    expect(picks.map((p) => [p.id, p.phase])).toEqual(scores.batch.map((b) => [b.id, b.phase]));
    expect(await page.textContent('[data-testid=explain-mode] [data-testid=ex-caption]')).toContain('has not been run yet');
  });

  it('explains a cold start (step 0) with the batch `envsched score --step 0` prints', async () => {
    const { page } = await open(`?${TINY}&step=0`);
    await finishedFingerprint(page);
    const scores = await scoresFor(page, 0);
    await page.click('[data-testid=explain-toggle]');
    await ready(page, 'filters');
    expect(await page.textContent('[data-testid=explain-mode] [data-testid=ex-caption]')).toContain('cold start');
    const picks = await pickRows(page);
    expect(picks.map((p) => [p.id, p.phase])).toEqual(scores.batch.map((b) => [b.id, b.phase]));
  });

  it('is completed with the keyboard alone: open, every scene, close, focus back on the opener', async () => {
    const { page } = await open(`?${TINY}&step=9`);
    await finishedFingerprint(page);
    let found = false;
    for (let k = 0; k < 60 && !found; k++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'explain-toggle');
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    await ready(page, 'rollouts');
    expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=explain-mode]') !== null)).toBe(true);
    for (const scene of SCENES.slice(1)) {
      await page.keyboard.press('ArrowRight');
      await ready(page, scene);
    }
    // Tab stays inside the dialog (no focus lost behind it).
    for (let k = 0; k < 30; k++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('[data-testid=explain-mode]') !== null)).toBe(true);
    }
    // The step did not move while the arrows moved the scenes.
    expect(new URL(page.url()).searchParams.get('step')).toBe('9');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=explain-mode]', { state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('explain-toggle');
    expect(new URL(page.url()).searchParams.has('explain')).toBe(false);
  });

  it('marks v with one colour in the walkthrough and in the variance chart (lane A and its prediction)', async () => {
    const { page } = await open(`?${TINY}&step=9`);
    await finishedFingerprint(page);
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16)).join(', ')})`;
    const keys = await page.$$eval('[data-testid=chart-variance] .key i', (els) => els.map((e) => getComputedStyle(e).borderTopColor));
    expect(keys.slice(0, 2)).toEqual([rgb(QUANTITY_COLOUR.variance), rgb(QUANTITY_COLOUR.variance)]);
    await page.click('[data-testid=explain-toggle]');
    await ready(page, 'rollouts');
    const marked = await page.$$eval('[data-testid=explain-mode] [data-testid=ex-caption] button[data-glossary=v]', (els) =>
      els.map((e) => getComputedStyle(e.parentElement!).getPropertyValue('--c').trim().toLowerCase()),
    );
    expect(marked.length).toBeGreaterThan(0);
    expect(new Set(marked)).toEqual(new Set([QUANTITY_COLOUR.variance.toLowerCase()]));
  });

  it('opens a lecture link at its scene and step with the controls hidden, and keeps the scene in the URL', async () => {
    const { page } = await open(`?${TINY}&step=12&explain=fusion&controls=0&present=1`);
    await ready(page, 'fusion');
    expect(await page.getAttribute('[data-testid=explain-mode]', 'data-step')).toBe('12');
    expect(await page.locator('[data-testid=ex-next]').count()).toBe(0);
    expect(await page.locator('aside.side').count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await ready(page, 'coverage');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('explain') === 'coverage');
    const link = page.url();
    const again = await open(link.slice(site.url.length));
    await ready(again.page, 'coverage');
    expect(await again.page.getAttribute('[data-testid=explain-mode]', 'data-step')).toBe('12');
  });

  it('opens the lecture link of docs/teaching.md on the teaching pool: every scene legible at 1920x1080, the whole pool of 300 tasks drawn', async () => {
    const { page } = await open('?dataset=classroom&B=8&T=40&step=14&present=1&controls=0&explain=rollouts', { width: 1920, height: 1080 });
    for (const [k, scene] of SCENES.entries()) {
      if (k > 0) await page.keyboard.press('ArrowRight');
      await ready(page, scene);
      const { small, overlaps } = await legibility(page, '[data-testid=explain-mode]');
      expect(small, scene).toEqual([]);
      expect(overlaps, scene).toEqual([]);
    }
    expect(await page.locator('[data-testid=explain-mode] [data-testid=pool-graph] circle[role=button]').count()).toBe(300);
  });

  it('shows every column of the coverage and exploitation picks on a 1280x720 projector, without a scroll bar', async () => {
    for (const scene of ['coverage', 'exploitation']) {
      const { page } = await open(`?dataset=classroom&B=8&T=40&step=14&present=1&controls=0&explain=${scene}`, {
        width: 1280,
        height: 720,
      });
      await ready(page, scene);
      const box = await page.$eval('[data-testid=explain-mode] .scroll', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(box.scroll, scene).toBeLessThanOrEqual(box.client);
    }
  });

  it('is legible on a projector: every scene at 1280x720 and 1920x1080 in presentation mode has labels of at least 14 px that do not overlap', async () => {
    for (const [width, height] of [
      [1280, 720],
      [1920, 1080],
    ]) {
      const { page } = await open(`?${TINY}&step=14&explain=rollouts&present=1&controls=0`, { width, height });
      for (const [k, scene] of SCENES.entries()) {
        if (k > 0) await page.keyboard.press('ArrowRight');
        await ready(page, scene);
        const { small, overlaps } = await legibility(page, '[data-testid=explain-mode]');
        expect(small, `${scene} at ${width}x${height}`).toEqual([]);
        expect(overlaps, `${scene} at ${width}x${height}`).toEqual([]);
      }
    }
  });
});

describe('why this task and the glossary in the inspector', () => {
  it('says for a picked task which phase chose it, at the position the CLI prints, and for another what kept it out', async () => {
    const step = 20;
    const { page } = await open(`?${TINY}&step=${step}`);
    await finishedFingerprint(page);
    const scores = await scoresFor(page, step);
    for (const k of [0, 7]) {
      const chip = page.locator('[data-testid=batch-view] button.chip').nth(k);
      const task = Number(await chip.getAttribute('data-task'));
      await chip.click();
      await page.waitForFunction((t) => document.querySelector('[data-testid=insp-id]')?.textContent === t, TASK_IDS[task]);
      const why = (await page.textContent('[data-testid=insp-why]')) ?? '';
      const position = scores.batch.findIndex((b) => b.id === TASK_IDS[task]);
      const phase = scores.batch[position].phase;
      expect(why).toContain(`${phase === 'coverage' ? 'Coverage' : 'Exploitation'} pick #${position + 1}:`);
    }
    const outside = TASK_IDS.findIndex((id) => !scores.batch.some((b) => b.id === id));
    await page.fill('#insp-task', TASK_IDS[outside]);
    await page.press('#insp-task', 'Enter');
    await page.waitForFunction((t) => document.querySelector('[data-testid=insp-id]')?.textContent === t, TASK_IDS[outside]);
    expect(await page.textContent('[data-testid=insp-why]')).toMatch(/^Not picked: /);
  });

  it('gives every symbol of the inspector a glossary entry on hover and on keyboard focus: plain words, the equation, the section', async () => {
    const { page } = await open(`?${TINY}&step=20&task=3`);
    await finishedFingerprint(page);
    await page.waitForSelector('[data-testid=inspector] [data-glossary=q]');
    const symbols = await page.$$eval('[data-testid=inspector] [data-glossary]', (els) => els.map((e) => e.getAttribute('data-glossary')));
    expect(new Set(symbols).size).toBeGreaterThanOrEqual(20);
    // Hover shows the entry.
    await page.locator('[data-testid=inspector] [data-glossary=q]').first().hover();
    const tip = page.locator('[data-testid=inspector] [data-glossary=q] + [data-testid=glossary-tip]').first();
    await expect.poll(() => tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toMatch(/percentile rank.*App\. B.*docs\/spec\.md §5/s);
    // Focus shows it too, and it names the element it describes.
    await page.focus('[data-testid=inspector] [data-glossary=Gin]');
    const focused = page.locator('[data-testid=inspector] [data-glossary=Gin] + [data-testid=glossary-tip]').first();
    await expect.poll(() => focused.isVisible()).toBe(true);
    expect(await focused.textContent()).toMatch(/Eq\. 3.*§4/s);
    const describedBy = await page.locator('[data-testid=inspector] [data-glossary=Gin]').first().getAttribute('aria-describedby');
    expect(await focused.getAttribute('id')).toBe(describedBy);
    await page.keyboard.press('Escape');
    await expect.poll(() => focused.isVisible()).toBe(false);
  });
});

describe('the relation graph', () => {
  // One test per projector size: each loads envscaler-rl and plays 120 steps (1920x1080 with the PNG
  // export: 10 s alone, 31 s on a 2-core CI run beside the other e2e files), each with its own budget.
  it.each([
    [1024, 768],
    [1920, 1080],
  ])(
    "on envscaler-rl shows the inspected task's neighbourhood legibly at %ix%i in presentation mode",
    async (width, height) => {
      const { page } = await open('?step=120&task=700&present=1', { width, height });
      await finishedFingerprint(page);
      await page.waitForSelector('[data-testid=relation-graph] svg g.node', { timeout: 60_000 });
      const nodes = await page.locator('[data-testid=relation-graph] svg g.node').count();
      expect(nodes).toBeGreaterThanOrEqual(10);
      const { small, overlaps } = await legibility(page, '[data-testid=relation-graph]');
      expect(small, `${width}x${height}`).toEqual([]);
      expect(overlaps, `${width}x${height}`).toEqual([]);
      if (width !== 1920) return;
      // The neighbourhood exports for slides on the built site: a PNG of at least 1600x900, no CSP violation.
      await page.evaluate(() => {
        const w = window as unknown as { csp: string[] };
        w.csp = [];
        document.addEventListener('securitypolicyviolation', (e) => w.csp.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=png-relation-graph]')]);
      const path = join(work, `neighbourhood-${file.suggestedFilename()}`);
      await file.saveAs(path);
      const png = readFileSync(path);
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([3200, 1800]);
      expect(png.length).toBeGreaterThan(30_000);
      expect(await page.evaluate(() => (window as unknown as { csp: string[] }).csp)).toEqual([]);
    },
    150_000,
  );

  it('on the tiny pool draws the whole graph, coloured by the prediction, and moves with the player', async () => {
    const { page } = await open(`?${TINY}&step=10&present=1`, { width: 1920, height: 1080 });
    await finishedFingerprint(page);
    await page.waitForSelector('[data-testid=relation-graph] [data-testid=pool-graph][data-step="10"]');
    expect(await page.locator('[data-testid=relation-graph] [data-testid=pool-graph] circle[role=button]').count()).toBe(TASK_IDS.length);
    const fills = () =>
      page.$$eval('[data-testid=relation-graph] [data-testid=pool-graph] circle[role=button]', (els) =>
        els.map((e) => (e as SVGElement).style.fill).join(';'),
      );
    const before = await fills();
    const { small, overlaps } = await legibility(page, '[data-testid=relation-graph]');
    expect(small).toEqual([]);
    expect(overlaps).toEqual([]);
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('[data-testid=relation-graph] [data-testid=pool-graph][data-step="11"]');
    // New rollouts change the predictions the nodes are coloured by.
    expect(await fills()).not.toBe(before);
  });
});
