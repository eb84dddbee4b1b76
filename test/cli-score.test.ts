// `envsched score` end to end: the spec vectors through the CLI, and every kind of bad input
// giving one line `error: <file>:<place>: <problem>` with exit code 2.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeGraphBinary } from '../src/engine/graph-binary.ts';
import type { Scores } from '../src/engine/types.ts';
import { runCli } from './helpers/cli.ts';
import { scoreMismatches } from './helpers/scores-compare.ts';
import { SPEC_VECTOR_DIR, SPEC_VECTOR_NAMES, loadSpecVector } from './helpers/spec-vectors.ts';

const work = mkdtempSync(join(tmpdir(), 'envsched-cli-'));
const basic = `${SPEC_VECTOR_DIR}envsched-basic/`;

function write(name: string, content: string | Uint8Array): string {
  const path = join(work, name);
  writeFileSync(path, content);
  return path;
}

function expectSameScores(actual: Scores, expected: Scores): void {
  expect(scoreMismatches(actual, expected)).toEqual([]);
}

describe('envsched score', () => {
  it.each(SPEC_VECTOR_NAMES)('prints the expected scores for spec vector %s', async (name) => {
    const dir = `${SPEC_VECTOR_DIR}${name}/`;
    const result = await runCli([
      'score',
      '--graph',
      `${dir}graph.json`,
      '--history',
      `${dir}history.jsonl`,
      '--config',
      `${dir}config.json`,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expectSameScores(JSON.parse(result.stdout) as Scores, loadSpecVector(name).expected);
  });

  it('reads the binary graph exactly like the JSON one, and writes --out', async () => {
    const vector = loadSpecVector('envsched-basic');
    const bin = write('basic.graph.bin', encodeGraphBinary(vector.graph));
    const out = join(work, 'scores.json');
    const result = await runCli([
      'score',
      '--graph',
      bin,
      '--history',
      `${basic}history.jsonl`,
      '--config',
      `${basic}config.json`,
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expectSameScores(JSON.parse(readFileSync(out, 'utf8')) as Scores, vector.expected);
  });

  it('--step scores an earlier step from the same file (later observations ignored)', async () => {
    const full = await runCli(['score', '--graph', `${basic}graph.json`, '--history', `${basic}history.jsonl`, '--step', '5']);
    const lines = readFileSync(`${basic}history.jsonl`, 'utf8')
      .split('\n')
      .filter((l) => l && (JSON.parse(l) as { step: number }).step < 5);
    const cut = await runCli(['score', '--graph', `${basic}graph.json`, '--history', write('early.jsonl', lines.join('\n'))]);
    expect(full.code).toBe(0);
    expect(full.stdout).toBe(cut.stdout);
  });

  it('draws a progress bar only on a terminal, and ends its line before an error', async () => {
    const args = ['score', '--graph', `${basic}graph.json`, '--history', `${basic}history.jsonl`];
    const plain = await runCli(args);
    const tty = await runCli(args, { tty: true });
    expect(tty.stdout).toBe(plain.stdout);
    expect(tty.stderr).toMatch(/^\rscore \[[#.]+\] +0% reading the graph.*100% done +\n$/s);
    const bad = await runCli(['score', '--graph', `${basic}graph.json`, '--history', write('tty-bad.jsonl', '{"step": 0}')], { tty: true });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/\n\s*$/);
    expect(bad.stderr.split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      expect.stringMatching(/tty-bad\.jsonl:1:task: must be a task id string/),
    ]);
  });

  it('gives the same output with --implementation reference', async () => {
    const args = ['score', '--graph', `${basic}graph.json`, '--history', `${basic}history.jsonl`, '--config', `${basic}config.json`];
    const wasm = JSON.parse((await runCli(args)).stdout) as Scores;
    const reference = JSON.parse((await runCli([...args, '--implementation', 'reference'])).stdout) as Scores;
    expectSameScores(wasm, reference);
  });
});

describe('envsched score: bad input is one line and exit code 2', () => {
  const graphText = readFileSync(`${basic}graph.json`, 'utf8');
  const graph = JSON.parse(graphText) as { within: [number, number][][]; tasks: unknown[] };
  const historyLine = (fields: Record<string, unknown>) =>
    JSON.stringify({ step: 0, task: 'env_0_rl-task_0', rewards: [0.5, 1], ...fields });

  const cases: [string, () => string[], RegExp][] = [
    [
      'malformed graph JSON',
      () => ['--graph', write('bad.json', graphText.slice(0, 500)), '--history', `${basic}history.jsonl`],
      /bad\.json:\d+:\d+: malformed JSON/,
    ],
    [
      'a reward outside [0,1]',
      () => ['--history', write('h1.jsonl', `${historyLine({})}\n${historyLine({ step: 1, rewards: [0.2, 1.5] })}\n`)],
      /h1\.jsonl:2:rewards\[1\]: reward must be a finite number in \[0, 1\], got 1\.5/,
    ],
    [
      'a NaN reward (not JSON)',
      () => ['--history', write('h2.jsonl', '{"step": 0, "task": "env_0_rl-task_0", "rewards": [NaN]}\n')],
      /h2\.jsonl:1(:\d+)?: malformed JSON/,
    ],
    [
      'an unknown task id',
      () => ['--history', write('h3.jsonl', historyLine({ task: 'env_99_rl-task_1' }))],
      /h3\.jsonl:1:task: unknown task id "env_99_rl-task_1"/,
    ],
    [
      'a duplicate (task, step)',
      () => ['--history', write('h4.jsonl', `${historyLine({})}\n\n${historyLine({ rewards: [0, 0] })}`)],
      /h4\.jsonl:3: task env_0_rl-task_0 is already observed at step 0 \(line 1\)/,
    ],
    [
      'a wrong type in a history line',
      () => ['--history', write('h5.jsonl', historyLine({ step: '3' }))],
      /h5\.jsonl:1:step: must be an integer/,
    ],
    [
      'flags of the wrong length',
      () => ['--history', write('h6.jsonl', historyLine({ flags: [true] }))],
      /h6\.jsonl:1:flags: must be a list of 2 booleans/,
    ],
    [
      'a neighbour index out of range',
      () => {
        const bad = structuredClone(graph);
        bad.within[3][0][0] = 9999;
        return ['--graph', write('oob.graph.json', JSON.stringify(bad))];
      },
      /oob\.graph\.json:within\[3\]\[0\]: neighbour index 9999 is out of range/,
    ],
    [
      'an unsorted neighbour list',
      () => {
        const bad = structuredClone(graph);
        bad.within[2].reverse();
        return ['--graph', write('unsorted.graph.json', JSON.stringify(bad))];
      },
      /unsorted\.graph\.json:within\[2\]\[1\]: list is not sorted/,
    ],
    ['a config value out of range', () => ['--config', write('c1.json', '{"rho": 1.5}')], /c1\.json:rho: must be in \[0, 1\], got 1\.5/],
    ['an unknown config key', () => ['--config', write('c2.json', '{"lamda_sim": 0.1}')], /c2\.json:lamda_sim: unknown configuration key/],
    [
      'a scheduler that is not served',
      () => ['--config', write('c3.json', '{"scheduler": "dapo"}')],
      /c3\.json:scheduler: dapo is not served/,
    ],
    [
      'a truncated binary graph',
      () => {
        const bytes = encodeGraphBinary(loadSpecVector('envsched-basic').graph);
        return ['--graph', write('cut.graph.bin', bytes.subarray(0, bytes.length - 100))];
      },
      /cut\.graph\.bin:length: truncated/,
    ],
    ['a missing file', () => ['--graph', join(work, 'nope.json')], /nope\.json:-: cannot read the file \(no such file\)/],
    ['a negative --step', () => ['--step=-1'], /command line:--step: must be in \[0, /],
    ['an unknown flag', () => ['--stpe', '3'], /command line:arguments: Unknown option '--stpe'/],
  ];

  it.each(cases)('%s', async (_name, makeArgs, message) => {
    const args = makeArgs();
    const withDefaults = [...args];
    if (!args.includes('--graph')) withDefaults.push('--graph', `${basic}graph.json`);
    if (!args.includes('--history')) withDefaults.push('--history', `${basic}history.jsonl`);
    const result = await runCli(['score', ...withDefaults]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: [^\n]+\n$/);
    expect(result.stderr).toMatch(message);
  });
});
