// Fuzzing the graph readers (SPEC 1, 12): JSON (loadGraphJson) and binary (decodeGraphBinary).
// Inputs are valid random graphs (test/helpers/random-case.ts) damaged in structured ways
// (out-of-range and self indices, NaN / infinite / huge similarities, unsorted and repeated pairs,
// wrong list counts, moved tasks, unknown keys, garbage values anywhere) and at the byte level
// (truncation, flips, insertions; for binary also wrong header sizes, huge declared sizes and
// flips with the checksum repaired so the deeper checks are reached). The property: each input is
// either refused with an InputError naming a place, or accepted, and then it satisfies SPEC 1
// (checked independently), round-trips through the binary format, and the WASM scheduler scores
// it without trapping and agrees with the TypeScript reference on the batch.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeGraphBinary, encodeGraphBinary } from '../src/engine/graph-binary.ts';
import { loadGraph, loadGraphJson, serializeGraphJson, unpackGraph } from '../src/engine/graph-json.ts';
import { lineColumnOf } from '../src/engine/json-text.ts';
import type { Graph, LoadedGraph } from '../src/engine/types.ts';
import { FuzzTally, acceptOrRefuse, params, spec1Violation } from './helpers/fuzz.ts';
import { randomConfig, randomGraph, randomHistory, testRng } from './helpers/random-case.ts';
import { wasmOracle } from './helpers/wasm-oracle.ts';

const oracle = wasmOracle();

const tally = new FuzzTally('fuzz-graph');

afterAll(() => {
  console.log(tally.summary());
});

function baseGraph(seed: number): Graph {
  return randomGraph(testRng(seed), { maxEnvs: 4, maxTasksPerEnv: 5 });
}

/**
 * What an accepted graph must satisfy: SPEC 1 (independent check), a lossless binary round trip,
 * and a WASM score that neither traps nor disagrees with the reference (same batch and phases).
 */
function checkAccepted(loaded: LoadedGraph, seed: number): void {
  const violation = spec1Violation(loaded);
  if (violation !== null) throw new Error(`accepted a graph that breaks SPEC 1: ${violation}`);
  const again = decodeGraphBinary(encodeGraphBinary(loaded), 'round trip');
  // Compared as written: a `-0` in the metadata (e.g. `"env": -0`) reads back as 0, which is the same index.
  expect(serializeGraphJson(unpackGraph(again))).toBe(serializeGraphJson(unpackGraph(loaded)));
  expect(again.packed.within.sim).toEqual(loaded.packed.within.sim);
  const graph = unpackGraph(loaded);
  const rng = testRng(seed ^ 0x5bd1e995);
  const observations = randomHistory(rng, graph);
  const config = randomConfig(rng, graph.tasks.length);
  const step = observations.reduce((m, o) => Math.max(m, o.step), -1) + 1;
  oracle.scheduler.loadGraph(
    loaded.packed,
    graph.tasks.map((t) => t.id),
  );
  oracle.scheduler.setHistory(observations);
  const actual = oracle.scheduler.score(config, step);
  const expected = oracle.referenceScore(graph, observations, config, step);
  expect(actual.batch).toEqual(expected.batch);
  expect(actual.relaxed).toEqual(expected.relaxed);
}

// ---- JSON: structured mutations of the parsed object, then text-level damage ----------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A value written raw into the text (JSON.stringify cannot write 1e999, which JSON.parse reads as Infinity). */
const raw = (text: string) => `@@RAW:${text}@@`;
const unraw = (text: string) => text.replace(/"@@RAW:([^@]*)@@"/g, '$1');

const garbage: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    false,
    0,
    -1,
    0.5,
    1.5,
    -0,
    2 ** 31,
    2 ** 32 + 1,
    1e308,
    '',
    'x',
    [],
    {},
    [[]],
    [0],
    [0, 0.5, 1],
    raw('1e999'),
    raw('-1e999'),
    raw('1e-400'),
  ),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
);

type Path = (string | number)[];

function pathsOf(value: Json, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, k) => pathsOf(v, [...path, k], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

function getAt(root: Json, path: Path): Json {
  let node: Json = root;
  for (const key of path) node = (node as Record<string | number, Json>)[key];
  return node;
}

function setAt(root: Json, path: Path, value: Json | undefined): Json {
  if (path.length === 0) return value ?? null;
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, Json> | Json[];
  const key = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete (parent as Record<string, Json>)[key];
  } else (parent as Record<string | number, Json>)[key] = value;
  return root;
}

/** All [list name, task, pair position] of the neighbour lists. */
function pairsOf(g: Record<string, Json>): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (const name of ['within', 'cross', 'fullCross']) {
    const lists = g[name];
    if (!Array.isArray(lists)) continue;
    lists.forEach((list, i) => Array.isArray(list) && list.forEach((_, p) => out.push([name, i, p])));
  }
  return out;
}

