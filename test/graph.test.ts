import { readFileSync } from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGraph, serializeGraphJson } from '../src/engine/graph-json.ts';
import { encodeGraphBinary } from '../src/engine/graph-binary.ts';
import type { Graph } from '../src/engine/types.ts';
import { buildGraph, type BuildInput } from '../src/graph/build.ts';
import { fitTfidf } from '../src/graph/tfidf.ts';
import { codeTokens, charNGrams, wordUniBigrams } from '../src/graph/features.ts';
import { describeAbstract } from '../src/graph/topology.ts';
import { qualityReport } from '../src/graph/report.ts';
import { generatePool, poolFiles } from '../src/pool/generate.ts';
import { runCli } from './helpers/cli.ts';

const sample = (name: string) => readFileSync(new URL(`./fixtures/envscaler-sample/${name}`, import.meta.url), 'utf8');
const ENV_TEXT = sample('env_metadata.json');
const SCEN_TEXT = sample('scenarios.json');

function fixtureInput(envText = ENV_TEXT, scenText = SCEN_TEXT): BuildInput {
  return {
    envMetadata: { text: envText, source: 'env_metadata.json' },
    scenarios: { text: scenText, source: 'scenarios.json' },
    name: 'sample',
  };
}

function checkLists(graph: Graph) {
  loadGraph(graph, 'built'); // the lead's validator: indices, env membership, sort order
  const value = new Map<string, number>();
  for (const lists of [graph.within, graph.fullCross]) lists.forEach((l, i) => l.forEach(([j, s]) => value.set(`${i},${j}`, s)));
  graph.within.forEach((l, i) => {
    for (const [j, s] of l) expect(value.get(`${j},${i}`)).toBe(s); // S(i,j) = S(j,i), bit for bit
    for (let k = 1; k < l.length; k++) expect(l[k - 1][1] > l[k][1] || (l[k - 1][1] === l[k][1] && l[k - 1][0] < l[k][0])).toBe(true);
  });
}

describe('build-graph on the real EnvScaler sample', () => {
  it('builds the two real environments and scenarios into a valid graph', () => {
    const { graph } = buildGraph(fixtureInput());
    expect(graph.envs.map((e) => e.id)).toEqual(['env_151_rl', 'env_183_rl']);
    expect(graph.envs[0].name).toBe('ClinicalTrialParticipantManagementSystem');
    expect(graph.envs[0].tools).toHaveLength(15);
    expect(graph.tasks.map((t) => [t.id, t.env, t.checks])).toEqual([
      ['env_151_rl-task_7', 0, 3],
      ['env_183_rl-task_29', 1, 4],
    ]);
    // The derived topology finds the writes the checks verify.
    expect(graph.tasks[0].tools).toContain('update_clinical_trial_status');
    expect(graph.tasks[0].tools).toContain('update_enrollment_status');
    expect(graph.tasks[1].tools.some((t) => /delete|remove/.test(t))).toBe(true);
    expect(graph.within).toEqual([[], []]);
    expect(graph.cross[0]).toHaveLength(1);
    expect(graph.fullCross[1][0][0]).toBe(0);
    expect(graph.cross[0][0][1]).toBe(graph.cross[1][0][1]);
    checkLists(graph);
  });

  it('reads every release variant into the same graph', () => {
    const base = serializeGraphJson(buildGraph(fixtureInput()).graph);
    const envObj = JSON.parse(ENV_TEXT) as Record<string, Record<string, unknown>>;
    const scen = JSON.parse(SCEN_TEXT) as Record<string, unknown>[];
    // Dataset variant: a list of environments with tools as a JSON string; init_config as a JSON string.
    const envList = Object.values(envObj).map((e) => ({ ...e, tools: JSON.stringify(e.tools) }));
    const scenStrings = scen.map((s) => ({
      ...s,
      init_config: JSON.stringify(s.init_config),
      checklist_with_func: JSON.stringify(s.checklist_with_func),
    }));
    const scenKeyed = Object.fromEntries(scen.map((s) => [s.task_id, s]));
    for (const [envText, scenText] of [
      [JSON.stringify(envList), SCEN_TEXT],
      [ENV_TEXT, JSON.stringify(scenStrings)],
      [JSON.stringify(envList), JSON.stringify(scenKeyed)],
    ]) {
      expect(serializeGraphJson(buildGraph(fixtureInput(envText, scenText)).graph)).toBe(base);
    }
  });

  it('leaves environments without scenarios out (the release lists SFT environments too)', () => {
    const scen = (JSON.parse(SCEN_TEXT) as unknown[]).slice(1);
    const { graph, droppedEnvs } = buildGraph(fixtureInput(ENV_TEXT, JSON.stringify(scen)));
    expect(droppedEnvs).toBe(1);
    expect(graph.envs.map((e) => e.id)).toEqual(['env_183_rl']);
    expect(graph.tasks[0].env).toBe(0);
  });
});

