// Fuzzing rollout histories (SPEC 2, 12): bad JSON lines, rewards outside [0, 1], wrong types,
// unknown and missing fields, flags of the wrong length, duplicate task-steps, unknown task ids,
// huge and fractional steps, damaged text; and a streamed file of a million lines (more under
// `npm run fuzz`) through the CLI's reader (readHistoryFile) with its memory measured.
// Property: a history is refused with an InputError naming the line that is wrong, or accepted
// with every SPEC 2 / 12 rule holding, and then the WASM scheduler scores it without trapping and
// picks the same batch as the TypeScript reference.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readHistoryFile } from '../src/engine/files-node.ts';
import { loadGraph } from '../src/engine/graph-json.ts';
import { MAX_STEP, parseHistoryJsonl, serializeHistoryJsonl, taskIndexOf } from '../src/engine/history.ts';
import type { Graph, Observation } from '../src/engine/types.ts';
import { FUZZ_SCALE, FuzzTally, acceptOrRefuse, params } from './helpers/fuzz.ts';
import { randomConfig, randomGraph, randomHistory, testRng } from './helpers/random-case.ts';
import { wasmOracle } from './helpers/wasm-oracle.ts';

const oracle = wasmOracle();

const tally = new FuzzTally('fuzz-history');

afterAll(() => {
  console.log(tally.summary());
});

function baseCase(seed: number): { graph: Graph; observations: Observation[] } {
  const rng = testRng(seed);
  const graph = randomGraph(rng, { maxEnvs: 3, maxTasksPerEnv: 4 });
  return { graph, observations: randomHistory(rng, graph) };
}

/** SPEC 2 and 12 on an accepted history, checked here rather than trusted. */
function checkAccepted(graph: Graph, observations: Observation[], nonBlankLines: number, seed: number): void {
  expect(observations.length).toBe(nonBlankLines);
  const seen = new Set<string>();
  observations.forEach((o, k) => {
    expect(Number.isInteger(o.step) && o.step >= 0 && o.step <= MAX_STEP).toBe(true);
    expect(Number.isInteger(o.task) && o.task >= 0 && o.task < graph.tasks.length).toBe(true);
    expect(o.rewards.length).toBeGreaterThan(0);
    for (const r of o.rewards) expect(Number.isFinite(r) && r >= 0 && r <= 1).toBe(true);
    if (o.flags) expect(o.flags.length).toBe(o.rewards.length);
    const key = `${o.step}:${o.task}`;
    expect(seen.has(key)).toBe(false);
    seen.add(key);
    if (k > 0)
      expect(o.step > observations[k - 1].step || (o.step === observations[k - 1].step && o.task > observations[k - 1].task)).toBe(true);
  });
  // Far-future steps are legal but not worth scoring here (the kernels' cost grows with t).
  const last = observations.reduce((m, o) => Math.max(m, o.step), -1);
  if (last > 1000) return;
  const config = randomConfig(testRng(seed ^ 0x9e3779b9), graph.tasks.length);
  oracle.scheduler.loadGraph(
    loadGraph(graph).packed,
    graph.tasks.map((t) => t.id),
  );
  oracle.scheduler.setHistory(observations);
  const actual = oracle.scheduler.score(config, last + 1);
  const expected = oracle.referenceScore(graph, observations, config, last + 1);
  expect(actual.batch).toEqual(expected.batch);
}

type Line = Record<string, unknown>;
const raw = (text: string) => `@@RAW:${text}@@`;
const unraw = (text: string) => text.replace(/"@@RAW:([^@]*)@@"/g, '$1');

const badReward = fc.constantFrom<unknown>(-1e-9, 1 + 1e-9, 2, -1, raw('1e999'), raw('-1e999'), '0.5', null, true, [0.5], {}, 1e308);
const badStep = fc.constantFrom<unknown>(-1, 0.5, '3', null, MAX_STEP + 1, 2 ** 53, raw('1e999'), [], true);

