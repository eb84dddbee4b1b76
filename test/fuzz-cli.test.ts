// Fuzzing the command line end to end (runCli in-process, real files in a temp folder): `score`,
// `simulate`, `build-graph` and `graph-report` on damaged graphs, histories, configurations,
// simulator parameters, release files and flags. The contract of src/cli/main.ts: exit 0, or
// exit 2 with exactly one line `error: <file>:<place>: <problem>` on stderr. Exit 1 (an internal
// error: a stack trace, a WASM trap) fails the property, as does a case that takes over 20 s.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGraphBinary } from '../src/engine/graph-binary.ts';
import { loadGraph, serializeGraphJson } from '../src/engine/graph-json.ts';
import { serializeHistoryJsonl } from '../src/engine/history.ts';
import type { Graph } from '../src/engine/types.ts';
import { syntheticPool } from '../src/sim/synthetic-pool.ts';
import { runCli, type CliResult } from './helpers/cli.ts';
import { FuzzTally, params } from './helpers/fuzz.ts';
import { randomHistory, testRng } from './helpers/random-case.ts';
import { ENVSCALER_SAMPLE_DIR } from './helpers/fixtures.ts';

const tally = new FuzzTally('fuzz-cli');
let dir = '';
let graph: Graph;
let graphText = '';
let graphBytes: Uint8Array;
let historyText = '';
let envMetadataText = '';
let scenariosText = '';
let caseNo = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'envsched-fuzz-cli-'));
  graph = syntheticPool({
    envs: 3,
    tasksPerEnv: 4,
    mCross: 4,
    pCross: 2,
    heldoutSuites: 1,
    heldoutEnvs: 1,
    heldoutTasksPerEnv: 2,
    seed: 3,
  });
  graphText = serializeGraphJson(graph);
  graphBytes = encodeGraphBinary(loadGraph(graph));
  historyText = serializeHistoryJsonl(
    randomHistory(testRng(11), graph),
    graph.tasks.map((t) => t.id),
  );
  envMetadataText = await readFile(join(ENVSCALER_SAMPLE_DIR, 'env_metadata.json'), 'utf8');
  scenariosText = await readFile(join(ENVSCALER_SAMPLE_DIR, 'scenarios.json'), 'utf8');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  console.log(tally.summary());
});

/** Writes a case file under a fresh name (no colon in it, so the error line parses unambiguously). */
async function put(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, `${++caseNo}-${name}`);
  await writeFile(path, content);
  return path;
}

const ONE_LINE_ERROR = /^error: [^\n]+?:[^\n]*: [^\n]+\n$/;

function expectContract(result: CliResult, label: string): 'accepted' | 'refused' {
  if (result.code === 0) return 'accepted';
  if (result.code !== 2 || !ONE_LINE_ERROR.test(result.stderr)) {
    throw new Error(`${label}: exit ${result.code}, stderr ${JSON.stringify(result.stderr.slice(0, 600))}`);
  }
  return 'refused';
}

// ---- damage ------------------------------------------------------------------------------------

// Each file is left intact half of the time, so that cases with one damaged input are common.
const textDamage = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('none' as const) }) },
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    char: fc.constantFrom('{', ']', ',', '"', '9', '-', 'e', '\n', '\\', '\u0000', '\u00ff'),
  }),
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.nat(),
    from: fc.constantFrom('0.', '"env"', '"step"', '"rewards"', 'true', ',', '[', '1'),
    to: fc.constantFrom('-1.', '"Env"', '1e999', 'NaN', 'null', '2', '"', ''),
  }),
);
type TextDamage = typeof textDamage extends fc.Arbitrary<infer T> ? T : never;

function damage(text: string, d: TextDamage): string {
  if (text.length === 0) return text;
  switch (d.kind) {
    case 'none':
      return text;
    case 'truncate':
      return text.slice(0, d.at % text.length);
    case 'flip': {
      const k = d.at % text.length;
      return text.slice(0, k) + d.char + text.slice(k + 1);
    }
    case 'replace': {
      // The (at mod count)-th occurrence of `from`.
      const hits: number[] = [];
      for (let k = text.indexOf(d.from); k !== -1 && hits.length < 10_000; k = text.indexOf(d.from, k + 1)) hits.push(k);
      if (hits.length === 0) return text;
      const k = hits[d.at % hits.length];
      return text.slice(0, k) + d.to + text.slice(k + d.from.length);
    }
  }
}

const configText = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  fc.constantFrom(
    '{}',
    '{"B": 4, "K_within": 2}',
    '{"scheduler": "random"}',
    '{"scheduler": "within-only", "rho": 1}',
    '{"h_long": 1e999}',
    '{"B": 0}',
    '{"lambda_ridge": 5e-324}',
    '[]',
    '',
    '{"B": 4,}',
    '{"seed": -1}',
    '{"__proto__": 1}',
  ),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? ''),
);

const badFlag = fc.oneof(
  { weight: 2, arbitrary: fc.constant<string[]>([]) },
  fc.constantFrom<string[]>(
    ['--step', '-1'],
    ['--step', '1e3'],
    ['--step', '5'],
    ['--step', '0'],
    ['--step', '99999999999'],
    ['--implementation', 'gpu'],
    ['--bogus'],
    ['--step'],
    ['positional'],
    ['--implementation', 'reference'],
  ),
);