describe('TF-IDF and tokens (SPEC 9)', () => {
  it('uses sublinear tf, smoothed idf and L2 rows', () => {
    const rows = fitTfidf([['a', 'a', 'b'], ['b'], ['c']]);
    expect(rows.terms).toEqual(['a', 'b', 'c']);
    const n = 3;
    const wa = (1 + Math.log(2)) * (Math.log((1 + n) / 2) + 1);
    const wb = Math.log((1 + n) / 3) + 1;
    const len = Math.sqrt(wa * wa + wb * wb);
    expect(Array.from(rows.col.subarray(0, 2))).toEqual([0, 1]);
    expect(rows.val[0]).toBeCloseTo(wa / len, 15);
    expect(rows.val[1]).toBeCloseTo(wb / len, 15);
    expect(rows.val[2]).toBe(1);
  });

  it('keeps the most frequent features, ties by term order', () => {
    const rows = fitTfidf(
      [
        ['x', 'y', 'z', 'z'],
        ['y', 'w'],
      ],
      2,
    );
    expect(rows.terms).toEqual(['y', 'z']);
  });

  it('orders terms by UTF-16 code units, not code points, for ties at the cap and for numbering (docs/graph.md)', () => {
    // U+1F600 is the surrogate pair D83D DE00, below U+FFFF in code units, above it in code points.
    expect(fitTfidf([['\uffff', '\u{1F600}']], 1).terms).toEqual(['\u{1F600}']);
    expect(fitTfidf([['\uffff', '\u{1F600}']]).terms).toEqual(['\u{1F600}', '\uffff']);
  });

  it('replaces every whitespace run, single characters included, by one space in the character view (unlike scikit-learn)', () => {
    expect(charNGrams('a\nb')).toEqual(['a b']);
    expect(charNGrams('A\tB\u00a0 C')).toEqual(['a b', ' b ', 'b c', 'a b ', ' b c', 'a b c']);
    expect(charNGrams('x\ufeffy')).toEqual(['x y']);
    expect(charNGrams('x\u001cy')).toEqual(['x\u001cy']);
  });

  it('tokenises words (unigrams + bigrams), char 3-5-grams and check-code structure', () => {
    expect(wordUniBigrams(['Set CT-101 to done'])).toEqual(['set', 'ct', '101', 'to', 'done', 'set ct', 'ct 101', '101 to', 'to done']);
    expect(charNGrams('Ab  c')).toEqual(['ab ', 'b c', 'ab c']);
    const code = codeTokens([
      'def check_func(final_state):\n    return final_state.get("trials", {}).get("CT-1", {}).get("status") == "done"',
    ]);
    expect(code).toContain('key:trials');
    expect(code).toContain('key:status');
    expect(code).toContain('op:==');
    expect(code).toContain('attr:get');
    expect(code).not.toContain('key:done');
  });

  it('abstract descriptions drop tool names, identifiers and literal values', () => {
    const text = describeAbstract({
      operations: [
        { id: 'op1', tool: 'find_patient_by_name', family: 'lookup', arguments: { name: 'Alice Chan' }, depends_on: [] },
        {
          id: 'op2',
          tool: 'update_patient_status',
          family: 'update',
          arguments: { patient_id: 'P001', n: 3, d: '2024-01-02' },
          depends_on: ['op1'],
        },
      ],
      gates: [{ type: 'identifier_resolution', provenance: 'instruction', operation: 'op1' }],
      reward_groups: [{ checks: 3, requires: ['op2'], relation: 'all_of' }],
      conflicts: [],
    });
    expect(text).not.toMatch(/patient|Alice|P001|2024|name/);
    expect(text).toContain('lookup <string>');
    expect(text).toContain('<int> <date>');
    expect(text).toContain('gate identifier_resolution from instruction');
  });
});

