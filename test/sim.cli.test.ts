// `envsched simulate` and `envsched reproduce` in-process: outputs, determinism, input errors.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'envsched-sim-'));

describe('envsched simulate', () => {
  it('writes every step as JSON and CSV, and the same seed prints the same fingerprint', async () => {
    const config = join(dir, 'c.json');
    writeFileSync(config, JSON.stringify({ scheduler: 'dps', B: 32 }));
    const json = join(dir, 'run.json');
    const a = await runCli(['simulate', '--dataset', 'synthetic-51x50', '--config', config, '--seed', '5', '--steps', '6', '--out', json]);
    expect(a.stderr).toBe('');
    expect(a.code).toBe(0);
    const run = JSON.parse(readFileSync(json, 'utf8'));
    expect(run.scheduler).toBe('dps');
    expect(run.seed).toBe(5);
    expect(run.steps).toHaveLength(6);
    expect(run.steps[0].batchSize).toBe(32);
    expect(a.stdout).toContain(`fingerprint ${run.fingerprint}`);
    const csv = join(dir, 'run.csv');
    const b = await runCli(['simulate', '--dataset', 'synthetic-51x50', '--config', config, '--seed', '5', '--steps', '6', '--out', csv]);
    expect(b.stdout).toBe(a.stdout);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[0].split(',')).toContain('heldout:suite-A');
  });

  it('--json prints the whole run as one JSON object, the same run --out writes', async () => {
    const a = await runCli(['simulate', '--dataset', 'synthetic-51x50', '--seed', '3', '--steps', '4', '--json']);
    expect(a.code).toBe(0);
    const run = JSON.parse(a.stdout);
    expect(run.steps).toHaveLength(4);
    expect(run.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const file = join(dir, 'same.json');
    await runCli(['simulate', '--dataset', 'synthetic-51x50', '--seed', '3', '--steps', '4', '--out', file]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(run);
  });

  it('reports a missing dataset and a bad --out as input errors', async () => {
    const missing = await runCli(['simulate', '--dataset', 'no-such-pool']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: command line:--dataset: no dataset "no-such-pool"/);
    const badOut = await runCli(['simulate', '--dataset', 'synthetic-51x50', '--out', 'run.txt']);
    expect(badOut.code).toBe(2);
    expect(badOut.stderr).toMatch(/--out: must end in \.json or \.csv/);
  });
});

describe('envsched reproduce', () => {
  it('prints one JSON object: a row per scheduler, Table 3(b), Table 4 by step, the paper figures and the checks', async () => {
    const r = await runCli(['reproduce', '--dataset', 'synthetic-51x50', '--seeds', '1', '--steps', '8', '--table4-runs', '4', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.rows.map((row: { scheduler: string }) => row.scheduler)).toEqual([
      'random',
      'dapo',
      'mopps',
      'dps',
      'envsched',
      'within-only',
      'cross-only',
      'coverage-only',
      'exploitation-only',
    ]);
    const random = out.rows[0];
    expect(Object.keys(random.heldout)).toEqual(['40', '120', '200']);
    expect(random.heldout['40']).toBeNull(); // an 8-step run has no step 40
    expect(random.heldoutCurve).toHaveLength(9); // steps 0..8
    expect(random.heldoutCurve[0]).toBeCloseTo(out.base, 10);
    expect(random.stepsToRandomBest).not.toBeNull();
    expect(random.rollouts).toBe(8 * 64 * 8);
    expect(Object.keys(random.heldoutAtRollouts)).toEqual(['25%', '50%', '100%']);
    expect(random.heldoutAtRollouts['25%']).toBe(random.heldoutCurve[2]); // 2 of 8 steps' rollouts
    const dapo = out.rows[1];
    expect(dapo.rollouts).toBeGreaterThan(random.rollouts); // dynamic sampling pays for its dropped groups
    expect(out.paper.rows.random).toMatchObject({ meanVariance: 0.03208, medianReward: 0.595, envsPerBatch: 36.53, toolsPerBatch: 413.41 });
    expect(out.table3b.map((row: { K_within: number; K_cross: number }) => [row.K_within, row.K_cross])).toEqual([
      [3, 12],
      [12, 12],
      [6, 6],
      [6, 24],
    ]);
    expect(out.table4.runs).toBe(4);
    expect(out.table4.steps.map((s: { step: number }) => s.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(out.table4.steps[0].hitRate).toBeNull(); // the random cold start has no exploitation picks
    expect(out.table4.steps[1].hitRate).toBeGreaterThanOrEqual(0);
    expect(out.table4.lowQuartile).toHaveLength(8);
    expect(out.table4.lowQuartile[0].meanVariance).toBeLessThanOrEqual(out.table4.highQuartile[0].meanVariance);
    expect(out.checks.length).toBeGreaterThan(20);
    for (const c of out.checks) expect(['pass', 'fail', 'not measured']).toContain(c.verdict);
    const coverage = out.rows.find((row: { scheduler: string }) => row.scheduler === 'coverage-only');
    const exploitation = out.rows.find((row: { scheduler: string }) => row.scheduler === 'exploitation-only');
    expect(coverage.envsPerBatch).toBeGreaterThan(exploitation.envsPerBatch);
  });
});
