import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';

// The diagnostic scripts behind tables of docs/reproduction.md: they keep running, and their
// arithmetic holds together.
const run = (name: string, args: string[] = []) =>
  execFileSync(process.execPath, [new URL(`../scripts/${name}`, import.meta.url).pathname, ...args], { encoding: 'utf8' });

describe('scripts/table4-diagnose.mjs', () => {
  it('splits every step 1-7 of Table 4 into never-observed and observed picks', () => {
    const out = run('table4-diagnose.mjs', ['--runs', '2']);
    expect(out).toMatch(/highest quartile from 0\.\d+, its mean 0\.\d+/);
    expect(out).toMatch(/environment-level ceiling .* k = 8: 0\.\d+, k = 12: 0\.\d+, k = 16: 0\.\d+/);
    const tables = out.split('\nstep ').slice(1);
    expect(tables).toHaveLength(2); // the calibrated pool, then the counterfactual one
    for (const table of tables) {
      const rows = table
        .split('\n')
        .slice(1)
        .filter((line) => /^\d/.test(line))
        .map((line) => line.trim().split(/\s+/).map(Number));
      expect(rows.map((r) => r[0])).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // The prediction's own top 32 hit more often than the exposure-discounted scores the picks follow.
      const [, , , , , , topQ, topQOmega] = rows[6];
      expect(topQ).toBeGreaterThan(topQOmega);
      expect(topQ).toBeLessThanOrEqual(1);
      for (const [, batchVar, hit, freshShare, freshHit, seenHit] of rows) {
        expect(batchVar).toBeGreaterThan(0);
        expect(freshShare).toBeGreaterThan(0);
        expect(freshShare).toBeLessThanOrEqual(1);
        if (freshShare < 1) {
          expect(hit).toBeGreaterThanOrEqual(Math.min(freshHit, seenHit) - 1e-3);
          expect(hit).toBeLessThanOrEqual(Math.max(freshHit, seenHit) + 1e-3);
        }
      }
    }
    // The graph's ceiling: neighbours' exact variances as the prediction, within lists before cross lists.
    const ceiling = out
      .split('\n')
      .filter((line) => /^(within|cross)-environment neighbours, k = \d+|^the task's environment's mean/.test(line))
      .map((line) => line.trim().split(/\s+/).slice(-2).map(Number));
    expect(ceiling).toHaveLength(9);
    for (const [spearman, share] of ceiling) {
      expect(spearman).toBeGreaterThan(-1);
      expect(spearman).toBeLessThan(1);
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(1);
    }
    expect(ceiling[2][0]).toBeGreaterThan(ceiling[6][0]); // k = 6: within-environment neighbours say more than cross ones
  }, 60_000);
});

describe('scripts/table4-diagnose.mjs --family-cells', () => {
  it("widens the operation families' offsets: k = 0 removes them, and random's median reward falls as they widen", () => {
    const out = run('table4-diagnose.mjs', ['--runs', '2', '--family-cells', '0:4.9054,3:4.9054']);
    expect(out).toMatch(/the generated offsets \(k = 1\): family \d+: -?\d\.\d\d/);
    const rows = out
      .split('\n')
      .filter((line) => /^\s+[03]\s+4\.9054/.test(line))
      .map((line) => line.trim().split(/\s+/).map(Number));
    expect(rows).toHaveLength(2);
    for (const [, , , , , hit1, hit7] of rows)
      for (const h of [hit1, hit7]) (expect(h).toBeGreaterThanOrEqual(0), expect(h).toBeLessThanOrEqual(1));
    // Harder families get harder and easier ones easier: more tasks out of reach, a lower median reward.
    expect(rows[1][4]).toBeLessThan(rows[0][4]);
  }, 60_000);
});