describe('build-graph on a generated pool', () => {
  const pool = generatePool({ envs: 6, tasksPerEnv: 8, seed: 2 });
  const files = poolFiles(pool);
  const input = (withTopology: boolean): BuildInput => ({
    envMetadata: { text: files['env_metadata.json'], source: 'env_metadata.json' },
    scenarios: { text: files['rl_scenario_metadata.json'], source: 'rl_scenario_metadata.json' },
    topology: withTopology ? { text: files['topology.json'], source: 'topology.json' } : undefined,
    sim: { text: files['sim.json'], source: 'sim.json' },
    categories: { text: files['categories.json'], source: 'categories.json' },
    name: 'tiny',
  });

  it('writes symmetric, sorted lists of the SPEC 1 sizes, with sim and categories', () => {
    const { graph } = buildGraph({ ...input(true), mCross: 10, pCross: 4 });
    expect(graph.tasks).toHaveLength(48);
    for (let i = 0; i < 48; i++) {
      expect(graph.within[i]).toHaveLength(7);
      expect(graph.cross[i]).toHaveLength(10);
      expect(graph.fullCross[i]).toHaveLength(4);
      for (const [, s] of [...graph.within[i], ...graph.cross[i]]) expect(Math.round(s * 1e6) / 1e6).toBe(s);
    }
    expect(graph.envs.every((e) => typeof e.category === 'string')).toBe(true);
    expect((graph.sim as { tasks: unknown[] }).tasks).toHaveLength(48);
    checkLists(graph);
  });

  it('is reproducible: the same input gives the same JSON and binary bytes', () => {
    const a = buildGraph(input(true)).graph;
    const b = buildGraph(input(true)).graph;
    expect(serializeGraphJson(a)).toBe(serializeGraphJson(b));
    expect(Buffer.from(encodeGraphBinary(a)).equals(Buffer.from(encodeGraphBinary(b)))).toBe(true);
  });

  // Quality needs environments with more tasks than neighbours: 4 x 30.
  // Without inspection calls: the read-only tools most tasks of an environment call raise every
  // pair's tool overlap alike, so the tool-sharing ratio below measures the gated operations only.
  const big = generatePool({ envs: 4, tasksPerEnv: 30, seed: 4, inspectionCalls: false });
  const bigFiles = poolFiles(big);
  const bigInput = (withTopology: boolean): BuildInput => ({
    envMetadata: { text: bigFiles['env_metadata.json'], source: 'e' },
    scenarios: { text: bigFiles['rl_scenario_metadata.json'], source: 's' },
    topology: withTopology ? { text: bigFiles['topology.json'], source: 't' } : undefined,
    name: 'q',
  });

  it('derives a topology without a file that still groups tasks by the tools they use', () => {
    const { graph, derivedTopologies } = buildGraph(bigInput(false));
    expect(derivedTopologies).toBe(120);
    expect(graph.tasks.every((t) => t.tools.length > 0)).toBe(true);
    const report = qualityReport(graph, big.sim);
    expect(report.jaccardRatio).toBeGreaterThan(1.5);
    expect(report.corrWithin!).toBeGreaterThan(0.3);
  });

  it('puts similar tasks together: neighbours share tools and difficulty', () => {
    const { graph } = buildGraph(bigInput(true));
    const report = qualityReport(graph, big.sim);
    expect(report.jaccardRatio).toBeGreaterThan(1.5);
    expect(report.corrWithin!).toBeGreaterThan(0.3);
    expect(report.examples).toHaveLength(2);
  });
});