const jsonMutation = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: garbage }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('index' as const),
    at: fc.nat(),
    pick: fc.nat(),
    choice: fc.constantFrom('neg', 'n', 'big', 'self', 'float', 'other', 'u32'),
  }),
  fc.record({
    kind: fc.constant('sim' as const),
    at: fc.nat(),
    value: fc.constantFrom<Json>(raw('1e999'), raw('-1e999'), raw('NaN'), 1e308, -1e308, -0, 0, 1, 2, -5, 5e-324, '0.5', null),
  }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('tie' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('env' as const), at: fc.nat(), value: fc.integer({ min: -2, max: 6 }) }),
  fc.record({ kind: fc.constant('list-count' as const), name: fc.constantFrom('within', 'cross', 'fullCross'), extra: fc.boolean() }),
  fc.record({
    kind: fc.constant('unknown-key' as const),
    at: fc.nat(),
    key: fc.constantFrom('extra', '__proto__', 'constructor', 'toString', 'format', 'id'),
    value: garbage,
  }),
);
type JsonMutation = typeof jsonMutation extends fc.Arbitrary<infer T> ? T : never;

function applyJsonMutation(root: Json, m: JsonMutation): Json {
  const g = root as Record<string, Json>;
  const n = Array.isArray(g.tasks) ? g.tasks.length : 0;
  const pairs = pairsOf(g);
  const pairAt = (at: number) => (pairs.length ? pairs[at % pairs.length] : null);
  const listOf = (name: string, i: number) => (g[name] as Json[][])[i] as Json[][];
  switch (m.kind) {
    case 'set': {
      const paths = pathsOf(root);
      return setAt(root, paths[m.at % paths.length], m.value);
    }
    case 'delete': {
      const paths = pathsOf(root).filter((p) => p.length > 0);
      return paths.length ? setAt(root, paths[m.at % paths.length], undefined) : root;
    }
    case 'index': {
      const p = pairAt(m.at);
      if (!p) return root;
      const [name, i, k] = p;
      const values: Record<typeof m.choice, number> = {
        neg: -1,
        n,
        big: n + 7,
        self: i,
        float: 0.5,
        other: m.pick % Math.max(1, n),
        u32: 2 ** 32 + i,
      };
      (listOf(name, i)[k] as Json[])[0] = values[m.choice];
      return root;
    }
    case 'sim': {
      const p = pairAt(m.at);
      if (p) (listOf(p[0], p[1])[p[2]] as Json[])[1] = m.value;
      return root;
    }
    case 'swap': {
      const p = pairAt(m.at);
      if (!p) return root;
      const list = listOf(p[0], p[1]);
      if (list.length >= 2) {
        const k = Math.min(p[2], list.length - 2);
        [list[k], list[k + 1]] = [list[k + 1], list[k]];
      }
      return root;
    }
    case 'duplicate': {
      const p = pairAt(m.at);
      if (p) listOf(p[0], p[1]).splice(p[2], 0, [...(listOf(p[0], p[1])[p[2]] as Json[])]);
      return root;
    }
    case 'drop': {
      const p = pairAt(m.at);
      if (p) listOf(p[0], p[1]).splice(p[2], 1);
      return root;
    }
    case 'tie': {
      // Equal similarity to the previous pair: the index order decides (valid iff indices ascend).
      const p = pairAt(m.at);
      if (p && p[2] > 0) {
        const list = listOf(p[0], p[1]);
        (list[p[2]] as Json[])[1] = (list[p[2] - 1] as Json[])[1];
      }
      return root;
    }
    case 'env': {
      const task = n > 0 ? (g.tasks as Json[])[m.value < 0 ? 0 : m.value % n] : null;
      if (task !== null && typeof task === 'object' && !Array.isArray(task)) task.env = m.value;
      return root;
    }
    case 'list-count': {
      const lists = g[m.name];
      if (Array.isArray(lists)) {
        if (m.extra) lists.push([]);
        else lists.pop();
      }
      return root;
    }
    case 'unknown-key': {
      const objects = pathsOf(root).filter((p) => {
        const v = getAt(root, p);
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      });
      const target = getAt(root, objects[m.at % objects.length]) as Record<string, Json>;
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      return root;
    }
  }
}

