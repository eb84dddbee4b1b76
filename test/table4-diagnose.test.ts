import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';

// scripts/table4-diagnose.mjs backs a table of docs/reproduction.md; this keeps it running and
// its split of the picks consistent (the overall hit rate lies between its two parts).
describe('scripts/table4-diagnose.mjs', () => {
  it('splits every step 1-7 of Table 4 into never-observed and observed picks', () => {
    const script = new URL('../scripts/table4-diagnose.mjs', import.meta.url).pathname;
    const out = execFileSync(process.execPath, [script, '--runs', '2'], { encoding: 'utf8' });
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
  }, 60_000);
});
