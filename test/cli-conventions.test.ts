// The conventions every `envsched` command follows: --version, usage on standard error when the
// exit is an error, `-` for standard input / output, and bundled datasets that work before
// `npm start` has built anything (the default is envscaler-rl, built on first use).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scores } from '../src/engine/types.ts';
import { COMMANDS } from '../src/cli/commands/index.ts';
import { runCli } from './helpers/cli.ts';
import { SPEC_VECTOR_DIR } from './helpers/spec-vectors.ts';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
const basic = `${SPEC_VECTOR_DIR}envsched-basic/`;
const work = mkdtempSync(join(tmpdir(), 'envsched-cli-conventions-'));
const ONE_LINE_ERROR = /^error: [^\n]+?:[^\n]*: [^\n]+\n$/;

describe('version and usage', () => {
  it('--version prints the package version, in-process and from the installed bin', async () => {
    const result = await runCli(['--version']);
    expect(result).toEqual({ code: 0, stdout: `envsched ${pkg.version}\n`, stderr: '' });
    const bin = execFileSync(process.execPath, [new URL('bin/envsched.js', root).pathname, '--version'], { encoding: 'utf8' });
    expect(bin).toBe(`envsched ${pkg.version}\n`);
  });

  it('with no command, exits 2 with the usage on standard error only', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^usage: envsched <command>/);
    expect(result.stderr).toContain('simulate');
  });

  it('asked-for help goes to standard output with exit 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^usage: envsched <command>/);
    expect(result.stderr).toBe('');
    const command = await runCli(['simulate', '--help']);
    expect(command.code).toBe(0);
    expect(command.stdout).toMatch(/^usage: envsched simulate \[--dataset D\]/);
  });
});

describe('- means standard input or output', () => {
  const args = ['score', '--graph', `${basic}graph.json`, '--config', `${basic}config.json`];

  it('score --history - reads the history from standard input, --out - writes standard output', async () => {
    const fromFile = await runCli([...args, '--history', `${basic}history.jsonl`]);
    const fromStdin = await runCli([...args, '--history', '-', '--out', '-'], { stdin: readFileSync(`${basic}history.jsonl`, 'utf8') });
    expect(fromStdin.stderr).toBe('');
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect((JSON.parse(fromStdin.stdout) as Scores).batch.length).toBeGreaterThan(0);
  });

  it('a bad line on standard input is reported as stdin:<line>', async () => {
    const first = readFileSync(`${basic}history.jsonl`, 'utf8').split('\n')[0];
    const result = await runCli([...args, '--history', '-'], { stdin: `${first}\n{oops\n` });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: stdin:2:/);
    expect(result.stderr).toMatch(ONE_LINE_ERROR);
  });

  it('--history - without a standard input is one clear error', async () => {
    const result = await runCli([...args, '--history', '-']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: command line:--history: "-" reads standard input, and there is none here\n');
  });

  it('simulate --out - writes the run as JSON to standard output and the summary to standard error', async () => {
    const result = await runCli(['simulate', '--dataset', 'synthetic-51x50', '--steps', '3', '--out', '-']);
    expect(result.code).toBe(0);
    const run = JSON.parse(result.stdout) as { steps: unknown[] };
    expect(run.steps).toHaveLength(3);
    expect(result.stderr).toMatch(/fingerprint/i);
  });
});

describe('bundled datasets', () => {
  const saved = process.env.ENVSCHED_DATASETS_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.ENVSCHED_DATASETS_DIR;
    else process.env.ENVSCHED_DATASETS_DIR = saved;
  });

  it('simulate defaults to envscaler-rl (2,550 tasks)', async () => {
    const result = await runCli(['simulate', '--steps', '2']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('envscaler-rl');
  });

  it('a dataset not built yet is built on first use, with a progress bar on a terminal, then reused', async () => {
    process.env.ENVSCHED_DATASETS_DIR = mkdtempSync(join(tmpdir(), 'envsched-datasets-'));
    const first = await runCli(['simulate', '--dataset', 'tiny', '--steps', '2'], { tty: true });
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/\rbuilding dataset tiny \[[#.]+\] +\d+% /);
    expect(first.stderr).toMatch(/100% done/);
    const again = await runCli(['simulate', '--dataset', 'tiny', '--steps', '2'], { tty: true });
    expect(again.stderr).not.toContain('building dataset');
    expect(again.stdout).toBe(first.stdout);
  });

  it('off a terminal the build says so in two lines (the compiled CLI, a fresh folder)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'envsched-datasets-'));
    const result = spawnSync(
      process.execPath,
      [
        new URL('bin/envsched.js', root).pathname,
        'reproduce',
        '--dataset',
        'tiny',
        '--seeds',
        '1',
        '--steps',
        '2',
        '--table4-runs',
        '0',
        '--json',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, ENVSCHED_DATASETS_DIR: dir },
      },
    );
    expect(result.status).toBe(0);
    expect(result.stderr.split('\n').filter((l) => l.startsWith('datasets: '))).toEqual([
      'datasets: building tiny (48 tasks)...',
      expect.stringMatching(/^datasets: tiny built in \d+\.\d s$/),
    ]);
    expect(JSON.parse(result.stdout)).toMatchObject({ dataset: 'tiny', seeds: 1 });
  });

  it('a folder it cannot write is one error line saying what to set', async () => {
    const file = join(work, 'not-a-folder');
    writeFileSync(file, '');
    process.env.ENVSCHED_DATASETS_DIR = file;
    const result = await runCli(['simulate', '--dataset', 'tiny', '--steps', '2']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringMatching(/^error: datasets\/tiny:-: cannot build the bundled dataset .*ENVSCHED_DATASETS_DIR/),
    ]);
  });
});

describe('the docs', () => {
  it('name only commands that exist (in code spans and command examples)', () => {
    const names = new Set(COMMANDS.map((c) => c.name));
    const docs = [
      'README.md',
      ...readdirSync(new URL('docs/', root))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const unknown: string[] = [];
    for (const file of docs) {
      const text = readFileSync(new URL(file, root), 'utf8');
      // `envsched run ...` in backticks, or an indented example line `    npx envsched run ...`
      for (const m of text.matchAll(/(?:`|^ {4}(?:npx )?)envsched ([a-z][a-z-]*)/gm))
        if (!names.has(m[1])) unknown.push(`${file}: envsched ${m[1]}`);
    }
    expect(unknown).toEqual([]);
  });
});