/** A damaging edit to one line; `target` picks the line. Some edits (e.g. `blank-extra`) keep the file valid. */
const lineEdit = fc.oneof(
  fc.record({ kind: fc.constant('reward' as const), value: badReward, at: fc.nat() }),
  fc.record({ kind: fc.constant('rewards' as const), value: fc.constantFrom<unknown>([], null, 0.5, 'x', {}, Array(70_000).fill(0.5)) }),
  fc.record({ kind: fc.constant('step' as const), value: badStep }),
  fc.record({ kind: fc.constant('task' as const), value: fc.constantFrom<unknown>('no-such-task', '', 3, null, ['x'], {}) }),
  fc.record({ kind: fc.constant('flags' as const), value: fc.constantFrom<unknown>([], [true], 'true', [1], [null], true) }),
  fc.record({ kind: fc.constant('unknown-key' as const), key: fc.constantFrom('extra', 'reward', '__proto__', 'constructor', 'Step') }),
  fc.record({ kind: fc.constant('missing' as const), key: fc.constantFrom('step', 'task', 'rewards') }),
  fc.record({
    kind: fc.constant('not-object' as const),
    value: fc.jsonValue({ maxDepth: 2 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)),
  }),
  fc.record({ kind: fc.constant('text' as const), damage: fc.constantFrom('truncate', 'brace', 'nan', 'trailing', 'comma', 'control') }),
  fc.record({ kind: fc.constant('duplicate' as const) }),
  fc.record({ kind: fc.constant('blank-extra' as const), text: fc.constantFrom('', '   ', '\t', '\r') }),
);
type LineEdit = typeof lineEdit extends fc.Arbitrary<infer T> ? T : never;

/** Applies the edit to line `k` (0-based); returns the lines and the 1-based line the error must name (null: still valid). */
function applyEdit(lines: string[], k: number, edit: LineEdit): { lines: string[]; errorLine: number | null } {
  const out = [...lines];
  const obj = JSON.parse(out[k]) as Line;
  const put = (o: unknown) => (out[k] = unraw(JSON.stringify(o)));
  switch (edit.kind) {
    case 'reward': {
      const rewards = obj.rewards as unknown[];
      rewards[edit.at % rewards.length] = edit.value;
      put(obj);
      break;
    }
    case 'rewards':
      put({ ...obj, rewards: edit.value });
      break;
    case 'step':
      put({ ...obj, step: edit.value });
      break;
    case 'task':
      put({ ...obj, task: edit.value });
      break;
    case 'flags':
      put({ ...obj, flags: edit.value });
      break;
    case 'unknown-key':
      Object.defineProperty(obj, edit.key, { value: 1, enumerable: true, configurable: true, writable: true });
      put(obj);
      break;
    case 'missing':
      delete obj[edit.key];
      put(obj);
      break;
    case 'not-object':
      put(edit.value);
      break;
    case 'text': {
      const t = out[k];
      const damaged: Record<typeof edit.damage, string> = {
        truncate: t.slice(0, t.length - 2),
        brace: `{${t}`,
        nan: t.replace(/"rewards":\[[^,\]]*/, '"rewards":[NaN'),
        trailing: `${t} x`,
        comma: t.replace('{', '{,'),
        control: t.replace('"task":"', '"task":"\u0001'),
      };
      out[k] = damaged[edit.damage];
      break;
    }
    case 'duplicate':
      out.splice(k + 1, 0, out[k]);
      return { lines: out, errorLine: k + 2 };
    case 'blank-extra':
      out.splice(k, 0, edit.text);
      return { lines: out, errorLine: null };
  }
  return { lines: out, errorLine: k + 1 };
}

describe('fuzz: histories (parseHistoryJsonl)', () => {
  it('damaged lines are refused naming that line; intact files are read exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.nat(), lineEdit, fc.boolean(), (seed, target, edit, crlf) => {
        const { graph, observations } = baseCase(seed);
        const ids = graph.tasks.map((t) => t.id);
        const lines = serializeHistoryJsonl(observations, ids)
          .split('\n')
          .filter((l) => l !== '');
        if (lines.length === 0) lines.push(JSON.stringify({ step: 0, task: ids[0], rewards: [0.5] }));
        const { lines: edited, errorLine } = applyEdit(lines, target % lines.length, edit);
        const text = edited.join(crlf ? '\r\n' : '\n');
        const outcome = acceptOrRefuse(() => parseHistoryJsonl(text, 'fuzz.jsonl', taskIndexOf(graph)), 'fuzz.jsonl');
        if (outcome.ok) {
          // Accepted: the edit did no harm (e.g. a blank line), or it was harmless for this line.
          expect(errorLine === null || edit.kind === 'flags' || edit.kind === 'reward' || edit.kind === 'step').toBe(true);
          checkAccepted(graph, outcome.value, edited.filter((l) => l.trim() !== '').length, seed);
        } else {
          expect(errorLine).not.toBeNull();
          expect(Number(/^\d+/.exec(outcome.error.place)?.[0])).toBe(errorLine);
        }
        tally.record('lines', outcome.ok ? 'accepted' : 'refused');
      }),
      params(800),
    );
    expect(tally.get('lines').refused).toBeGreaterThan(tally.get('lines').cases / 2);
  });

  it('random text is refused or read, never thrown past', () => {
    const graph = baseCase(7).graph;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 60 }),
            fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''),
          ),
          { maxLength: 5 },
        ),
        (lines) => {
          const outcome = acceptOrRefuse(() => parseHistoryJsonl(lines.join('\n'), 'fuzz.jsonl', taskIndexOf(graph)), 'fuzz.jsonl');
          if (outcome.ok) expect(outcome.value.length).toBe(0); // only blank lines can pass: no random line names a task
          tally.record('random', outcome.ok ? 'accepted' : 'refused');
        },
      ),
      params(400),
    );
  });
});

