// Untrusted text and the Content-Security-Policy of the built site. Imported files'
// strings are shown as text, never run as markup; the site allows scripts from itself only (no
// 'unsafe-eval', no 'unsafe-inline') and the app runs under that policy without a violation.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedFingerprint, openPage, ROOT, startSite, type OpenPage, type Site } from './site.ts';

let site: Site;
const opened: OpenPage[] = [];
const work = mkdtempSync(join(tmpdir(), 'envsched-e2e-security-'));

async function open(query: string): Promise<OpenPage> {
  const o = await openPage(site, query);
  opened.push(o);
  // Every CSP violation is recorded (the policy itself would also block an injected handler; the
  // text checks below do not rely on that).
  await o.page.addInitScript(() => {
    (globalThis as { __violations?: string[] }).__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (globalThis as unknown as { __violations: string[] }).__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await o.page.goto(`${site.url}${query}`); // again, now with the listener (the first load rewrote the URL)
  return o;
}

const IMG = '<img src=x onerror="globalThis.__pwned=1">';
const SCRIPT = '<script>globalThis.__pwned=2</script>';

beforeAll(async () => {
  site = await startSite();
}, 600_000);

afterAll(async () => {
  for (const o of opened) expect(o.errors, `console errors on ${o.page.url()}`).toEqual([]);
  await site?.close();
});

describe('untrusted text and the Content-Security-Policy', () => {
  it('shows imported ids, texts, environment and tool names literally and runs none of them', async () => {
    const graph = JSON.parse(readFileSync(join(ROOT, 'datasets/tiny/tiny.graph.json'), 'utf8')) as {
      envs: { id: string; name: string; tools: string[] }[];
      tasks: { id: string; text: string; tools: string[] }[];
    };
    graph.envs.forEach((e, k) => {
      e.name = `${IMG}${SCRIPT} env ${k}`;
      e.id = `${SCRIPT}${k}`;
    });
    graph.tasks.forEach((t, k) => {
      t.id = `${IMG}#${k}`;
      t.text = `${SCRIPT}${IMG} task text ${k}`;
    });
    const graphPath = join(work, 'hostile.graph.json');
    writeFileSync(graphPath, JSON.stringify(graph));
    // A short history over every task, so the next batch and the inspector show the strings.
    const history = graph.tasks.flatMap((t, k) =>
      [0, 1].map((step) => JSON.stringify({ step, task: t.id, rewards: [(k + step) % 2, 1, 0, 0] })),
    );
    const historyPath = join(work, 'hostile.jsonl');
    writeFileSync(historyPath, `${history.join('\n')}\n`);

    const { page } = await open('?dataset=tiny&B=12&T=40');
    await finishedFingerprint(page);
    await page.click('[data-testid=import-toggle]');
    await page.setInputFiles('[data-testid=import-files]', [graphPath, historyPath]);
    await page.waitForSelector('[data-testid=insp-q]');
    const id = await page.textContent('[data-testid=insp-id]');
    expect(id).toMatch(/^<img src=x onerror="globalThis\.__pwned=1">#\d+$/);
    const text = await page.textContent('[data-testid=inspector]');
    expect(text).toContain(`${SCRIPT}${IMG} task text`);
    expect(text).toContain(`${IMG}${SCRIPT} env`);
    expect(await page.textContent('[data-testid=batch-view]')).toContain(`${IMG}${SCRIPT} env`);
    // Nothing became markup and nothing ran.
    expect(await page.locator('img[src=x]').count()).toBe(0);
    expect(await page.evaluate(() => [...document.scripts].filter((s) => s.textContent?.includes('__pwned')).length)).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.evaluate(() => (globalThis as { __violations?: string[] }).__violations)).toEqual([]);
  });

  it('keeps a notice on one line when a link quotes control characters', async () => {
    const { page } = await open('?dataset=tiny&T=20&C3={"%0A":0}');
    await finishedFingerprint(page);
    const notices = await page.$$eval('[data-testid=notice] .text', (els) => els.map((e) => e.textContent ?? ''));
    const c3 = notices.find((t) => t.startsWith('C3='));
    expect(c3).toBeDefined();
    expect(c3).toContain('\\u000a');
    expect(c3).not.toMatch(/[\n\r]/);
  });

  it('serves a policy that allows scripts from the site only, and the app runs under it', async () => {
    const html = await (await fetch(site.url)).text();
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
    expect(meta, 'CSP meta tag in site/index.html').not.toBeNull();
    const policy = meta![1].replaceAll('&#39;', "'");
    const directives = new Map(
      policy
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    const scripts = directives.get('script-src') ?? directives.get('default-src')!;
    expect(scripts).toContain("'self'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(directives.get('object-src')).toEqual(["'none'"]);
    // No inline script in the page: everything runs from files of the site.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);

    const { page, errors } = await open('?dataset=tiny&B=12&T=40');
    await finishedFingerprint(page);
    // The policy is in force (an inline script is refused) ...
    const inlineRan = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'globalThis.__inline = 1';
      document.head.append(s);
      return (globalThis as { __inline?: number }).__inline === 1;
    });
    expect(inlineRan).toBe(false);
    await expect.poll(() => page.evaluate(() => (globalThis as { __violations?: string[] }).__violations?.length)).toBe(1);
    // ... and the app needed nothing it forbids: the run, a rerun, the inspector, the reproduce panel.
    await page.fill('[data-testid=num-a-seed]', '4');
    await page.press('[data-testid=num-a-seed]', 'Enter');
    await finishedFingerprint(page, 1);
    await page.click('[data-testid=reproduce-toggle]');
    await page.waitForSelector('[data-testid=reproduce-panel]');
    const violations = await page.evaluate(() => (globalThis as { __violations?: string[] }).__violations);
    expect(violations).toEqual(['script-src-elem inline']);
    // The refused inline script is the only console error: drop it so afterAll checks the rest.
    const refused = errors.filter((e) => /Content Security Policy/.test(e));
    expect(refused).toHaveLength(1);
    errors.splice(errors.indexOf(refused[0]), 1);
  });
});
