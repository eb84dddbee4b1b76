// `envsched sweep` end to end on the tiny dataset (few steps): outputs, consistency with
// `envsched simulate`, presets and input errors.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorldText } from '../src/sim/model-params.ts';
import { runCli } from './helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'envsched-sweep-'));

describe('envsched sweep', () => {
  it('runs a two-knob grid, writes JSON and CSV, and each point equals `envsched simulate`', async () => {
    const json = join(dir, 'sweep.json');
    const r = await runCli([
      'sweep',
      '--knob',
      'rho=0:1:1',
      '--knob2',
      'lambda_sim=0,0.08',
      '--seeds',
      '2',
      '--dataset',
      'tiny',
      '--steps',
      '4',
      '--workers',
      '2',
      '--out',
      json,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^sweep on tiny: 4 point\(s\) x 2 seed\(s\), 4 steps, scheduler envsched; 10 runs \(0 cached\)/);
    expect(r.stderr.trim().split('\n')).toHaveLength(10); // one plain progress line per run (stderr is not a TTY)
    const out = JSON.parse(readFileSync(json, 'utf8'));
    expect(out.format).toBe('envsched-sweep');
    expect(out.points.map((p: { values: number[] }) => p.values)).toEqual([
      [0, 0],
      [1, 0],
      [0, 0.08],
      [1, 0.08],
    ]);
    const point = out.points[1];
    expect(point.seeds).toEqual([0, 1]);
    expect(point.metrics.final.values).toHaveLength(2);
    expect(point.metrics.final.stats.n).toBe(2);
    expect(point.metrics.final.stats.lo).toBeLessThanOrEqual(point.metrics.final.stats.mean);

    const config = join(dir, 'rho1.json');
    writeFileSync(config, JSON.stringify({ rho: 1, lambda_sim: 0 }));
    const single = await runCli(['simulate', '--dataset', 'tiny', '--steps', '4', '--seed', '1', '--config', config]);
    expect(single.stdout).toContain(`fingerprint ${point.fingerprints[1]}`);

    const csv = join(dir, 'sweep.csv');
    const c = await runCli([
      'sweep',
      '--knob',
      'rho=0,1',
      '--seeds',
      '2',
      '--dataset',
      'tiny',
      '--steps',
      '4',
      '--metrics',
      'final,envs_per_batch',
      '--workers',
      '1',
      '--out',
      csv,
    ]);
    expect(c.code).toBe(0);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('rho,metric,n,mean,sd,ci95_lo,ci95_hi,seeds,values,world');
    expect(lines).toHaveLength(1 + 2 * 2);
    const finalRho1 = lines.find((l) => l.startsWith('1,final,'))!.split(',');
    // The CSV's rho = 1 runs with the default lambda_sim (0.08): the JSON grid's point (1, 0.08).
    expect(out.points[3].values).toEqual([1, 0.08]);
    expect(finalRho1[8].split(' ').map(Number)).toEqual(out.points[3].metrics.final.values);
  });

  it('refuses bad definitions with one error line naming the flag', async () => {
    const cases: [string[], RegExp][] = [
      [['--knob', 'rho=0,2'], /^error: command line:--knob: rho must be in \[0, 1\], got 2\n$/],
      [['--knob', 'rho=0,1', '--knob2', 'rho=0.5'], /^error: command line:--knob2: the two knobs must differ/],
      [[], /^error: command line:--knob: is required \(or use --preset\)/],
      [['--preset', 'table9'], /^error: command line:--preset: unknown preset "table9" \(known: table3b, rho, lambda_sim, half-lives\)/],
      [['--preset', 'rho', '--knob', 'rho=0'], /--preset: give either --preset or --knob/],
      [['--knob', 'rho=0', '--seeds', '0'], /--seeds: must be in \[1, 1000\], got 0/],
      [['--knob', 'rho=0', '--metrics', 'speed'], /--metrics: unknown metric "speed"/],
      [['--knob', 'rho=0', '--out', 'x.txt'], /--out: must end in \.json or \.csv/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['sweep', '--dataset', 'tiny', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const missing = await runCli(['sweep', '--knob', 'rho=0', '--dataset', 'no-such-pool']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^error: command line:--dataset: no dataset "no-such-pool"/);
  });

  it('runs a preset, listed in --help', async () => {
    const help = await runCli(['sweep', '--help']);
    expect(help.stdout).toContain('table3b');
    const r = await runCli(['sweep', '--preset', 'half-lives', '--seeds', '1', '--dataset', 'tiny', '--steps', '2', '--metrics', 'final']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split('\n');
    expect(rows[1]).toMatch(/h_long\s+h_short\s+final/);
    expect(rows).toHaveLength(2 + 9);
  });
});

describe('envsched sweep --world', () => {
  /** rho = 0 and 1, one seed, on tiny, in one worker. */
  const rhoSweep = (steps: number) => [
    'sweep',
    '--knob',
    'rho=0,1',
    '--seeds',
    '1',
    '--dataset',
    'tiny',
    '--steps',
    String(steps),
    '--workers',
    '1',
  ];

  it('names the world on every row of its CSV, as --world takes it, so the file alone says where its numbers come from', async () => {
    const csv = join(dir, 'world.csv');
    const args = [...rhoSweep(2), '--metrics', 'final'];
    expect((await runCli([...args, '--world', 'adam,breadth=0', '--out', csv])).code).toBe(0);
    const rows = readFileSync(csv, 'utf8').trim().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const cell = /,"([^"]*)"$/.exec(row)?.[1] ?? '';
      expect(parseWorldText(cell, 'test', 'csv')).toEqual(parseWorldText('adam,breadth=0', 'test', '--world'));
    }
    expect((await runCli([...args, '--out', csv])).code).toBe(0);
    for (const row of readFileSync(csv, 'utf8').trim().split('\n').slice(1)) expect(row.endsWith(',')).toBe(true); // the calibrated world: empty
  });

  it('runs every point in that world: the JSON says which, and each fingerprint is simulate --world of the point', async () => {
    const out = join(dir, 'world.json');
    const r = await runCli([...rhoSweep(3), '--world', 'breadth=0', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('world: the calibrated defaults except breadth=0');
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.world).toEqual({ breadth: 0 });
    for (const point of file.points) {
      const config = join(dir, `rho-${point.values[0]}.json`);
      writeFileSync(config, JSON.stringify({ rho: point.values[0] }));
      const single = await runCli([
        'simulate',
        '--dataset',
        'tiny',
        '--config',
        config,
        '--seed',
        '0',
        '--steps',
        '3',
        '--world',
        'breadth=0',
        '--json',
      ]);
      expect(point.fingerprints[0]).toBe(JSON.parse(single.stdout).fingerprint);
    }
    expect((await runCli(['sweep', '--knob', 'rho=0', '--dataset', 'tiny', '--world', 'breadth=9'])).stderr).toMatch(
      /--world: breadth must be a number in \[0, 1\], got "9"/,
    );
  });
});

describe('sharded sweeps', () => {
  it('two shards merged equal the unsharded sweep, JSON and CSV byte for byte', async () => {
    const args = ['sweep', '--knob', 'rho=0,0.5,1', '--seeds', '2', '--dataset', 'tiny', '--steps', '3', '--workers', '1'];
    const whole = join(dir, 'whole.json');
    const wholeCsv = join(dir, 'whole.csv');
    expect((await runCli([...args, '--out', whole])).code).toBe(0);
    expect((await runCli([...args, '--out', wholeCsv])).code).toBe(0);
    const shards = [join(dir, 'shard-0.json'), join(dir, 'shard-1.json')];
    for (const [i, file] of shards.entries()) expect((await runCli([...args, '--shard', `${i}/2`, '--out', file])).code).toBe(0);
    // each shard holds its own slice of the points: 0 and 2, then 1
    expect(JSON.parse(readFileSync(shards[0], 'utf8')).shard.points).toEqual([0, 2]);
    expect(JSON.parse(readFileSync(shards[1], 'utf8')).shard.points).toEqual([1]);
    const merged = join(dir, 'merged.json');
    const mergedCsv = join(dir, 'merged.csv');
    expect((await runCli(['sweep-merge', shards[1], shards[0], '--out', merged])).code).toBe(0);
    expect((await runCli(['sweep-merge', ...shards, '--out', mergedCsv])).code).toBe(0);
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    expect(readFileSync(mergedCsv, 'utf8')).toBe(readFileSync(wholeCsv, 'utf8'));
  });

  it('refuses a missing shard, a shard given twice and shards of different sweeps, naming the file', async () => {
    const args = ['sweep', '--knob', 'rho=0,1', '--seeds', '1', '--dataset', 'tiny', '--steps', '2', '--workers', '1'];
    const a = join(dir, 'a-0.json');
    const b = join(dir, 'b-1.json');
    expect((await runCli([...args, '--shard', '0/2', '--out', a])).code).toBe(0);
    expect((await runCli([...args.map((x) => (x === '2' ? '3' : x)), '--shard', '1/2', '--out', b])).code).toBe(0);
    const out = join(dir, 'never.json');
    expect((await runCli(['sweep-merge', a, '--out', out])).stderr).toMatch(/command line:files: shards 1 of 2 are missing/);
    expect((await runCli(['sweep-merge', a, a, '--out', out])).stderr).toMatch(/a-0\.json:shard\.index: shard 0 is also/);
    expect((await runCli(['sweep-merge', a, b, '--out', out])).stderr).toMatch(/b-1\.json:steps: differs from/);
    const w = join(dir, 'w-1.json'); // the other shard of the same grid, in another world
    expect((await runCli([...args, '--world', 'breadth=0', '--shard', '1/2', '--out', w])).code).toBe(0);
    expect((await runCli(['sweep-merge', a, w, '--out', out])).stderr).toMatch(/w-1\.json:world: differs from/);
    expect((await runCli([...args, '--shard', '2/2', '--out', a])).stderr).toMatch(/--shard: must be i\/n with 0 <= i < n/);
  });
});