// ---- a streamed file of millions of lines -----------------------------------------------------

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapNow(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const TASKS = 50;
/** Trailing spaces (legal JSON whitespace) make the text several times the size of what is kept. */
const PADDING = ' '.repeat(200);
const LINES = Math.min(5_000_000, Math.round(1_000_000 * FUZZ_SCALE));

function streamGraph(): Graph {
  const tasks = Array.from({ length: TASKS }, (_, i) => ({ id: `t${i}`, env: 0, tools: [], checks: 1, text: '' }));
  return {
    format: 'envsched-graph',
    version: 1,
    name: 'stream',
    envs: [{ id: 'e', name: 'E', category: null, tools: [] }],
    tasks,
    within: tasks
      .map((_, i) => tasks.flatMap((__, j) => (j === i ? [] : [[j, 0.5] as [number, number]])))
      .map((l) => l.sort((a, b) => a[0] - b[0])),
    cross: tasks.map(() => []),
    fullCross: tasks.map(() => []),
  };
}

/** Writes `lines` history lines (task k % 50 at step k / 50); `badLast` breaks the last one. */
async function writeHistory(path: string, lines: number, badLast: boolean): Promise<void> {
  const out = createWriteStream(path);
  let chunk = '';
  for (let k = 0; k < lines; k++) {
    const bad = badLast && k === lines - 1;
    chunk += `{"step":${Math.floor(k / TASKS)},"task":"t${k % TASKS}","rewards":[0.25,${bad ? 1.5 : 0.75}]}${PADDING}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

describe(`fuzz: a streamed history of ${LINES.toLocaleString('en')} lines (readHistoryFile)`, () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'envsched-stream-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is read line by line: memory holds the observations, never the text', async () => {
    const path = join(dir, 'big.jsonl');
    await writeHistory(path, LINES, false);
    const bytes = (await stat(path)).size;
    const index = taskIndexOf(streamGraph());
    const before = heapNow();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    const started = performance.now();
    let observations: Observation[] | null = await readHistoryFile(path, index);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    const retained = heapNow() - before;
    expect(observations.length).toBe(LINES);
    expect(observations[LINES - 1]).toEqual({ step: Math.floor((LINES - 1) / TASKS), task: (LINES - 1) % TASKS, rewards: [0.25, 0.75] });
    observations = null;
    // The stream's last callbacks hold the reader until the next turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const released = heapNow() - before;
    console.log(
      `[fuzz] streamed history: ${LINES} lines, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${seconds.toFixed(1)} s; ` +
        `heap: retained ${(retained / 2 ** 20).toFixed(1)} MiB (${(retained / LINES).toFixed(0)} B/line), ` +
        `peak above start ${((peak - before) / 2 ** 20).toFixed(1)} MiB, after release ${(released / 2 ** 20).toFixed(1)} MiB`,
    );
    // What stays is the parsed observations (~120 B each); the text (~260 B/line, padded) is never
    // held: holding it would put the whole file on top of the observations at the peak.
    expect(retained / LINES).toBeLessThan(400);
    expect(peak - before).toBeLessThan(retained + bytes / 2);
    expect(released).toBeLessThan(16 * 2 ** 20);
    tally.record('stream', 'accepted');
  });

  it('a bad last line of the stream is refused naming that line', async () => {
    const path = join(dir, 'bad.jsonl');
    const lines = Math.min(LINES, 300_000);
    await writeHistory(path, lines, true);
    await expect(readHistoryFile(path, taskIndexOf(streamGraph()))).rejects.toThrow(
      new RegExp(
        `^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${lines}:rewards\\[1\\]: reward must be a finite number in \\[0, 1\\], got 1\\.5$`,
      ),
    );
    tally.record('stream', 'refused');
  });
});
