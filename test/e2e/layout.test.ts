// Projector layout and live streaming of the web app: what a lecturer sees
// at 1920 x 1080, the configuration panel at 1280 x 800, and runs that supersede each other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { finishedFingerprint, openPage, startSite, step, type OpenPage, type Site } from './site.ts';

let site: Site;
const opened: OpenPage[] = [];

async function open(query: string, width = 1280, height = 800): Promise<OpenPage> {
  const o = await openPage(site, query, { width, height });
  opened.push(o);
  return o;
}

/** Bounding boxes (page coordinates at scroll 0) of the elements matching each selector. */
function boxes(page: Page, selectors: string[]) {
  return page.evaluate(
    (sels) =>
      sels.map((s) => {
        const r = document.querySelector(s)?.getBoundingClientRect();
        return r
          ? {
              top: r.top + window.scrollY,
              bottom: r.bottom + window.scrollY,
              left: r.left,
              right: r.right,
              width: r.width,
              height: r.height,
            }
          : null;
      }),
    selectors,
  );
}

beforeAll(async () => {
  site = await startSite();
}, 600_000);

afterAll(async () => {
  for (const o of opened) expect(o.errors, `console errors on ${o.page.url()}`).toEqual([]);
  await site?.close();
});

describe('layout for a projector', () => {
  it('does not clip the scheduler menu in the configuration panel', async () => {
    const { page } = await open('?dataset=tiny&B=12&T=20');
    await finishedFingerprint(page);
    const [select, panel] = await boxes(page, ['[data-testid=scheduler-a]', 'aside.side']);
    expect(select!.right).toBeLessThanOrEqual(panel!.right - 4);
    // The selected label ("EnvSched (paper)") fits the box.
    const fits = await page.$eval('[data-testid=scheduler-a]', (el) => {
      const s = el as HTMLSelectElement;
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(s).font;
      probe.textContent = s.selectedOptions[0].textContent;
      document.body.append(probe);
      const w = probe.getBoundingClientRect().width;
      probe.remove();
      return w < s.clientWidth;
    });
    expect(fits).toBe(true);
  });

  it('puts the result card beside full rows of the five charts and the scatter at 1920 px', async () => {
    const { page } = await open('?dataset=tiny&B=12&T=20', 1920, 1080);
    await finishedFingerprint(page);
    const ids = ['envs', 'tools', 'variance', 'heldout', 'rollouts'].map((id) => `[data-testid=chart-${id}]`);
    const all = await boxes(page, [...ids, '[data-testid=scatter]']);
    const tops = all.map((b) => Math.round(b!.top));
    const rows = new Set(tops).size;
    expect(6 % rows).toBe(0); // full rows, no empty slot
    expect(tops.filter((t) => t === tops[5]).length).toBe(6 / rows);
    expect(all[5]!.height).toBeGreaterThan(all[0]!.height * 0.8);
    const card = (await boxes(page, ['[data-testid=result-card]']))[0]!;
    expect(card.right).toBeLessThanOrEqual(all[0]!.left); // the story: the card, then the charts beside it
    expect(Math.abs(card.top - all[0]!.top)).toBeLessThan(120);
  });

  it('shows controls, the result card, batch, charts, inspector, scatter and relation graph in one 1920 x 1080 screen in presentation mode', async () => {
    const { page } = await step('open the page', 30_000, () => open('?dataset=tiny&B=12&T=20&present=1&step=10', 1920, 1080));
    await step('finish the run', 60_000, () => finishedFingerprint(page));
    await step('click a batch chip', 20_000, () => page.locator('[data-testid=batch-view] button.chip').first().click());
    await step('show the inspector', 30_000, () => page.waitForSelector('[data-testid=insp-q]', { timeout: 0 }));
    await step('draw the relation graph', 20_000, () => page.waitForSelector('[data-testid=relation-graph] svg', { timeout: 0 }));
    // The story comes first (the result card beside the charts); every view still starts on the first screen.
    const views = [
      'aside.side',
      '[data-testid=result-card]',
      '[data-testid=batch-view]',
      '[data-testid=chart-heldout]',
      '[data-testid=inspector]',
      '[data-testid=scatter]',
      '[data-testid=relation-graph]',
    ];
    for (const [k, b] of (await boxes(page, views)).entries()) {
      expect(b, views[k]).not.toBeNull();
      expect(b!.top, `${views[k]} starts on the first screen`).toBeLessThan(1080 - 100);
    }
    // Chart ticks >= 14 px and thicker lines on the projector; normal mode keeps them small.
    await expect.poll(() => page.getAttribute('[data-testid=chart-heldout] canvas', 'data-tick-size')).toBe('16');
    expect(Number(await page.getAttribute('[data-testid=chart-heldout] canvas', 'data-line-width'))).toBeGreaterThanOrEqual(3);
    const legend = await page.$eval('[data-testid=chart-heldout] .keys', (el) => parseFloat(getComputedStyle(el).fontSize));
    expect(legend).toBeGreaterThanOrEqual(14);
    await page.click('[data-testid=present-toggle]');
    await expect.poll(() => page.getAttribute('[data-testid=chart-heldout] canvas', 'data-tick-size')).toBe('11');
  }, 240_000); // above the sum of the named steps, so that a hang names its step
});

describe('streaming runs', () => {
  it('a newer configuration cancels the running one: the page ends on the newest run, as a fresh load of its link does', async () => {
    const { page } = await open('?dataset=envscaler-rl&T=60');
    let { runId } = await finishedFingerprint(page);
    // Three seeds in quick succession: the first two runs are cancelled mid-way.
    for (const seed of ['11', '12', '13']) {
      await page.fill('[data-testid=num-a-seed]', seed);
      await page.press('[data-testid=num-a-seed]', 'Enter');
      await page.waitForTimeout(60);
    }
    const last = await finishedFingerprint(page, runId);
    runId = last.runId;
    expect(new URL(page.url()).searchParams.get('seed')).toBe('13');
    await expect.poll(() => page.getAttribute('[data-testid=chart-heldout]', 'data-points')).toBe('60');
    const fresh = await open('?dataset=envscaler-rl&T=60&seed=13');
    expect((await finishedFingerprint(fresh.page)).fingerprint).toBe(last.fingerprint);
  });
});

describe('the Sweep tab', () => {
  it('opens from a link with sweep.* keys, runs the sweep, and keeps it in the URL', async () => {
    const { page } = await open('?dataset=tiny&B=12&T=10&sweep.rho=0,1&sweep.seeds=1');
    await page.waitForSelector('[data-testid=sweep-panel]');
    await page.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 120_000 });
    expect(await page.getAttribute('[data-testid=sweep-line]', 'data-points')).toBe('2');
    expect(new URL(page.url()).searchParams.get('sweep.rho')).toBe('0,1');
    // Closing the tab takes the sweep out of the link; the app's own keys stay.
    await page.click('[data-testid=sweep-toggle]');
    await expect.poll(() => new URL(page.url()).searchParams.get('sweep.rho')).toBeNull();
    expect(new URL(page.url()).searchParams.get('T')).toBe('10');
  });

  it("runs in the page's simulated world and says so", async () => {
    const { page } = await open('?dataset=tiny&B=12&T=6&w.forgetting=0&sweep.rho=0,1&sweep.seeds=1');
    await page.waitForSelector('[data-testid=sweep-progress][data-done=true]', { timeout: 120_000 });
    expect(await page.textContent('[data-testid=sweep-world]')).toContain('the calibrated one except forgetting=0');
  });
});
