// build-graph on the EnvScaler release as published: JSON or JSON Lines, stdin, SFT scenarios
// without verifier functions, conversation / non-conversation variants, categories, and the build
// report (stderr and --report JSON). Inputs are the real sample records and files derived from
// them (test/fixtures/README.md).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serializeGraphJson } from '../src/engine/graph-json.ts';
import type { Graph } from '../src/engine/types.ts';
import { buildGraph } from '../src/graph/build.ts';
import type { BuildReport } from '../src/graph/build-report.ts';
import { readInputText } from '../src/graph/read-node.ts';
import { parseTopologyFile } from '../src/graph/topology.ts';
import { runCli } from './helpers/cli.ts';
import { ENVSCALER_DERIVED_DIR, ENVSCALER_SAMPLE_DIR } from './helpers/fixtures.ts';

const SAMPLE_ENV = join(ENVSCALER_SAMPLE_DIR, 'env_metadata.json');
const SAMPLE_SCEN = join(ENVSCALER_SAMPLE_DIR, 'scenarios.json');
const JSONL_ENV = join(ENVSCALER_DERIVED_DIR, 'env_metadata.jsonl');
const JSONL_SCEN = join(ENVSCALER_DERIVED_DIR, 'scenarios.jsonl');
const WITH_SFT = join(ENVSCALER_DERIVED_DIR, 'scenarios-with-sft.json');
const dir = mkdtempSync(join(tmpdir(), 'envsched-release-'));
let outNo = 0;

