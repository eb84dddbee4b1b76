// Fuzzing the new inputs of the graph commands end to end (runCli in-process, real files in a
// temp folder): LLM responses files for `topology-import` and JSON Lines release files for
// `build-graph`. The contract of src/cli/main.ts: exit 0, or exit 2 with exactly one line
// `error: <file>:<place>: <problem>` on stderr; never a crash (exit 1). When an import succeeds,
// its counts add up and what it wrote is a topology file build-graph accepts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTopologyFile } from '../src/graph/topology.ts';
import { runCli, type CliResult } from './helpers/cli.ts';
import { ENVSCALER_DERIVED_DIR, ENVSCALER_SAMPLE_DIR } from './helpers/fixtures.ts';
import { FuzzTally, params } from './helpers/fuzz.ts';

const tally = new FuzzTally('fuzz-release');
let dir = '';
let caseNo = 0;
let envJsonl = '';
let scenJsonl = '';
let answers: string[] = [];
let goodTopologies: unknown[] = [];
const pool = [join(ENVSCALER_SAMPLE_DIR, 'env_metadata.json'), join(ENVSCALER_SAMPLE_DIR, 'scenarios.json')];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'envsched-fuzz-release-'));
  envJsonl = await readFile(join(ENVSCALER_DERIVED_DIR, 'env_metadata.jsonl'), 'utf8');
  scenJsonl = await readFile(join(ENVSCALER_DERIVED_DIR, 'scenarios.jsonl'), 'utf8');
  answers = (await readFile(join(ENVSCALER_DERIVED_DIR, 'topology-responses.jsonl'), 'utf8')).trim().split('\n');
  const line5 = JSON.parse(answers[4]) as { response: { body: { choices: { message: { content: string } }[] } } };
  const line6 = JSON.parse(answers[5]) as { content: string };
  goodTopologies = [
    JSON.parse(line5.response.body.choices[0].message.content),
    JSON.parse(/```json\n([\s\S]*?)```/.exec(line6.content)![1]),
  ];
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  console.log(tally.summary());
});

async function put(name: string, content: string): Promise<string> {
  const path = join(dir, `${++caseNo}-${name}`);
  await writeFile(path, content);
  return path;
}

const ONE_LINE_ERROR = /^error: [^\n]+?:[^\n]*: [^\n]+\n$/;

function expectContract(result: CliResult, label: string): 'accepted' | 'refused' {
  if (result.code === 0) return 'accepted';
  if (result.code !== 2 || !ONE_LINE_ERROR.test(result.stderr))
    throw new Error(`${label}: exit ${result.code}, stderr ${JSON.stringify(result.stderr.slice(0, 600))}`);
  return 'refused';
}

// ---- damage to a text --------------------------------------------------------------------------

const textDamage = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('none' as const) }) },
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    char: fc.constantFrom('{', '}', ']', ',', '"', '`', '9', '\n', '\\', '\u0000', '\ufeff'),
  }),
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.nat(),
    from: fc.constantFrom(
      '"op1"',
      '"operations"',
      '"depends_on"',
      '"tool"',
      '"family"',
      '"checks"',
      '[',
      '"task_id"',
      '"env_id"',
      '```',
      'null',
      '200',
    ),
    to: fc.constantFrom('"op9"', '"Operations"', '1e999', 'null', '[]', '{}', '"', '', '"x"', '-1'),
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
      const hits: number[] = [];
      for (let k = text.indexOf(d.from); k !== -1 && hits.length < 10_000; k = text.indexOf(d.from, k + 1)) hits.push(k);
      if (hits.length === 0) return text;
      const k = hits[d.at % hits.length];
      return text.slice(0, k) + d.to + text.slice(k + d.from.length);
    }
  }
}

// ---- responses files ---------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const garbage: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(null, true, 0, -1, 1.5, '', 'op1', 'op9', 'lookup', [], {}, ['op1'], [0, 99], { id: 'op1' }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

function pathsOf(value: Json, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, k) => pathsOf(v, [...path, k], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

/** A topology with one value replaced (or removed) somewhere inside it. */
function mutateTopology(topology: Json, at: number, value: Json | undefined): Json {
  const copy = JSON.parse(JSON.stringify(topology)) as Json;
  const paths = pathsOf(copy).filter((p) => p.length > 0);
  const path = paths[at % paths.length];
  let parent = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, Json>;
  const key = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else parent[key] = value;
  return copy;
}

const taskId = fc.constantFrom('env_151_rl-task_7', 'env_183_rl-task_29', 'env_999_rl-task_1', '', 'env_151_rl-task_7-conv');
const wrap = fc.constantFrom('plain', 'fence', 'fence-prose', 'prose', 'object');

const answerLine = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('fixture' as const), at: fc.nat(), d: textDamage }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      id: taskId,
      good: fc.nat(),
      mutate: fc.option(fc.record({ at: fc.nat(), value: fc.option(garbage, { nil: undefined }) }), { nil: undefined }),
      wrap,
      batch: fc.boolean(),
    }),
  },
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ kind: fc.constant('blank' as const), text: fc.constantFrom('', '   ', '\r', '\ufeff') }),
);
type AnswerLine = typeof answerLine extends fc.Arbitrary<infer T> ? T : never;