describe('build-graph bad input (exit 2, one line naming the record)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'envsched-graph-'));
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const envPath = file('env.json', JSON.parse(ENV_TEXT));
  const scen = JSON.parse(SCEN_TEXT) as Record<string, unknown>[];
  const run = (scenarios: unknown, extra: string[] = [], env = envPath) =>
    runCli(['build-graph', '--env-metadata', env, '--scenarios', file('s.json', scenarios), '--out', join(dir, 'g.graph.json'), ...extra]);

  const cases: [string, () => ReturnType<typeof run>, RegExp][] = [
    ['a missing field', () => run([{ ...scen[0], task: undefined }]), /s\.json:\[0\]\.task: is missing/],
    [
      'an unknown env_id',
      () => run([{ ...scen[0], env_id: 'env_999_rl' }]),
      /s\.json:\[0\]\.env_id: environment "env_999_rl" is not in the environment metadata/,
    ],
    [
      'a check_func that is not a string',
      () => run([scen[0], { ...scen[1], checklist_with_func: [{ check_item: 'x', check_func: 3 }] }]),
      /s\.json:\[1\]\.checklist_with_func\[0\]\.check_func: must be a string/,
    ],
    ['duplicate task ids', () => run([scen[0], scen[0]]), /s\.json:\[1\]\.task_id: duplicate task id/],
    ['an empty pool', () => run([]), /s\.json:\(top level\): holds no scenarios/],
    ['malformed JSON', () => run('[{"task_id": '), /s\.json:1(:\d+)?: malformed JSON/],
    [
      'a malformed topology file',
      () =>
        run(scen, [
          '--topology',
          file('t.json', { 'env_151_rl-task_7': { operations: [{ id: 'op1', family: 'lookup', depends_on: ['op9'] }] } }),
        ]),
      /t\.json:env_151_rl-task_7\.operations\[0\]\.depends_on\[0\]: names no operation/,
    ],
    [
      'an environment without tools',
      () => run(scen, [], file('e2.json', { env_151_rl: { env_id: 'env_151_rl', env_class_name: 'X' } })),
      /e2\.json:env_151_rl\.tools: is missing/,
    ],
  ];
  for (const [what, go, message] of cases) {
    it(`reports ${what}`, async () => {
      const r = await go();
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('reports a sim sidecar whose checks do not add up', async () => {
    const pool = generatePool({ envs: 2, tasksPerEnv: 2, seed: 1 });
    const files = poolFiles(pool);
    pool.sim.tasks[1].initiallySatisfied += 1;
    const r = await runCli([
      'build-graph',
      '--env-metadata',
      file('pe.json', files['env_metadata.json']),
      '--scenarios',
      file('ps.json', files['rl_scenario_metadata.json']),
      '--sim',
      file('sim.json', pool.sim),
      '--out',
      join(dir, 'p.graph.json'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sim\.json:tasks\[1\]: checks add up to/);
  });

  it('runs end to end through the CLI: generate-pool, build-graph, graph-report', async () => {
    const out = join(dir, 'pool');
    expect((await runCli(['generate-pool', '--envs', '3', '--tasks-per-env', '4', '--seed', '9', '--out', out])).code).toBe(0);
    const b = await runCli([
      'build-graph',
      '--env-metadata',
      join(out, 'env_metadata.json'),
      '--scenarios',
      join(out, 'rl_scenario_metadata.json'),
      '--topology',
      join(out, 'topology.json'),
      '--sim',
      join(out, 'sim.json'),
      '--categories',
      join(out, 'categories.json'),
      '--out',
      join(dir, 'small.graph.json'),
    ]);
    expect(b.code).toBe(0);
    const r = await runCli(['graph-report', '--graph', join(dir, 'small.graph.bin')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('tool Jaccard');
    expect(r.stdout).toContain('## Example 2');
  });
});