const textDamage = fc.oneof(
  fc.record({ kind: fc.constant('none' as const) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    char: fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '0', '9', '-', 'e', '.', ' ', '\n', '\\', 'x', '\u0000', '\u00e9'),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
);
type TextDamage = typeof textDamage extends fc.Arbitrary<infer T> ? T : never;

function damageText(text: string, d: TextDamage): string {
  switch (d.kind) {
    case 'none':
      return text;
    case 'truncate':
      return text.slice(0, d.at % text.length);
    case 'flip': {
      const k = d.at % text.length;
      return text.slice(0, k) + d.char + text.slice(k + 1);
    }
    case 'delete': {
      const k = d.at % text.length;
      return text.slice(0, k) + text.slice(k + d.length);
    }
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false; // e.g. a raw NaN written by a mutation
  }
}

describe('fuzz: graph JSON (loadGraphJson)', () => {
  it('valid graphs are accepted and satisfy SPEC 1 (control)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), (seed) => {
        const loaded = loadGraphJson(serializeGraphJson(baseGraph(seed)), 'fuzz.graph.json');
        checkAccepted(loaded, seed);
        tally.record('json-valid', 'accepted');
      }),
      params(40),
    );
  });

  it('mutated graphs are refused with a place, or accepted and still correct', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e9 }),
        fc.array(jsonMutation, { minLength: 1, maxLength: 3 }),
        textDamage,
        (seed, mutations, damage) => {
          let root = JSON.parse(serializeGraphJson(baseGraph(seed))) as Json;
          for (const m of mutations) {
            // A structural edit on a structure an earlier edit already broke is skipped.
            try {
              root = applyJsonMutation(root, m);
            } catch {
              /* keep root as it is */
            }
          }
          // Indented: many lines, so that the line numbers in errors are tested too.
          const intact = unraw(JSON.stringify(root, null, 1));
          const text = damageText(intact, damage);
          const outcome = acceptOrRefuse(() => loadGraphJson(text, 'fuzz.graph.json'), 'fuzz.graph.json');
          if (outcome.ok) checkAccepted(outcome.value, seed);
          else if (outcome.error.problem.startsWith('malformed JSON') && damage.kind !== 'none' && isJson(intact)) {
            // The text is intact before the damage, so a parser cannot break earlier than it.
            const at = lineColumnOf(text, damage.at % intact.length);
            const [line, column] = outcome.error.place.split(':').map(Number);
            expect(
              line > at.line || (line === at.line && column >= at.column),
              `${outcome.error.message} reported before the damage at ${at.line}:${at.column}`,
            ).toBe(true);
            tally.check('malformed-JSON errors located at or after the damage');
          }
          tally.record('json-mutated', outcome.ok ? 'accepted' : 'refused');
        },
      ),
      params(600),
    );
    // The mutations must reach both outcomes, or the property proves little.
    expect(tally.get('json-mutated').accepted).toBeGreaterThan(0);
    expect(tally.get('json-mutated').refused).toBeGreaterThan(tally.get('json-mutated').cases / 2);
  });

  it('random text and random JSON values are refused, never thrown past', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? ''),
        ),
        (text) => {
          const outcome = acceptOrRefuse(() => loadGraphJson(text, 'fuzz.graph.json'), 'fuzz.graph.json');
          expect(outcome.ok).toBe(false);
          tally.record('json-random', 'refused');
        },
      ),
      params(300),
    );
  });
});

// ---- binary ----------------------------------------------------------------------------------

const HEADER = 64;
const align8 = (n: number) => Math.ceil(n / 8) * 8;

