// `envsched simulate` and `envsched reproduce` in-process: outputs, determinism, input errors.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { DEFAULT_SIM_MODEL, parseWorldOverrides } from '../src/sim/model-params.ts';
import { calibratedWorld, parseWorldKey } from '../src/ui/state/world-url.ts';

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

describe('envsched simulate --world', () => {
  const run = (extra: string[]) => runCli(['simulate', '--dataset', 'tiny', '--seed', '2', '--steps', '12', ...extra]);

  it('runs in another world, says so, and records it in the run', async () => {
    const calibrated = JSON.parse((await run(['--json'])).stdout);
    const changed = await run(['--world', 'breadth=0,forgetting=0', '--json']);
    expect(changed.code).toBe(0);
    const out = JSON.parse(changed.stdout);
    expect(out.world).toEqual({ breadth: 0, forgetting: 0 });
    expect(calibrated.world).toEqual({});
    expect(out.fingerprint).not.toBe(calibrated.fingerprint);
    // Naming the calibrated values is the calibrated world, bit for bit.
    const same = JSON.parse((await run(['--world', `breadth=${DEFAULT_SIM_MODEL.breadth}`, '--json'])).stdout);
    expect(same.fingerprint).toBe(calibrated.fingerprint);
    expect((await run(['--world', 'breadth=0,forgetting=0'])).stdout).toContain(
      'world: the calibrated defaults except breadth=0, forgetting=0',
    );
  });

  it("is the app's world: --world gives the model the link's w.<knob> keys give the worker", () => {
    const world = calibratedWorld();
    expect(parseWorldKey(world, 'w.breadth', '0')).toBeNull();
    expect(parseWorldKey(world, 'w.normalisedDrift', '1')).toBeNull();
    // The worker runs { ...DEFAULT_SIM_MODEL, ...world } (src/worker/engine.worker.ts).
    expect(parseWorldOverrides('breadth=0,normalisedDrift=1', 'command line', '--world')).toEqual({ ...DEFAULT_SIM_MODEL, ...world });
  });

  it('refuses what is not a world parameter, a value out of bounds, a malformed entry or a repeat, naming --world', async () => {
    for (const [world, message] of [
      ['breath=0', /--world: "breath" is not a world parameter \(known: partialCredit, .*familiarityDecay, familiarityMax, etaMemo\)/],
      ['breadth=2', /--world: breadth must be a number in \[0, 1\], got "2"/],
      ['logitScale=abc', /--world: logitScale must be a number in \[0\.01, 100\], got "abc"/],
      [
        'breadth',
        /--world: expected name=value or a fitted world \(memob, gradcredit, memo, std, decay, third, grpo, adam, noise, envdrift, noisedrift\), got "breadth"/,
      ],
      ['breadth=0,breadth=1', /--world: breadth is given twice/],
    ] as const) {
      const r = await run(['--world', world]);
      expect(r.code, world).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('envsched reproduce', () => {
  it('--world: the table says which world its verdicts describe', async () => {
    const args = ['reproduce', '--dataset', 'tiny', '--seeds', '1', '--steps', '4', '--table4-runs', '0'];
    const calibrated = await runCli(args);
    expect(calibrated.stdout).toContain('world: the calibrated defaults (docs/calibration.md)');
    const changed = await runCli([...args, '--world', 'signalExponent=0.5,normalisedDrift=1', '--json']);
    expect(changed.code).toBe(0);
    expect(JSON.parse(changed.stdout).world).toEqual({ signalExponent: 0.5, normalisedDrift: 1 });
  });

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
    // The prediction's own hit rate (its highest priorities, before the batch's rules), beside the picks'.
    expect(out.table4.steps[0].predictionHitRate).toBeNull();
    for (const s of out.table4.steps.slice(1))
      (expect(s.predictionHitRate).toBeGreaterThanOrEqual(0), expect(s.predictionHitRate).toBeLessThanOrEqual(1));
    expect(out.table4.lowQuartile).toHaveLength(8);
    expect(out.table4.lowQuartile[0].meanVariance).toBeLessThanOrEqual(out.table4.highQuartile[0].meanVariance);
    // Figure 4's curves: one value per step, the envs curve averaging to the row's envs per batch.
    expect(random.varianceCurve).toHaveLength(8);
    expect(random.envsCurve).toHaveLength(8);
    expect(random.envsCurve.reduce((a: number, b: number) => a + b, 0) / 8).toBeCloseTo(random.envsPerBatch, 10);
    expect(out.checks.filter((c: { what: string }) => c.what.startsWith('Figure 4:'))).toHaveLength(4);
    expect(out.checks.length).toBeGreaterThan(20);
    for (const c of out.checks) expect(['pass', 'fail', 'not measured']).toContain(c.verdict);
    const coverage = out.rows.find((row: { scheduler: string }) => row.scheduler === 'coverage-only');
    const exploitation = out.rows.find((row: { scheduler: string }) => row.scheduler === 'exploitation-only');
    expect(coverage.envsPerBatch).toBeGreaterThan(exploitation.envsPerBatch);
  });
});
