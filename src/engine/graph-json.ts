// The graph interchange file (SPEC 12, `*.graph.json`): reading with validation, and writing.
import { InputError } from './errors.ts';
import { validatePacked } from './graph-validate.ts';
import { isPlainObject, parseJsonText } from './json-text.ts';
import type { CsrList, Graph, GraphEnv, GraphMeta, GraphTask, LoadedGraph, Neighbour, PackedGraph } from './types.ts';

const LIST_NAMES = ['within', 'cross', 'fullCross'] as const;

function fail(source: string, place: string, problem: string): never {
  throw new InputError(source, place, problem);
}

function readString(value: unknown, source: string, place: string): string {
  if (typeof value !== 'string') fail(source, place, `must be a string, got ${typeName(value)}`);
  return value;
}

function readStringList(value: unknown, source: string, place: string): string[] {
  if (!Array.isArray(value)) fail(source, place, `must be a list of strings, got ${typeName(value)}`);
  value.forEach((item, k) => readString(item, source, `${place}[${k}]`));
  return value as string[];
}

function typeName(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)?.slice(0, 30)}`;
}

function readEnv(raw: unknown, source: string, e: number): GraphEnv {
  const place = `envs[${e}]`;
  if (!isPlainObject(raw)) fail(source, place, `must be an object, got ${typeName(raw)}`);
  const category = raw.category === undefined || raw.category === null ? null : readString(raw.category, source, `${place}.category`);
  return {
    id: readString(raw.id, source, `${place}.id`),
    name: raw.name === undefined ? readString(raw.id, source, `${place}.id`) : readString(raw.name, source, `${place}.name`),
    category,
    tools: raw.tools === undefined ? [] : readStringList(raw.tools, source, `${place}.tools`),
  };
}

function readTask(raw: unknown, source: string, i: number): GraphTask {
  const place = `tasks[${i}]`;
  if (!isPlainObject(raw)) fail(source, place, `must be an object, got ${typeName(raw)}`);
  const env = raw.env;
  if (typeof env !== 'number' || !Number.isInteger(env)) fail(source, `${place}.env`, `must be an environment index, got ${typeName(env)}`);
  const checks = raw.checks === undefined ? 0 : raw.checks;
  if (typeof checks !== 'number' || !Number.isInteger(checks) || checks < 0)
    fail(source, `${place}.checks`, `must be a non-negative integer, got ${typeName(checks)}`);
  return {
    id: readString(raw.id, source, `${place}.id`),
    env,
    tools: raw.tools === undefined ? [] : readStringList(raw.tools, source, `${place}.tools`),
    checks,
    text: raw.text === undefined ? '' : readString(raw.text, source, `${place}.text`),
  };
}

/** Reads one of the three neighbour-list sections into CSR arrays; validatePacked checks the content. */
function readLists(raw: unknown, name: string, n: number, source: string): CsrList {
  if (!Array.isArray(raw)) fail(source, name, `must be a list with one neighbour list per task, got ${typeName(raw)}`);
  if (raw.length !== n) fail(source, name, `has ${raw.length} lists, expected one per task (${n})`);
  let total = 0;
  raw.forEach((list, i) => {
    if (!Array.isArray(list)) fail(source, `${name}[${i}]`, `must be a list of [index, similarity] pairs, got ${typeName(list)}`);
    total += list.length;
  });
  const offsets = new Int32Array(n + 1);
  const index = new Int32Array(total);
  const sim = new Float64Array(total);
  let k = 0;
  (raw as unknown[][]).forEach((list, i) => {
    list.forEach((pair, p) => {
      const place = `${name}[${i}][${p}]`;
      if (!Array.isArray(pair) || pair.length !== 2) fail(source, place, `must be an [index, similarity] pair, got ${typeName(pair)}`);
      const [j, s] = pair;
      if (typeof j !== 'number' || !Number.isInteger(j)) fail(source, place, `neighbour index must be an integer, got ${typeName(j)}`);
      if (typeof s !== 'number') fail(source, place, `similarity must be a number, got ${typeName(s)}`);
      index[k] = j;
      sim[k] = s;
      k++;
    });
    offsets[i + 1] = k;
  });
  return { offsets, index, sim };
}

/** Reads and checks the metadata fields of a graph object (JSON file or binary metadata block). */
export function readGraphMeta(raw: unknown, source: string): GraphMeta {
  if (!isPlainObject(raw)) fail(source, '(top level)', 'a graph file must be a JSON object');
  if (raw.format !== 'envsched-graph') fail(source, 'format', `must be "envsched-graph", got ${typeName(raw.format)}`);
  if (raw.version !== 1) fail(source, 'version', `unsupported graph version ${typeName(raw.version)} (this build reads version 1)`);
  if (!Array.isArray(raw.envs)) fail(source, 'envs', `must be a list, got ${typeName(raw.envs)}`);
  if (!Array.isArray(raw.tasks)) fail(source, 'tasks', `must be a list, got ${typeName(raw.tasks)}`);
  const meta: GraphMeta = {
    format: 'envsched-graph',
    version: 1,
    name: raw.name === undefined ? '' : readString(raw.name, source, 'name'),
    envs: raw.envs.map((env, e) => readEnv(env, source, e)),
    tasks: raw.tasks.map((task, i) => readTask(task, source, i)),
  };
  if (raw.sim !== undefined && raw.sim !== null && !(isPlainObject(raw.sim) && Object.keys(raw.sim).length === 0)) meta.sim = raw.sim;
  return meta;
}

/** Parses and validates a graph file; returns metadata plus packed lists (what the engine uses). */
export function loadGraphJson(text: string, source: string): LoadedGraph {
  const raw = parseJsonText(text, source);
  const meta = readGraphMeta(raw, source);
  const n = meta.tasks.length;
  const [within, cross, fullCross] = LIST_NAMES.map((name) => readLists((raw as Record<string, unknown>)[name], name, n, source));
  return { meta, packed: validatePacked(meta, { within, cross, fullCross }, source) };
}

function listsOf(list: CsrList, n: number): Neighbour[][] {
  const out: Neighbour[][] = [];
  for (let i = 0; i < n; i++) {
    const row: Neighbour[] = [];
    for (let k = list.offsets[i]; k < list.offsets[i + 1]; k++) row.push([list.index[k], list.sim[k]]);
    out.push(row);
  }
  return out;
}

/** The readable form (lists of pairs). Costs O(edges) small arrays: for pools up to ~100K tasks. */
export function unpackGraph(loaded: LoadedGraph): Graph {
  const n = loaded.packed.nTasks;
  return {
    ...loaded.meta,
    within: listsOf(loaded.packed.within, n),
    cross: listsOf(loaded.packed.cross, n),
    fullCross: listsOf(loaded.packed.fullCross, n),
  };
}

/** Parses and validates a graph file into its readable form (SPEC 12). */
export function parseGraphJson(text: string, source: string): Graph {
  return unpackGraph(loadGraphJson(text, source));
}

function packList(lists: Neighbour[][]): CsrList {
  const offsets = new Int32Array(lists.length + 1);
  let total = 0;
  lists.forEach((l, i) => {
    total += l.length;
    offsets[i + 1] = total;
  });
  const index = new Int32Array(total);
  const sim = new Float64Array(total);
  let k = 0;
  for (const l of lists) {
    for (const [j, s] of l) {
      index[k] = j;
      sim[k++] = s;
    }
  }
  return { offsets, index, sim };
}

/** Packs and validates a readable graph (e.g. one the builder just made). */
export function loadGraph(graph: Graph, source = 'graph'): LoadedGraph {
  const { within, cross, fullCross, ...meta } = graph;
  return {
    meta,
    packed: validatePacked(meta, { within: packList(within), cross: packList(cross), fullCross: packList(fullCross) }, source),
  };
}

export function packGraph(graph: Graph): PackedGraph {
  return loadGraph(graph).packed;
}

/**
 * Writes a graph file: one environment, task or neighbour list per line (diffable, streamable).
 * Numbers use JavaScript's shortest round-trip form, so reading the file back gives the same doubles.
 */
export function serializeGraphJson(graph: Graph): string {
  const lines: string[] = [];
  const head = { format: graph.format, version: graph.version, name: graph.name };
  lines.push(`${JSON.stringify(head).slice(0, -1)},`);
  const section = (key: string, items: readonly unknown[], last = false) => {
    lines.push(`"${key}": [`);
    items.forEach((item, k) => lines.push(`${JSON.stringify(item)}${k < items.length - 1 ? ',' : ''}`));
    lines.push(last ? ']' : '],');
  };
  section('envs', graph.envs);
  section('tasks', graph.tasks);
  section('within', graph.within);
  section('cross', graph.cross);
  section('fullCross', graph.fullCross, graph.sim === undefined);
  if (graph.sim !== undefined) lines.push(`"sim": ${JSON.stringify(graph.sim)}`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