function fnv1a(bytes: Uint8Array, start: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < bytes.length; i++) {
    hash ^= bytes[i];
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function fixChecksum(bytes: Uint8Array): void {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(40, fnv1a(bytes, HEADER), true);
}

/** Byte ranges of each list's offsets / index / sim sections, from the (valid) header. */
function sections(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const n = view.getUint32(12, true);
  let at = HEADER + align8(view.getUint32(20, true));
  return [0, 1, 2].map((k) => {
    const nnz = view.getUint32(24 + 4 * k, true);
    const s = { offsets: at, index: at + align8((n + 1) * 4), sim: at + align8((n + 1) * 4) + align8(nnz * 4), n, nnz };
    at = s.sim + nnz * 8;
    return s;
  });
}

/** Whether the header still describes the bytes (earlier mutations may have broken it). */
function layoutIntact(bytes: Uint8Array): boolean {
  if (bytes.length < HEADER) return false;
  const last = sections(bytes)[2];
  return last.n < 1000 && last.sim + last.nnz * 8 === bytes.length;
}

const binaryMutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('append' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }), repair: fc.boolean() }),
  fc.record({
    kind: fc.constant('header' as const),
    field: fc.constantFrom(0, 4, 8, 12, 16, 20, 24, 28, 32),
    value: fc.oneof(
      fc.nat({ max: 64 }),
      fc.constantFrom(0xffffffff, 0xfffffff9, 0x80000000, 0x7fffffff, 50_000_001, 2_000_000_001, 0x40000000),
      fc.nat(),
    ),
    repair: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('index' as const),
    list: fc.nat({ max: 2 }),
    at: fc.nat(),
    value: fc.constantFrom(-1, 0, 1, 2 ** 31 - 1, -(2 ** 31), 3, 1000),
  }),
  fc.record({
    kind: fc.constant('sim' as const),
    list: fc.nat({ max: 2 }),
    at: fc.nat(),
    value: fc.constantFrom(NaN, Infinity, -Infinity, -0, 1e308, -1, 2, 5e-324),
  }),
  fc.record({
    kind: fc.constant('offset' as const),
    list: fc.nat({ max: 2 }),
    at: fc.nat(),
    value: fc.constantFrom(-1, 0, 1, 2 ** 31 - 1, 1000),
  }),
  fc.record({ kind: fc.constant('metadata' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
);
type BinaryMutation = typeof binaryMutation extends fc.Arbitrary<infer T> ? T : never;

function applyBinaryMutation(input: Uint8Array, m: BinaryMutation): Uint8Array {
  let bytes = input.slice();
  const view = () => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (m.kind) {
    case 'truncate':
      return bytes.slice(0, m.at % bytes.length);
    case 'append': {
      const out = new Uint8Array(bytes.length + m.bytes.length);
      out.set(bytes);
      out.set(m.bytes, bytes.length);
      return out;
    }
    case 'flip':
      bytes[m.at % bytes.length] ^= m.xor;
      if (m.repair && bytes.length >= HEADER) fixChecksum(bytes);
      return bytes;
    case 'header':
      if (bytes.length >= HEADER) view().setUint32(m.field, m.value, true);
      if (m.repair && bytes.length >= HEADER) fixChecksum(bytes);
      return bytes;
    case 'metadata': {
      if (!layoutIntact(bytes)) return bytes;
      const metaLength = view().getUint32(20, true);
      if (metaLength > 0) bytes[HEADER + (m.at % metaLength)] = m.byte;
      fixChecksum(bytes);
      return bytes;
    }
    default: {
      // Semantic damage inside one list, checksum repaired (a "valid-looking" file).
      if (!layoutIntact(bytes)) return bytes;
      const s = sections(bytes)[m.list];
      if (m.kind === 'offset') view().setInt32(s.offsets + 4 * (m.at % (s.n + 1)), m.value, true);
      else if (s.nnz === 0) return bytes;
      else if (m.kind === 'index') view().setInt32(s.index + 4 * (m.at % s.nnz), m.value, true);
      else view().setFloat64(s.sim + 8 * (m.at % s.nnz), m.value, true);
      fixChecksum(bytes);
      bytes = bytes.slice();
      return bytes;
    }
  }
}

describe('fuzz: binary graph (decodeGraphBinary)', () => {
  it('damaged binaries are refused with a place, or accepted and still correct', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.array(binaryMutation, { minLength: 1, maxLength: 3 }), (seed, mutations) => {
        let bytes = encodeGraphBinary(loadGraph(baseGraph(seed)));
        for (const m of mutations) bytes = applyBinaryMutation(bytes, m);
        const outcome = acceptOrRefuse(() => decodeGraphBinary(bytes, 'fuzz.graph.bin'), 'fuzz.graph.bin');
        if (outcome.ok) checkAccepted(outcome.value, seed);
        tally.record('binary-mutated', outcome.ok ? 'accepted' : 'refused');
      }),
      params(600),
    );
    expect(tally.get('binary-mutated').refused).toBeGreaterThan(tally.get('binary-mutated').cases / 2);
  });

  it('random bytes, with and without the magic, are refused', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (random, magic) => {
        const bytes = random.slice();
        if (magic && bytes.length >= 8) bytes.set([0x45, 0x53, 0x47, 0x42, 1, 0, 0, 0]);
        const outcome = acceptOrRefuse(() => decodeGraphBinary(bytes, 'fuzz.graph.bin'), 'fuzz.graph.bin');
        expect(outcome.ok).toBe(false);
        tally.record('binary-random', 'refused');
      }),
      params(300),
    );
  });

  it('huge declared sizes are refused before anything is allocated', () => {
    // A 64-byte header that declares 2^32-1 bytes of metadata / 2e9 edges: refused on the length check.
    for (const [field, value] of [
      [20, 0xfffffff9],
      [20, 0xffffffff],
      [24, 2_000_000_000],
      [28, 0x7fffffff],
      [12, 50_000_000],
    ] as const) {
      const bytes = encodeGraphBinary(loadGraph(baseGraph(field + value)));
      new DataView(bytes.buffer).setUint32(field, value, true);
      fixChecksum(bytes);
      const outcome = acceptOrRefuse(() => decodeGraphBinary(bytes, 'huge.graph.bin'), 'huge.graph.bin');
      expect(outcome.ok).toBe(false);
      tally.record('binary-huge', 'refused');
    }
  });
});
