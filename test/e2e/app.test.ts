// The web app end to end, in headless Chromium against the built static site.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Scores } from '../../src/engine/types.ts';
import { runCli } from '../helpers/cli.ts';
import { URL_VERSION } from '../../src/ui/state/link-versions.ts';
import { chartSignatures, finishedFingerprint, openPage, ROOT, startSite, type OpenPage, type Site } from './site.ts';

let site: Site;
const opened: OpenPage[] = [];
const work = mkdtempSync(join(tmpdir(), 'envsched-e2e-files-'));
const TINY = 'dataset=tiny&B=12&T=40';

async function open(query: string, options: Parameters<typeof openPage>[2] = {}): Promise<OpenPage> {
  const o = await openPage(site, query, options);
  opened.push(o);
  return o;
}

/** The configuration of TINY as a file for the command line. */
function tinyConfig(): string {
  const path = join(work, 'tiny-config.json');
  writeFileSync(path, JSON.stringify({ B: 12, T: 40 }));
  return path;
}

async function download(page: Page, menuItem: string): Promise<string> {
  await page.click('[data-testid=export-menu] > summary');
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(`.menu-items button:has-text("${menuItem}")`)]);
  const path = join(work, file.suggestedFilename());
  await file.saveAs(path);
  // The menu closes itself after a choice.
  expect(await page.$eval('[data-testid=export-menu]', (d) => (d as HTMLDetailsElement).open)).toBe(false);
  return path;
}

beforeAll(async () => {
  site = await startSite();
}, 600_000);

afterAll(async () => {
  for (const o of opened) {
    // No test may leave a console error behind (checked once more at the end, for every page).
    expect(o.errors, `console errors on ${o.page.url()}`).toEqual([]);
  }
  await site?.close();
});