describe('scripts/table4-diagnose.mjs --coherence-cells', () => {
  it("c = 0, k = 1 is the generated pool; making each environment's tasks alike in expected reward makes within-environment neighbours more telling", () => {
    const out = run('table4-diagnose.mjs', ['--runs', '2', '--coherence-cells', '0:1,0.8:1']);
    // What the graph's neighbours share: expected reward far more than variance.
    const [muCorr, varCorr, r2] = /expected reward (-?\d\.\d+), variance (-?\d\.\d+); .* R\^2 = (\d\.\d+)/.exec(out)!.slice(1).map(Number);
    expect(muCorr).toBeGreaterThan(varCorr);
    expect(r2).toBeGreaterThan(0);
    expect(r2).toBeLessThan(1);
    const rows = out
      .split('\n')
      .filter((line) => /^\s+0\.(00|80)\s+1\.00\s/.test(line))
      .map((line) => line.trim().split(/\s+/).map(Number));
    expect(rows).toHaveLength(2);
    // The generated pool's within-environment ceiling (k = 6) as the ceiling table prints it.
    const ceiling6 = Number(/within-environment neighbours, k = 6\s+\S+\s+(\d\.\d+)/.exec(out)![1]);
    expect(rows[0][5]).toBeCloseTo(ceiling6, 3);
    expect(rows[1][5]).toBeGreaterThan(rows[0][5]); // the within-environment ceiling (6 neighbours)
  }, 60_000);
});

describe('scripts/table4-diagnose.mjs --twin-sizes', () => {
  it("s = 1 is the generated pool; neighbours sharing one reward structure raise the graph's ceiling", () => {
    const out = run('table4-diagnose.mjs', ['--runs', '2', '--twin-sizes', '1,4']);
    const rows = out
      .split('\n')
      .filter((line) => /^\s+[14]\s+0\.\d{4}\s/.test(line))
      .map((line) => line.trim().split(/\s+/).map(Number));
    expect(rows.map((r) => r[0])).toEqual([1, 4]);
    const ceiling6 = Number(/within-environment neighbours, k = 6\s+\S+\s+(\d\.\d+)/.exec(out)![1]);
    expect(rows[0][4]).toBeCloseTo(ceiling6, 3);
    expect(rows[1][4]).toBeGreaterThan(rows[0][4]);
    for (const [, , , , , hit1, hit7] of rows)
      for (const h of [hit1, hit7]) (expect(h).toBeGreaterThanOrEqual(0), expect(h).toBeLessThanOrEqual(1));
  }, 60_000);
});

describe('scripts/calibrate-diagnose.mjs', () => {
  it("splits each quarter's variance by phase, beside the pool's and the most any batch could take", () => {
    const out = run('calibrate-diagnose.mjs', ['--seeds', '1', '--steps', '40', '--schedulers', 'random,envsched', '--no-counterfactuals']);
    const rows = out
      .split('\nwhere the variance goes')[1]
      .split('\nwhere in expected reward')[0]
      .split('\n')
      .filter((line) => /^(random|envsched) /.test(line))
      .map((line) => line.trim().split(/\s+/));
    expect(rows.map((r) => `${r[0]} ${r[1]}`)).toEqual(['random', 'envsched'].flatMap((s) => [1, 2, 3, 4].map((q) => `${s} ${q}`)));
    for (const [
      scheduler,
      ,
      picks,
      coverage,
      exploitation,
      pool,
      predictedTop,
      priorityTop,
      filteredOfTop,
      filteredTop,
      unfilteredTop,
      trueTop,
      poolReward,
    ] of rows) {
      // Random has no phases, no prediction and no progress filter; EnvSched's coverage picks come first, then its exploitation picks.
      if (scheduler === 'random')
        expect([coverage, exploitation, predictedTop, priorityTop, filteredOfTop, filteredTop, unfilteredTop]).toEqual(Array(7).fill('-'));
      const n = (x: string) => Number(x);
      const onlyEnvSched = scheduler === 'envsched' ? [coverage, exploitation, predictedTop, priorityTop, unfilteredTop] : [];
      // A quarter in which the filter excluded none of the top 64 has no variance of the excluded to show.
      if (scheduler === 'envsched' && filteredTop !== '-') onlyEnvSched.push(filteredTop);
      for (const x of [picks, pool, trueTop, ...onlyEnvSched]) {
        expect(n(x)).toBeGreaterThanOrEqual(0);
        expect(n(x)).toBeLessThanOrEqual(n(trueTop)); // no 64 tasks carry more than the truth's top 64
      }
      if (scheduler === 'envsched') (expect(n(filteredOfTop)).toBeGreaterThanOrEqual(0), expect(n(filteredOfTop)).toBeLessThanOrEqual(64));
      expect(n(poolReward)).toBeGreaterThan(0);
      expect(n(poolReward)).toBeLessThan(1);
    }
    // By the last quarter of 40 steps the progress filter has enough transitions to exclude some of the top priorities.
    const lastQuarter = rows.find((r) => r[0] === 'envsched' && r[1] === '4')!;
    expect(Number(lastQuarter[8])).toBeGreaterThan(0);
    // The median reward splits into parts whose medians bracket it: first and repeated picks of a task, and EnvSched's two phases.
    const header = out.split('\n').find((line) => line.startsWith('scheduler') && line.includes('medianReward'))!;
    const column = header.trim().split(/\s+/);
    const cell = (scheduler: string, name: string) => {
      const line = out.split('\n').find((l) => l.startsWith(`${scheduler} `))!;
      return Number(line.trim().split(/\s+/)[column.indexOf(name)]);
    };
    const between = (x: number, a: number, b: number) => (
      expect(x).toBeGreaterThanOrEqual(Math.min(a, b)),
      expect(x).toBeLessThanOrEqual(Math.max(a, b))
    );
    for (const scheduler of ['random', 'envsched'])
      between(cell(scheduler, 'medianReward'), cell(scheduler, 'medianRewardFirst'), cell(scheduler, 'medianRewardRepeat'));
    between(cell('envsched', 'medianReward'), cell('envsched', 'medianRewardCoverage'), cell('envsched', 'medianRewardExploit'));
    expect(Number.isNaN(cell('random', 'medianRewardCoverage'))).toBe(true);
    // The pool's bands of expected reward hold every task once, at the first step and at each quarter's end.
    const bandRows = out
      .split('\nwhere in expected reward')[1]
      .split('\n')
      .filter((line) => /^(random|envsched) /.test(line))
      .map((line) => line.trim().split(/\s+/));
    expect(bandRows.map((r) => `${r[0]} ${r[1]}`)).toEqual(
      ['random', 'envsched'].flatMap((s) => [1, 10, 20, 30, 40].map((t) => `${s} ${t}`)),
    );
    for (const r of bandRows) {
      const cells = r.slice(4).join(' ').split(/\s+/);
      const counts = cells.filter((_, k) => k % 3 === 0).map(Number);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(2550);
      // Before any step the pool is the untrained policy's, whichever scheduler will train it.
      if (r[1] === '1') expect(r.slice(2)).toEqual(bandRows[0].slice(2));
    }
  }, 60_000);
});