function lineText(l: AnswerLine): string {
  switch (l.kind) {
    case 'fixture':
      return damage(answers[l.at % answers.length], l.d).replace(/\n/g, ' ');
    case 'json':
      return JSON.stringify(l.value) ?? 'null';
    case 'blank':
      return l.text;
    case 'answer': {
      const base = goodTopologies[l.good % goodTopologies.length] as Json;
      const topology = l.mutate ? mutateTopology(base, l.mutate.at, l.mutate.value) : base;
      const json = JSON.stringify(topology);
      const content =
        l.wrap === 'fence'
          ? `\`\`\`json\n${json}\n\`\`\``
          : l.wrap === 'fence-prose'
            ? `Here it is:\n\`\`\`\n${json}\n\`\`\`\nDone.`
            : l.wrap === 'prose'
              ? `The topology: ${json} (end)`
              : json;
      if (l.wrap === 'object') return JSON.stringify({ task_id: l.id, topology });
      if (l.batch)
        return JSON.stringify({
          custom_id: l.id,
          response: { status_code: 200, body: { choices: [{ message: { role: 'assistant', content } }] } },
          error: null,
        });
      return JSON.stringify({ task_id: l.id, content });
    }
  }
}

describe('fuzz: envsched topology-import', () => {
  it('responses files mixing good, damaged and garbage answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(answerLine, { minLength: 0, maxLength: 8 }),
        textDamage,
        fc.boolean(),
        async (lines, fileDamage, withPool) => {
          const text = damage(lines.map(lineText).join('\n'), fileDamage);
          const responses = await put('responses.jsonl', text);
          const out = join(dir, `${++caseNo}-topology.json`);
          const rejects = join(dir, `${caseNo}-rejects.jsonl`);
          const args = [
            'topology-import',
            '--responses',
            responses,
            '--out',
            out,
            '--rejects',
            rejects,
            ...(withPool ? ['--env-metadata', pool[0], '--scenarios', pool[1]] : []),
          ];
          const result = await runCli(args);
          const outcome = expectContract(result, args.join(' '));
          if (outcome === 'accepted') {
            const counts = /^topology-import: (\d+) answers: (\d+) imported \(\d+ from code fences\), (\d+) rejected/.exec(result.stderr);
            expect(counts).not.toBeNull();
            const [n, imported, rejected] = counts!.slice(1).map(Number);
            expect(imported + rejected).toBe(n);
            const topology = parseTopologyFile(await readFile(out, 'utf8'), out);
            expect(topology.size).toBe(imported);
            const rejectText = await readFile(rejects, 'utf8');
            expect(rejectText === '' ? 0 : rejectText.trim().split('\n').length).toBe(rejected);
            if (withPool) {
              // What the import kept, the strict reader and the builder take as it is.
              const built = await runCli([
                'build-graph',
                '--env-metadata',
                pool[0],
                '--scenarios',
                pool[1],
                '--topology',
                out,
                '--out',
                join(dir, `${caseNo}-g.graph.json`),
              ]);
              expect(built.code).toBe(0);
              expect(built.stderr).toContain(`topology: ${imported} imported`);
              tally.check('built from the import');
            }
          }
          tally.record('topology-import', outcome);
        },
      ),
      params(60, { timeout: 20_000 }),
    );
    expect(tally.get('topology-import').accepted).toBeGreaterThan(0);
    expect(tally.get('topology-import').refused).toBeGreaterThan(0);
  });
});

// ---- JSON Lines release files ------------------------------------------------------------------

const lineDamage = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('none' as const) }) },
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const) }),
  fc.record({ kind: fc.constant('join' as const) }),
  fc.record({ kind: fc.constant('crlf' as const) }),
  fc.record({ kind: fc.constant('blank' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
);
type LineDamage = typeof lineDamage extends fc.Arbitrary<infer T> ? T : never;

function damageLines(text: string, d: LineDamage): string {
  const lines = text.trim().split('\n');
  const at = (n: number) => n % lines.length;
  switch (d.kind) {
    case 'none':
      return text;
    case 'drop':
      lines.splice(at(d.at), 1);
      break;
    case 'repeat':
      lines.splice(at(d.at), 0, lines[at(d.at)]);
      break;
    case 'swap':
      lines.reverse();
      break;
    case 'join':
      return lines.join(' ');
    case 'crlf':
      return lines.join('\r\n');
    case 'blank':
      lines.splice(at(d.at), 0, '   ');
      break;
    case 'insert':
      lines.splice(at(d.at), 0, JSON.stringify(d.value) ?? 'null');
      break;
  }
  return `${lines.join('\n')}\n`;
}

describe('fuzz: envsched build-graph on JSON Lines release files', () => {
  it('damaged JSON Lines environments and scenarios, with and without the new flags', async () => {
    await fc.assert(
      fc.asyncProperty(
        lineDamage,
        textDamage,
        lineDamage,
        textDamage,
        fc.constantFrom<string[]>([], [], ['--skip-unverifiable'], ['--variants', 'conv,nonconv'], ['--variants', 'nonconv']),
        async (envLines, envText, scenLines, scenText, flags) => {
          const out = join(dir, `${++caseNo}-built.graph.json`);
          const args = [
            'build-graph',
            '--env-metadata',
            await put('env.jsonl', damage(damageLines(envJsonl, envLines), envText)),
            '--scenarios',
            await put('scen.jsonl', damage(damageLines(scenJsonl, scenLines), scenText)),
            '--out',
            out,
            ...flags,
          ];
          const result = await runCli(args);
          const outcome = expectContract(result, args.join(' '));
          if (outcome === 'accepted') {
            expect(result.stderr).toContain('# build-graph report: ');
            const report = await runCli(['graph-report', '--graph', out, '--json']);
            expect(report.code).toBe(0);
          }
          tally.record('build-graph jsonl', outcome);
        },
      ),
      params(40, { timeout: 30_000 }),
    );
    expect(tally.get('build-graph jsonl').accepted).toBeGreaterThan(0);
    expect(tally.get('build-graph jsonl').refused).toBeGreaterThan(0);
  });
});