function put(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function build(env: string, scenarios: string, extra: string[] = []) {
  const out = join(dir, `g${++outNo}.graph.json`);
  const r = await runCli(['build-graph', '--env-metadata', env, '--scenarios', scenarios, '--out', out, ...extra]);
  const graph = r.code === 0 ? (JSON.parse(readFileSync(out, 'utf8')) as Graph) : null;
  return { ...r, out, graph, bin: r.code === 0 ? readFileSync(out.replace(/\.graph\.json$/, '.graph.bin')) : null };
}

describe('JSON or JSON Lines, by content', () => {
  it('the JSON Lines fixtures hold the sample records, one per line', () => {
    const env = JSON.parse(readFileSync(SAMPLE_ENV, 'utf8')) as Record<string, unknown>;
    const lines = readFileSync(JSONL_ENV, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual(Object.values(env));
    const scen = readFileSync(JSONL_SCEN, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(scen).toEqual(JSON.parse(readFileSync(SAMPLE_SCEN, 'utf8')));
  });

  it('gives byte-identical graphs for the JSON and JSON Lines forms of the same release', async () => {
    const json = await build(SAMPLE_ENV, SAMPLE_SCEN);
    expect(json.code).toBe(0);
    // The file names say nothing: a JSON Lines file named .json reads as JSON Lines.
    const jsonl = await build(put('env_metadata.json', readFileSync(JSONL_ENV, 'utf8')), JSONL_SCEN, ['--name', 'g1']);
    expect(jsonl.code).toBe(0);
    expect(jsonl.graph!.tasks.map((t) => t.id)).toEqual(['env_151_rl-task_7', 'env_183_rl-task_29']);
    expect(readFileSync(jsonl.out, 'utf8')).toBe(readFileSync(json.out, 'utf8'));
    expect(jsonl.bin!.equals(json.bin!)).toBe(true);
  });

  it('reports a bad JSON Lines record by its line', async () => {
    const lines = readFileSync(JSONL_SCEN, 'utf8').split('\n');
    const broken = put('broken.jsonl', [lines[0], lines[1].slice(0, 40), ''].join('\n'));
    const r = await build(JSONL_ENV, broken);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: [^\n]*broken\.jsonl:2:\d+: malformed JSON/);
    const noTask = put('notask.jsonl', [lines[0], JSON.stringify({ ...JSON.parse(lines[1]), task: undefined }), ''].join('\n'));
    const r2 = await build(JSONL_ENV, noTask);
    expect(r2.stderr).toMatch(/notask\.jsonl:2\.task: is missing\n$/);
    expect(r2.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('reads JSON Lines topology and categories files as their JSON forms', () => {
    const keyed = { 'env_151_rl-task_7': { operations: [{ id: 'op1', tool: 'get_clinical_trial_by_id', family: 'lookup' }] } };
    const lines = `${JSON.stringify({ task_id: 'env_151_rl-task_7', ...keyed['env_151_rl-task_7'] })}\n${JSON.stringify({ task_id: 'x', operations: [] })}\n`;
    const fromLines = parseTopologyFile(lines, 't.jsonl');
    expect(fromLines.get('env_151_rl-task_7')).toEqual(parseTopologyFile(JSON.stringify(keyed), 't.json').get('env_151_rl-task_7'));
    expect([...fromLines.keys()]).toEqual(['env_151_rl-task_7', 'x']);
  });

  it('reads - as standard input, naming it stdin in errors, and allows one - per command', async () => {
    const text = readFileSync(JSONL_SCEN, 'utf8');
    const file = await readInputText('-', () => Readable.from([Buffer.from(text.slice(0, 100)), Buffer.from(text.slice(100))]));
    expect(file).toEqual({ text, source: 'stdin' });
    const g = buildGraph({ envMetadata: { text: readFileSync(SAMPLE_ENV, 'utf8'), source: 'e' }, scenarios: file, name: 'g2' });
    const fromFile = await build(SAMPLE_ENV, SAMPLE_SCEN, ['--name', 'g2']);
    expect(serializeGraphJson(g.graph)).toBe(readFileSync(fromFile.out, 'utf8'));
    expect(() =>
      buildGraph({
        envMetadata: { text: readFileSync(SAMPLE_ENV, 'utf8'), source: 'e' },
        scenarios: { text: '[{"task_id": 1}]', source: 'stdin' },
        name: 'x',
      }),
    ).toThrow(/^stdin:\[0\]\.task_id: must be a string/);
    // End to end: the CLI reads its standard input for -.
    const out = join(dir, 'piped.graph.json');
    const piped = await runCli(['build-graph', '--env-metadata', SAMPLE_ENV, '--scenarios', '-', '--name', 'g2', '--out', out], {
      stdin: text,
    });
    expect(piped.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(fromFile.out, 'utf8'));
    const none = await runCli(['build-graph', '--env-metadata', SAMPLE_ENV, '--scenarios', '-', '--out', out]);
    expect(none.stderr).toBe('error: command line:--scenarios: "-" reads standard input, and there is none here\n');
    const r = await runCli(['build-graph', '--env-metadata', '-', '--scenarios', '-', '--out', join(dir, 'x.graph.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: command line:--scenarios: only one input can be - (stdin); --env-metadata already is\n');
  });
});

describe('scenarios without verifier functions (the SFT part of the release)', () => {
  it('refuses them with an error that names --skip-unverifiable', async () => {
    const r = await build(SAMPLE_ENV, WITH_SFT);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: ' +
        WITH_SFT +
        ':[1].checklist_with_func: is missing: scenario "env_151_rl-sft-task_7" has no verifier functions (an SFT scenario?); --skip-unverifiable leaves such scenarios out and lists them\n',
    );
  });

  it('with --skip-unverifiable leaves them out and lists them in the report', async () => {
    const report = join(dir, 'skip-report.json');
    const r = await build(SAMPLE_ENV, WITH_SFT, ['--skip-unverifiable', '--report', report]);
    expect(r.code).toBe(0);
    expect(r.graph!.tasks.map((t) => t.id)).toEqual(['env_151_rl-task_7', 'env_183_rl-task_29']);
    expect(r.stderr).toContain('pool: 2 environments, 2 tasks (3 scenarios read)');
    expect(r.stderr).toContain(
      'left out: 1 scenario without verifier functions (--skip-unverifiable): env_151_rl-sft-task_7; 0 environments without scenarios',
    );
    const json = JSON.parse(readFileSync(report, 'utf8')) as BuildReport;
    expect(json.skipped).toEqual({
      count: 1,
      reason: 'no verifier functions (--skip-unverifiable)',
      scenarios: [{ id: 'env_151_rl-sft-task_7', env: 'env_151_rl', place: '[1]', reason: 'no checklist_with_func' }],
    });
    // The graph is the one of the RL scenarios alone.
    const plain = await build(SAMPLE_ENV, SAMPLE_SCEN, ['--name', r.graph!.name]);
    expect(readFileSync(r.out, 'utf8')).toBe(readFileSync(plain.out, 'utf8'));
  });

  it('treats an empty checklist (also as a JSON string) as no verifier functions', async () => {
    const scen = JSON.parse(readFileSync(SAMPLE_SCEN, 'utf8')) as Record<string, unknown>[];
    const r = await build(SAMPLE_ENV, put('empty.json', JSON.stringify([scen[0], { ...scen[1], checklist_with_func: '[]' }])), [
      '--skip-unverifiable',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('env_183_rl-task_29; 1 environment without scenarios');
    // An SFT scenario needs nothing else: its environment may be missing from RL-only metadata.
    const sftElsewhere = await build(
      SAMPLE_ENV,
      put('sft-env.json', JSON.stringify([scen[0], { env_id: 'env_7_sft', task_id: 'env_7_sft-task_1', task: 'x', init_config: {} }])),
      ['--skip-unverifiable', '--report', '-'],
    );
    expect(sftElsewhere.code).toBe(0);
    expect((JSON.parse(sftElsewhere.stdout) as BuildReport).skipped.scenarios).toEqual([
      { id: 'env_7_sft-task_1', env: 'env_7_sft', place: '[1]', reason: 'no checklist_with_func' },
    ]);
    const all = await build(SAMPLE_ENV, put('none.json', JSON.stringify([{ ...scen[0], checklist_with_func: [] }])), [
      '--skip-unverifiable',
    ]);
    expect(all.stderr).toMatch(
      /none\.json:\(top level\): holds no scenarios with verifier functions \(1 left out by --skip-unverifiable\)/,
    );
  });
});

describe('--variants conv,nonconv', () => {
  it('makes one task per scenario and variant, with distinct ids in the shared environment', async () => {
    const r = await build(SAMPLE_ENV, SAMPLE_SCEN, ['--variants', 'conv,nonconv']);
    expect(r.code).toBe(0);
    const g = r.graph!;
    expect(g.tasks.map((t) => [t.id, t.env])).toEqual([
      ['env_151_rl-task_7-conv', 0],
      ['env_151_rl-task_7-nonconv', 0],
      ['env_183_rl-task_29-conv', 1],
      ['env_183_rl-task_29-nonconv', 1],
    ]);
    // The two variants of a scenario are the same task text: each other's within neighbour at S_full 1.
    expect(g.within[0]).toEqual([[1, 1]]);
    expect(g.within[3]).toEqual([[2, 1]]);
    expect(r.stderr).toContain('variants: conv, nonconv');
    expect(r.stderr).toContain('pool: 2 environments, 4 tasks (2 scenarios read)');
  });

  it('refuses unknown or repeated variant names', async () => {
    for (const [value, problem] of [
      ['conv,chat', 'unknown variant "chat" (known: conv, nonconv)'],
      ['conv,conv', 'names variant "conv" twice'],
    ]) {
      const r = await build(SAMPLE_ENV, SAMPLE_SCEN, ['--variants', value]);
      expect(r.stderr).toBe(`error: command line:--variants: ${problem}\n`);
    }
  });
});

describe('categories and the build report', () => {
  it('says when every environment is its own category', async () => {
    const r = await build(SAMPLE_ENV, SAMPLE_SCEN);
    expect(r.stderr).toContain('categories: none given (--categories): each of the 2 environments is its own category');
    expect(r.graph!.envs.map((e) => e.category)).toEqual([null, null]);
  });

  it('reads categories as an object or as records, and says which environments have none', async () => {
    const records = put(
      'categories.jsonl',
      `${JSON.stringify({ env_id: 'env_151_rl', category: 'health' })}\n${JSON.stringify({ env_id: 'env_999_rl', category: 'x' })}\n`,
    );
    const r = await build(SAMPLE_ENV, SAMPLE_SCEN, ['--categories', records]);
    expect(r.graph!.envs.map((e) => e.category)).toEqual(['health', null]);
    expect(r.stderr).toContain('categories: 1 environment in 1 category; 1 environment without one, each its own category');
    expect(r.stderr).toContain('warning: the categories file names 1 environment not in the pool (ignored): env_999_rl');
    const object = await build(SAMPLE_ENV, SAMPLE_SCEN, [
      '--categories',
      put('categories.json', JSON.stringify({ env_151_rl: 'health', env_183_rl: 'health' })),
      '--name',
      r.graph!.name,
    ]);
    expect(object.stderr).toContain('categories: 2 environments in 1 category\n');
  });

  it('ends with a report on stderr and as JSON: tasks, features per view, topology sources, neighbour quality', async () => {
    const report = join(dir, 'report.json');
    const r = await build(SAMPLE_ENV, SAMPLE_SCEN, ['--report', report]);
    const json = JSON.parse(readFileSync(report, 'utf8')) as BuildReport;
    expect(json).toMatchObject({
      environments: 2,
      tasks: 2,
      scenariosRead: 2,
      environmentsWithoutScenarios: 0,
      variants: null,
      topology: { imported: 0, derived: 2, unknownIds: [] },
    });
    expect(json.features.map((f) => f.view)).toEqual([
      'instruction words',
      'instruction characters',
      'check texts',
      'check code',
      'initial context',
      'operation description',
      'abstract description',
    ]);
    expect(json.features.every((f) => f.features > 0)).toBe(true);
    expect(json.quality.corrWithin).toBeNull(); // no simulator parameters for a real release
    const lines = r.stderr.split('\n');
    expect(lines.filter((l) => l.startsWith('build-graph: '))).toContain('build-graph: similarities'); // progress first
    expect(lines.slice(lines.indexOf(`# build-graph report: ${json.name}`)).join('\n')).toMatch(
      /^# build-graph report: \S+\npool: 2 environments, 2 tasks \(2 scenarios read\)\nleft out: /,
    );
    expect(lines).toContain('topology: 0 imported (--topology), 2 derived from checks and instruction');
    expect(lines).toContain(`features per view: ${json.features.map((f) => `${f.view} ${f.features}`).join('; ')}`);
    expect(r.stderr).toMatch(
      /neighbour quality: tool Jaccard [\d.]+ with the 6 nearest within-environment neighbours vs [\d.]+ with random same-environment tasks \([\d.]+x\); difficulty correlation n\/a \(no sim parameters\)/,
    );
    // --report - writes the same JSON to stdout.
    const toStdout = await build(SAMPLE_ENV, SAMPLE_SCEN, ['--report', '-', '--name', json.name]);
    expect(toStdout.stdout).toBe(readFileSync(report, 'utf8'));
  });
});