describe('the EnvSched Lab web app', () => {
  it('shows a finished default run on first load (envscaler-rl, 200 steps)', async () => {
    const { page, errors } = await open('');
    const { fingerprint } = await finishedFingerprint(page);
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    await expect.poll(() => page.textContent('[data-testid=run-status]')).toContain('run complete');
    expect(await page.getAttribute('[data-testid=chart-heldout]', 'data-points')).toBe('200');
    expect(await page.locator('[data-testid=batch-view] button.chip').count()).toBe(64);
    expect(await page.textContent('[data-testid=step-label]')).toContain('199');
    expect(await page.textContent('header')).toContain('2550 tasks, 51 envs');
    expect(errors).toEqual([]);
  });

  it('shows the guided introduction once, then remembers it was dismissed', async () => {
    const { page, context } = await open(`?${TINY}`, { intro: true });
    await page.waitForSelector('[data-testid=intro]');
    await page.click('[data-testid=intro-skip]');
    expect(await page.locator('[data-testid=intro]').count()).toBe(0);
    const again = await context.newPage();
    await again.goto(page.url());
    await finishedFingerprint(again);
    expect(await again.locator('[data-testid=intro]').count()).toBe(0);
    await again.close();
  });

  it('re-runs when each headline slider moves: the charts and the URL change', async () => {
    const { page } = await open(`?${TINY}`);
    let { runId } = await finishedFingerprint(page);
    for (const key of ['rho', 'h_long', 'h_short', 'K_within', 'K_cross', 'lambda_sim']) {
      const before = { url: page.url(), charts: await chartSignatures(page) };
      const slider = page.locator(`[data-testid=slider-a-${key}]`);
      await slider.focus();
      for (let k = 0; k < 4; k++) await page.keyboard.press(key === 'rho' || key === 'lambda_sim' ? 'ArrowRight' : 'ArrowLeft');
      const next = await finishedFingerprint(page, runId);
      runId = next.runId;
      const after = { url: page.url(), charts: await chartSignatures(page) };
      expect(after.url, key).not.toBe(before.url);
      expect(new URL(after.url).searchParams.has(key), key).toBe(true);
      expect(after.charts, `charts after moving ${key}`).not.toEqual(before.charts);
    }
  });

  it('reproduces the run bit for bit from the copied link', async () => {
    const { page } = await open(`?${TINY}`);
    let { runId } = await finishedFingerprint(page);
    await page.fill('[data-testid=num-a-rho]', '0.3');
    await page.press('[data-testid=num-a-rho]', 'Enter');
    await page.fill('[data-testid=num-a-seed]', '7');
    await page.press('[data-testid=num-a-seed]', 'Enter');
    await page.selectOption('[data-testid=scheduler-a]', 'cross-only');
    ({ runId } = await finishedFingerprint(page, runId));
    // The last change may still have been queued behind the previous run: wait for the URL's run.
    await page.waitForFunction(() => new URLSearchParams(location.search).get('scheduler') === 'cross-only');
    const { fingerprint } = await finishedFingerprint(page, runId - 1);
    await page.click('[data-testid=copy-link]');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toContain('rho=0.3');
    expect(link).toContain('seed=7');
    const copy = await open(link.slice(site.url.length));
    expect((await finishedFingerprint(copy.page)).fingerprint).toBe(fingerprint);
  });

  it('compares two configurations, both kept in the URL', async () => {
    const { page } = await open(`?${TINY}`);
    const a = await finishedFingerprint(page);
    await page.click('[data-testid=compare-toggle]');
    await page.waitForSelector('[data-testid=compare-panel]');
    await page.waitForFunction(() => /^[0-9a-f]{16}$/.test(document.querySelector('[data-testid=fingerprint-b]')?.textContent ?? ''));
    expect(new URL(page.url()).searchParams.get('b.scheduler')).toBe('random');
    expect(await page.textContent('[data-testid=compare-diff]')).toContain('scheduler');
    expect(await page.textContent('[data-testid=chart-envs]')).toContain('B: Random');
    // A link with B's difference opens straight into compare mode.
    const linked = await open(`?${TINY}&b.rho=1`);
    await finishedFingerprint(linked.page);
    await linked.page.waitForFunction(() =>
      /^[0-9a-f]{16}$/.test(document.querySelector('[data-testid=fingerprint-b]')?.textContent ?? ''),
    );
    const diff = await linked.page.textContent('[data-testid=compare-diff]');
    expect(diff).toMatch(/rho\s*0\.5\s*1/);
    expect(await linked.page.textContent('[data-testid=fingerprint-a]')).toBe(a.fingerprint);
    expect(await linked.page.textContent('[data-testid=fingerprint-b]')).not.toBe(a.fingerprint);
  });

  it('shows the inspector with the numbers `envsched score` prints for the same state', async () => {
    const step = 20;
    const { page } = await open(`?${TINY}&step=${step}`);
    await finishedFingerprint(page);
    const chip = page.locator('[data-testid=batch-view] button.chip').nth(3);
    const task = Number(await chip.getAttribute('data-task'));
    await chip.click();
    await page.waitForFunction(
      (t) => document.querySelector('[data-testid=insp-q]') !== null && new URLSearchParams(location.search).get('task') === String(t),
      task,
    );
    await page.waitForFunction(() => !document.querySelector('[data-testid=inspector]')?.getAttribute('aria-busy')?.includes('true'));
    const history = await download(page, 'History before this step');
    const config = await download(page, 'Configuration');
    const graph = join(ROOT, 'datasets/tiny/tiny.graph.bin');
    const cli = await runCli(['score', '--graph', graph, '--history', history, '--config', config, '--step', String(step)]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    const scores = JSON.parse(cli.stdout) as Scores;
    const row = scores.tasks[task];
    const value = async (id: string) => Number(await page.getAttribute(`[data-testid=${id}]`, 'data-value'));
    const close = (x: number, y: number) => expect(Math.abs(x - y)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(y)));
    close(await value('insp-q'), row.q!);
    close(await value('insp-u'), row.u!);
    for (const h of ['long', 'short'] as const) {
      close(await value(`insp-${h}-u`), row[h]!.u);
      for (const y of ['v', 'm', 'd'] as const) {
        close(await value(`insp-${h}-${y}`), row[h]![y]);
        close(await value(`insp-${h}-ref-${y}`), scores.reference[h]![y]);
      }
    }
    const position = scores.batch.findIndex((b) => b.id === scores.tasks[task].id);
    expect(position).toBeGreaterThanOrEqual(0);
    expect(await page.textContent('[data-testid=insp-phase]')).toContain(`#${position + 1}`);
    expect(await page.textContent('[data-testid=insp-phase]')).toContain(
      scores.batch[position].phase === 'cold-start' ? 'cold start' : scores.batch[position].phase,
    );
    writeFileSync(join(work, 'expected-scores.json'), cli.stdout);
  });

  it('imports a graph and a history, scores it and shows the next batch with the inspector open', async () => {
    // The history and configuration saved by the previous test; the tiny graph in its JSON form.
    const history = join(work, 'envsched-history-before-step-20.jsonl');
    const expected = JSON.parse(readFileSync(join(work, 'expected-scores.json'), 'utf8')) as Scores;
    const { page } = await open(`?${TINY}`);
    await finishedFingerprint(page);
    await page.click('[data-testid=import-toggle]');
    await page.setInputFiles('[data-testid=import-files]', [join(ROOT, 'datasets/tiny/tiny.graph.json'), history]);
    await page.waitForSelector('[data-testid=import-summary]');
    expect(await page.textContent('[data-testid=import-summary]')).toContain(`the batch for step 20 (${expected.batch.length} tasks`);
    const shown = await page.$$eval('[data-testid=batch-view] button.chip', (els) => els.map((e) => Number(e.textContent)));
    expect(shown.sort((x, y) => x - y)).toEqual(expected.batch.map((_, k) => k + 1));
    await page.waitForSelector('[data-testid=insp-q]');
    expect(await page.textContent('[data-testid=insp-id]')).toBe(expected.batch[0].id);
    expect(await page.textContent('[data-testid=fingerprint]')).toBe('imported data');
  });

  it('corrects a malformed URL with notices and keeps working', async () => {
    const { page } = await open(`?dataset=tiny&B=12&T=30&rho=7&K_within=lots&bogus=1&h_long=-2`);
    await finishedFingerprint(page);
    const notices = await page.$$eval('[data-testid=notice]', (els) => els.map((e) => e.textContent ?? ''));
    expect(notices).toHaveLength(4);
    expect(notices.join('\n')).toMatch(/rho=7: must be in \[0, 1\]/);
    expect(notices.join('\n')).toMatch(/bogus: unknown setting/);
    const url = new URL(page.url());
    expect(url.searchParams.has('rho')).toBe(false); // corrected to the default
    expect(url.searchParams.get('T')).toBe('30');
  });

  it('opens a link of the earlier version in the world it was made in, says so, and rewrites it', async () => {
    const { page } = await open(`?v=1&dataset=tiny&B=8&T=30`);
    await finishedFingerprint(page);
    const notices = await page.$$eval('[data-testid=notice]', (els) => els.map((e) => e.textContent ?? ''));
    expect(notices, notices.join('\n')).toHaveLength(1);
    expect(notices[0]).toMatch(/v=1: this link was made in the fifth calibration fit/);
    const url = new URL(page.url());
    expect(url.searchParams.get('v')).toBe(String(URL_VERSION));
    expect(url.searchParams.get('w.logitScale')).toBe('5.2364');
    expect(url.searchParams.get('T')).toBe('30');
  });

  it('reports a malformed graph or history file by name and line, and keeps working', async () => {
    const { page } = await open(`?${TINY}`);
    let { runId } = await finishedFingerprint(page);
    await page.click('[data-testid=import-toggle]');
    const badGraph = join(work, 'broken.graph.json');
    writeFileSync(badGraph, '{"format": "envsched-graph", "version": 1,\n "name": "x", "envs": [}');
    await page.setInputFiles('[data-testid=import-files]', [badGraph]);
    await expect.poll(() => page.textContent('[data-testid=notices]')).toMatch(/broken\.graph\.json:2:\d+: malformed JSON/);
    const badHistory = join(work, 'bad.jsonl');
    const firstTask = (JSON.parse(readFileSync(join(ROOT, 'datasets/tiny/tiny.graph.json'), 'utf8')) as { tasks: { id: string }[] })
      .tasks[0].id;
    writeFileSync(badHistory, `{"step": 0, "task": "${firstTask}", "rewards": [1, 0]}\n{"step": 0, "task": "nope", "rewards": [1]}\n`);
    await page.setInputFiles('[data-testid=import-files]', [join(ROOT, 'datasets/tiny/tiny.graph.json'), badHistory]);
    await expect.poll(() => page.textContent('[data-testid=notices]')).toMatch(/bad\.jsonl:2:task: unknown task id "nope"/);
    // Back to the simulation, and a knob still re-runs it.
    await page.click('text=Back to the simulation');
    ({ runId } = await finishedFingerprint(page, runId));
    await page.fill('[data-testid=num-a-seed]', '3');
    await page.press('[data-testid=num-a-seed]', 'Enter');
    const after = await finishedFingerprint(page, runId);
    expect(after.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is keyboard operable: space plays, arrows step, presentation mode enlarges type', async () => {
    const { page } = await open(`?${TINY}&step=5&present=1&controls=0`);
    await finishedFingerprint(page);
    expect(await page.locator('aside.side').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.classList.contains('present'))).toBe(true);
    expect(await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize))).toBeGreaterThanOrEqual(18);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => new URL(page.url()).searchParams.get('step')).toBe('7');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => new URL(page.url()).searchParams.get('step')).toBe('6');
    await page.keyboard.press(' ');
    await expect.poll(() => Number(new URL(page.url()).searchParams.get('step')), { timeout: 10_000 }).toBeGreaterThan(7);
    await page.keyboard.press(' ');
    expect(await page.getAttribute('[data-testid=play]', 'aria-pressed')).toBe('false');
  });

  it("reproduces the paper's tables in the worker with a progress bar", async () => {
    const { page } = await open(`?${TINY}`);
    await finishedFingerprint(page);
    await page.click('[data-testid=reproduce-toggle]');
    await page.fill('[data-testid=reproduce-panel] input >> nth=1', '12');
    await page.click('[data-testid=reproduce-run]');
    await page.waitForSelector('[data-testid=reproduce-panel] progress');
    await page.waitForSelector('[data-testid=reproduce-table]', { timeout: 120_000 });
    const rows = await page.$$eval('[data-testid=reproduce-table] tbody tr', (trs) => trs.map((tr) => tr.querySelector('td')?.textContent));
    expect(rows).toEqual(['random', 'dapo', 'mopps', 'dps', 'envsched', 'within-only', 'cross-only', 'coverage-only', 'exploitation-only']);
    // The paper's random-scheduling figure stands beside the simulated one.
    expect(await page.textContent('[data-testid=reproduce-table] tbody tr >> nth=0')).toContain('0.032');
    expect(await page.textContent('[data-testid=reproduce-world]')).toContain('the calibrated defaults (docs/calibration.md)');
    // Table 4 step by step (step 0 the random cold start), the paper's step-1 and step-7 figures beside it with a mark each.
    const t4 = await page.$$eval('[data-testid=reproduce-table4] tbody tr', (trs) => trs.map((tr) => tr.querySelector('td')?.textContent));
    expect(t4).toEqual(['0', '1', 'paper', '2', '3', '4', '5', '6', '7', 'paper']);
    const paper = await page.$$eval('[data-testid=reproduce-table4-paper]', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(paper[0]).toContain('0.0596');
    expect(paper[1]).toContain('0.921');
    for (const row of paper) expect(row.match(/[✓✗]/g)).toHaveLength(3);
    // Beside the picks' hit rate, the prediction's own (its highest priorities q), from step 1 on.
    const topQ = await page.$$eval('[data-testid=reproduce-table4] tbody tr:not([data-testid]) td:last-child', (tds) =>
      tds.map((td) => td.textContent),
    );
    expect(topQ[0]).toBe('–');
    for (const cell of topQ.slice(1)) expect(Number(cell)).toBeGreaterThanOrEqual(0);
    // Figure 4, in words in the paper: the variance of both schedulers and EnvSched's coverage, quarter by quarter.
    expect(await page.textContent('[data-testid=reproduce-figure4]')).toMatch(/random \d\.\d{4} \/ \d\.\d{4} \/ \d\.\d{4} \/ \d\.\d{4}/);
    const checks = await page.$$eval('[data-testid=reproduce-checks] tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(checks.filter((c) => c.includes('Figure 4:'))).toHaveLength(4);
  });

  it('opens a fitted world with one click: its mechanisms and constants in the link, and the run the command line gives in it', async () => {
    const { page } = await open(`?${TINY}`);
    let { runId } = await finishedFingerprint(page);
    await page.click('[data-testid=world-knobs] > summary');
    await page.click('[data-testid=world-fit-adam]');
    ({ runId } = await finishedFingerprint(page, runId));
    await page.waitForFunction(() => new URLSearchParams(location.search).get('w.gradientNoise') === '1.114');
    const { fingerprint } = await finishedFingerprint(page, runId - 1);
    const query = new URLSearchParams(new URL(page.url()).search);
    expect(query.get('w.logitScale')).toBe('4.68');
    expect(await page.inputValue('[data-testid=world-etaCompetence]')).toBe('0.008387');
    const cli = await runCli(['simulate', '--dataset', 'tiny', '--config', tinyConfig(), '--world', 'adam', '--json']);
    expect(JSON.parse(cli.stdout).fingerprint).toBe(fingerprint);
    await page.click('[data-testid=world-fit-calibrated]');
    await page.waitForFunction(() => ![...new URLSearchParams(location.search).keys()].some((k) => k.startsWith('w.')));
  });

  it("says which world the reproduction's verdicts describe when the link changes one", async () => {
    const { page } = await open(`?${TINY}&w.breadth=0`);
    await finishedFingerprint(page);
    await page.click('[data-testid=reproduce-toggle]');
    await page.fill('[data-testid=reproduce-panel] input >> nth=1', '4');
    await page.click('[data-testid=reproduce-run]');
    await page.waitForSelector('[data-testid=reproduce-world]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid=reproduce-world]')).toContain('except breadth=0 (the verdicts below describe this world');
  });
});