describe('fuzz: envsched score', () => {
  it('damaged graphs (JSON or binary), histories, configurations and flags', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        textDamage,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        textDamage,
        configText,
        badFlag,
        async (binary, graphDamage, byteAt, xor, historyDamage, config, flags) => {
          let graphPath: string;
          if (binary) {
            const bytes = graphBytes.slice();
            if (graphDamage.kind !== 'none') bytes[byteAt % bytes.length] ^= xor;
            graphPath = await put('g.graph.bin', bytes);
          } else graphPath = await put('g.graph.json', damage(graphText, graphDamage));
          const historyPath = await put('h.jsonl', damage(historyText, historyDamage));
          const args = ['score', '--graph', graphPath, '--history', historyPath, ...flags];
          if (config !== undefined) args.push('--config', await put('c.json', config));
          const result = await runCli(args);
          const outcome = expectContract(result, args.join(' '));
          if (outcome === 'accepted') {
            const scores = JSON.parse(result.stdout) as { tasks?: unknown[]; batch: unknown[]; scheduler?: string };
            // the EnvSched family prints every task's scores; the baselines print the batch-only shape
            if (scores.tasks) expect(scores.tasks.length).toBe(graph.tasks.length);
            else expect(['random', 'dps', 'mopps']).toContain(scores.scheduler);
          }
          tally.record('score', outcome);
        },
      ),
      params(150, { timeout: 20_000 }),
    );
    expect(tally.get('score').accepted).toBeGreaterThan(0);
    expect(tally.get('score').refused).toBeGreaterThan(0);
  });
});

/** Damage to the simulator's hidden parameters (`sim`), which only `simulate` reads. */
const simDamage = fc.oneof(
  fc.record({
    field: fc.constantFrom('difficulty', 'checks', 'family', 'type', 'initiallySatisfied', 'exploitable', 'gates'),
    value: fc.constantFrom<unknown>(-1, 0, 1e308, -1e308, 0.5, 99, null, 'x', [], true, 2 ** 31),
    at: fc.nat(),
  }),
  fc.record({
    field: fc.constantFrom('version', 'families', 'tasks', 'heldout', 'gateTypes'),
    value: fc.constantFrom<unknown>(2, [], null, {}, 'x', [[]]),
    at: fc.nat(),
  }),
);
type SimDamage = typeof simDamage extends fc.Arbitrary<infer T> ? T : never;

function damageSim(g: Graph, d: SimDamage): Graph {
  const copy = JSON.parse(JSON.stringify(g)) as Graph & { sim: Record<string, unknown> };
  const sim = copy.sim;
  if (['version', 'families', 'tasks', 'heldout', 'gateTypes'].includes(d.field)) {
    sim[d.field] = d.value;
    return copy;
  }
  const tasks = sim.tasks as Record<string, unknown>[];
  const task = tasks[d.at % tasks.length];
  const gates = task.gates as Record<string, unknown>[];
  if (d.field === 'initiallySatisfied' || d.field === 'exploitable' || d.field === 'gates') task[d.field] = d.value;
  else gates[d.at % gates.length][d.field] = d.value;
  return copy;
}

describe('fuzz: envsched simulate', () => {
  it('damaged simulator parameters, configurations and flags (3 steps per case)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.option(simDamage, { nil: undefined, freq: 2 }),
        textDamage,
        configText,
        fc.constantFrom<string[]>([], [], [], ['--seed', '7'], ['--seed', '-3'], ['--steps', '0'], ['--out', 'x.txt']),
        async (sim, text, config, flags) => {
          const damaged = sim ? damageSim(graph, sim) : graph;
          const datasetPath = await put('d.graph.json', damage(serializeGraphJson(damaged), text));
          const args = ['simulate', '--dataset', datasetPath, '--steps', '3', ...flags];
          if (config !== undefined) args.push('--config', await put('c.json', config));
          const result = await runCli(args);
          tally.record('simulate', expectContract(result, args.join(' ')));
        },
      ),
      params(80, { timeout: 20_000 }),
    );
    expect(tally.get('simulate').accepted).toBeGreaterThan(0);
  });
});

describe('fuzz: envsched build-graph and graph-report', () => {
  it('damaged release files', async () => {
    await fc.assert(
      fc.asyncProperty(textDamage, textDamage, async (envDamage, scenarioDamage) => {
        const out = join(dir, `${++caseNo}-built.graph.json`);
        const args = [
          'build-graph',
          '--env-metadata',
          await put('env_metadata.json', damage(envMetadataText, envDamage)),
          '--scenarios',
          await put('scenarios.json', damage(scenariosText, scenarioDamage)),
          '--out',
          out,
        ];
        const result = await runCli(args);
        const outcome = expectContract(result, args.join(' '));
        if (outcome === 'accepted') {
          // What the builder writes must read back through the validating reader (SPEC 1, 12).
          const report = await runCli(['graph-report', '--graph', out, '--json']);
          expectContract(report, 'graph-report on a built graph');
          expect(report.code).toBe(0);
        }
        tally.record('build-graph', outcome);
      }),
      params(25, { timeout: 30_000 }),
    );
  });

  it('graph-report on damaged graphs', async () => {
    await fc.assert(
      fc.asyncProperty(textDamage, async (d) => {
        const path = await put('r.graph.json', damage(graphText, d));
        tally.record('graph-report', expectContract(await runCli(['graph-report', '--graph', path]), `graph-report ${path}`));
      }),
      params(40, { timeout: 20_000 }),
    );
  });
});