describe('scripts/paper-elasticities.mjs', () => {
  /** The cells of the table row whose first cell starts with `label`, as numbers where they are. */
  const row = (out: string, label: string) =>
    out
      .split('\n')
      .find((line) => line.startsWith(`| ${label}`))!
      .split('|')
      .slice(2, -1)
      .map((c) => Number(c.trim()));

  it("reads the paper's gains, and the exact reading reproduces full EnvSched's margins over its two ablations", () => {
    const out = run('paper-elasticities.mjs');
    expect(row(out, 'envsched')[2]).toBeCloseTo(2.1, 2); // (benchmark mean - base) / random's gain
    const [, , full, , , coverage, exploitation] = row(out, 'full vs coverage-only');
    expect(full / coverage).toBeCloseTo(2.1 / 1.418, 2);
    expect(full / exploitation).toBeCloseTo(2.1 / 1.151, 2);
    // Random's environments per batch on 20 of the 51 environments: the analytic value.
    expect(row(out, '20')[0]).toBeCloseTo(19.33, 2);
  });
});

describe('scripts/teaching-figures.mjs', () => {
  it('prints every teaching figure the docs quote, each side with its seed count, and reads a named world', () => {
    const out = run('teaching-figures.mjs', ['--world', 'std']);
    // The lecture on classroom: EnvSched / random means and on how many of 20 seeds EnvSched is above.
    const lecture = /envs per batch (\d\.\d+) \/ (\d\.\d+) \(above on (\d+)\); mean variance 0\.\d+ \/ 0\.\d+ \(above on (\d+)\)/.exec(
      out,
    )!;
    expect(Number(lecture[1])).toBeGreaterThan(Number(lecture[2]));
    expect(Number(lecture[3])).toBeLessThanOrEqual(20);
    expect(out).toMatch(/steps to random's final held-out \d+\.\d \(\d seeds\) \/ \d+\.\d/);
    for (const t of [40, 100, 120, 200]) expect(out).toMatch(new RegExp(`step ${t}: EnvSched ahead on \\d+ of 10 seeds`));
    expect(out).toMatch(/EnvSched's gain above random's on \d+ of 10 seeds; ratios \d\.\d+ to \d\.\d+/);
    expect(out.match(/^ {2}step (40|200): \d\.\d+ \/ \d\.\d+ \(above on \d+\)/gm)).toHaveLength(2);
  }, 60_000);
});
