// The Appendix E task topology (SPEC 9 view 6 and S_abs): reading it from a file, deriving it
// when no file is given, and rendering its concrete and abstract descriptions. docs/graph.md
// documents the accepted shape and the derivation rules.
import { InputError } from '../engine/errors.ts';
import { isPlainObject } from '../engine/json-text.ts';
import { readJsonContent } from './records.ts';
import type { ReleaseEnv, ReleaseTask, ReleaseTool } from './release.ts';

export interface TopoOperation {
  id: string;
  tool: string;
  family: string;
  arguments: Record<string, unknown>;
  depends_on: string[];
}
export interface TopoGate {
  type: string;
  provenance: string;
  operation: string;
}
export interface TopoRewardGroup {
  checks: number;
  requires: string[];
  relation: string;
}
export interface TopoConflict {
  operations: string[];
  with: string;
}
export interface TaskTopology {
  operations: TopoOperation[];
  gates: TopoGate[];
  reward_groups: TopoRewardGroup[];
  conflicts: TopoConflict[];
}

// ---------------------------------------------------------------------------------------------
// Reading `--topology F`: an object keyed by task_id, or a list of objects with `task_id`.

function fail(source: string, place: string, problem: string): never {
  throw new InputError(source, place, problem);
}

function strField(v: unknown, source: string, place: string): string {
  if (typeof v !== 'string' || v === '') fail(source, place, v === undefined ? 'is missing' : 'must be a non-empty string');
  return v;
}

function strList(v: unknown, source: string, place: string): string[] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) fail(source, place, 'must be a list of strings');
  return v as string[];
}

function list(v: unknown, source: string, place: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail(source, place, 'must be a list');
  return v;
}

export function parseTopologyEntry(raw: unknown, source: string, place: string): TaskTopology {
  if (!isPlainObject(raw)) fail(source, place, 'must be an object with operations, gates, reward_groups, conflicts');
  if (!Array.isArray(raw.operations)) fail(source, `${place}.operations`, raw.operations === undefined ? 'is missing' : 'must be a list');
  const operations = raw.operations.map((o, k): TopoOperation => {
    const at = `${place}.operations[${k}]`;
    if (!isPlainObject(o)) fail(source, at, 'must be an object');
    if (o.arguments !== undefined && !isPlainObject(o.arguments)) fail(source, `${at}.arguments`, 'must be an object');
    return {
      id: strField(o.id, source, `${at}.id`),
      tool: typeof o.tool === 'string' ? o.tool : '',
      family: strField(o.family, source, `${at}.family`),
      arguments: (o.arguments as Record<string, unknown> | undefined) ?? {},
      depends_on: strList(o.depends_on, source, `${at}.depends_on`),
    };
  });
  const ids = new Set(operations.map((o) => o.id));
  operations.forEach((o, k) =>
    o.depends_on.forEach(
      (d, m) => ids.has(d) || fail(source, `${place}.operations[${k}].depends_on[${m}]`, `names no operation (${JSON.stringify(d)})`),
    ),
  );
  const gates = list(raw.gates, source, `${place}.gates`).map((g, k): TopoGate => {
    const at = `${place}.gates[${k}]`;
    if (!isPlainObject(g)) fail(source, at, 'must be an object');
    const operation = strField(g.operation, source, `${at}.operation`);
    if (!ids.has(operation)) fail(source, `${at}.operation`, `names no operation (${JSON.stringify(operation)})`);
    return { type: strField(g.type, source, `${at}.type`), provenance: strField(g.provenance, source, `${at}.provenance`), operation };
  });
  const reward_groups = list(raw.reward_groups, source, `${place}.reward_groups`).map((r, k): TopoRewardGroup => {
    const at = `${place}.reward_groups[${k}]`;
    if (!isPlainObject(r)) fail(source, at, 'must be an object');
    const checks = Array.isArray(r.checks)
      ? r.checks.length
      : typeof r.checks === 'number'
        ? r.checks
        : fail(source, `${at}.checks`, 'must be a list of check indices or a count');
    return {
      checks,
      requires: strList(r.requires, source, `${at}.requires`),
      relation: typeof r.relation === 'string' ? r.relation : 'all_of',
    };
  });
  const conflicts = list(raw.conflicts, source, `${place}.conflicts`).map((c, k): TopoConflict => {
    const at = `${place}.conflicts[${k}]`;
    if (!isPlainObject(c)) fail(source, at, 'must be an object');
    return { operations: strList(c.operations, source, `${at}.operations`), with: typeof c.with === 'string' ? c.with : '' };
  });
  return { operations, gates, reward_groups, conflicts };
}

/**
 * `--topology F`: an object keyed by task_id, or entries with a `task_id` (a list, or JSON Lines).
 * Strict: one bad entry refuses the file (`envsched topology-import` is the lenient path for raw
 * LLM answers).
 */
export function parseTopologyFile(text: string, source: string): Map<string, TaskTopology> {
  const content = readJsonContent(text, source);
  const out = new Map<string, TaskTopology>();
  const entries = (items: { place: string; value: unknown }[]) => {
    for (const { place, value } of items) {
      if (!isPlainObject(value)) fail(source, place, 'must be an object with task_id');
      const id = strField(value.task_id, source, `${place}.task_id`);
      if (out.has(id)) fail(source, `${place}.task_id`, `duplicate task id ${JSON.stringify(id)}`);
      out.set(id, parseTopologyEntry(value, source, place));
    }
  };
  const root = content.kind === 'json' ? content.value : null;
  if (content.kind === 'lines') {
    entries(content.lines);
  } else if (Array.isArray(root)) {
    entries(root.map((value, k) => ({ place: `[${k}]`, value })));
  } else if (isPlainObject(root) && typeof root.task_id === 'string') {
    entries([{ place: '(top level)', value: root }]);
  } else if (isPlainObject(root)) {
    for (const id of Object.keys(root)) out.set(id, parseTopologyEntry(root[id], source, id));
  } else {
    fail(source, '(top level)', 'must be an object keyed by task_id, a list of topologies with task_id, or JSON Lines of them');
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Derivation without a file (docs/graph.md, "Derived topology").

const VERB_FAMILY: [RegExp, string][] = [
  [/^(get|find|list|search|lookup|retrieve|view|query|fetch|show|count)$/, 'lookup'],
  [/^(check|verify|validate|is|has|confirm)$/, 'validate'],
  [/^(approve|authorize|authorise|authenticate|login|grant|sign)$/, 'authorise'],
  [/^(create|add|register|enroll|book|insert|new|open|submit|issue|record|log)$/, 'create'],
  [/^(delete|remove|cancel|withdraw|revoke|deactivate|close|void|terminate|deregister|unenroll)$/, 'delete'],
  [/^(assign|link|attach|associate|transfer|move|merge|reassign|connect|map)$/, 'link'],
  [/^(schedule|reschedule|postpone|plan)$/, 'schedule'],
  [/^(calculate|compute|sum|total|estimate|aggregate)$/, 'compute'],
  [/^(update|set|change|modify|edit|mark|adjust|rename|toggle|apply|flag|suspend|activate|restore|reset)$/, 'update'],
];

export function toolFamily(name: string): string {
  const verb = name.split('_')[0].toLowerCase();
  for (const [re, family] of VERB_FAMILY) if (re.test(verb)) return family;
  return 'update';
}

const WRITE_FAMILIES = new Set(['update', 'create', 'delete', 'link', 'schedule', 'authorise']);

function singular(word: string): string {
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.endsWith('sses') || word.endsWith('ses')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function toolWords(tool: ReleaseTool): Set<string> {
  return new Set(tool.name.toLowerCase().split('_').slice(1).map(singular));
}

interface CheckFacts {
  collection: string | null;
  field: string | null;
  kind: 'delete' | 'create' | 'field' | 'keep';
  labelField: string | null;
  readsInitial: boolean;
  precondition: boolean;
  derived: boolean;
  capacity: boolean;
}

function checkFacts(item: string, func: string): CheckFacts {
  const collection = /(?:final_state|initial_state)(?:\.get\(\s*|\[\s*)["']([^"']+)["']/.exec(func)?.[1] ?? null;
  const fields = [...func.matchAll(/(?:\.get\(\s*|\[\s*)["']([^"']+)["']\s*(?:,[^)]*)?[\])]\s*(?:==|!=)/g)].map((m) => m[1]);
  const readsInitial = /initial_state/.test(func);
  const keep =
    /\b(still|remain|remained|kept|unchanged|untouched|not been modified)\b/i.test(item) ||
    (readsInitial && /after\.get\(([^)]*)\)\s*==\s*before\.get\(\1\)/.test(func));
  const kind: CheckFacts['kind'] = keep
    ? 'keep'
    : /\bnot in\s+final_state/.test(func)
      ? 'delete'
      : /\bin\s+final_state/.test(func) && fields.length === 0
        ? 'create'
        : 'field';
  const label = /for\s+\w+\s+in\s+final_state[^\n]*\.values\(\)[\s\S]*?\.get\(\s*["']([^"']+)["']\s*\)\s*==\s*["']/.exec(func)?.[1] ?? null;
  return {
    collection,
    field: fields.length > 0 ? fields[fields.length - 1] : null,
    kind,
    labelField: label,
    readsInitial,
    precondition: readsInitial && /!=[^\n]*\n\s*return False/.test(func),
    derived: /expected\s*=\s*initial_state/.test(func) || /same .* as/i.test(item),
    capacity: /capacity|limit|within its/i.test(item) || /limit\s*=/.test(func),
  };
}

/** Best tool by family preference and word overlap with (collection, field); ties: earlier tool. */
function pickTool(tools: readonly ReleaseTool[], families: readonly string[], words: readonly string[]): ReleaseTool | null {
  let best: ReleaseTool | null = null;
  let bestScore = 0;
  for (const t of tools) {
    const fam = families.indexOf(toolFamily(t.name));
    if (fam < 0) continue;
    const w = toolWords(t);
    let overlap = 0;
    for (const x of words) if (w.has(x)) overlap++;
    const score = overlap * 10 + (families.length - fam);
    if (score > bestScore) {
      best = t;
      bestScore = score;
    }
  }
  return best;
}

function wordsOf(collection: string | null, field: string | null): string[] {
  const out: string[] = [];
  if (collection) for (const w of collection.toLowerCase().split('_')) out.push(singular(w));
  if (field) for (const w of field.toLowerCase().split('_')) out.push(singular(w));
  return out;
}

export function deriveTopology(task: ReleaseTask, env: ReleaseEnv): TaskTopology {
  const topo: TaskTopology = { operations: [], gates: [], reward_groups: [], conflicts: [] };
  const text = task.text.toLowerCase();
  const facts = task.checks.map((c) => checkFacts(c.item, c.func));
  // Reward groups: checks grouped by (collection, kind), in order of first appearance.
  const groups = new Map<string, { facts: CheckFacts; count: number }>();
  for (const f of facts) {
    const key = f.kind === 'keep' ? 'keep' : `${f.collection ?? ''}|${f.kind}|${f.kind === 'field' ? (f.field ?? '') : ''}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { facts: f, count: 1 });
  }
  const opByTool = new Map<string, string>();
  const addOp = (tool: ReleaseTool, deps: string[], args: Record<string, unknown>): string => {
    const known = opByTool.get(tool.name);
    if (known) return known;
    const id = `op${topo.operations.length + 1}`;
    topo.operations.push({ id, tool: tool.name, family: toolFamily(tool.name), arguments: args, depends_on: deps });
    opByTool.set(tool.name, id);
    return id;
  };
  let previousWrite: string | null = null;
  const ordered = /\b(once that is done|after that|afterwards|then|after all|once)\b/.test(text);
  for (const [key, g] of groups) {
    if (key === 'keep') continue;
    const f = g.facts;
    const words = wordsOf(f.collection, f.field);
    const deps: string[] = [];
    const gates: TopoGate[] = [];
    const args = (tool: ReleaseTool) => Object.fromEntries(tool.params.map((p) => [p, '<value>']));
    if (f.labelField) {
      const lookup = pickTool(env.tools, ['lookup'], [...wordsOf(f.collection, null), ...wordsOf(null, f.labelField), 'by']);
      if (lookup) {
        const id = addOp(lookup, [], args(lookup));
        deps.push(id);
        gates.push({ type: 'identifier_resolution', provenance: 'instruction', operation: id });
      }
    }
    if (f.precondition) {
      const validate = pickTool(env.tools, ['validate', 'lookup'], wordsOf(f.collection, null));
      if (validate) {
        const id = addOp(validate, deps.slice(), args(validate));
        deps.push(id);
        gates.push({ type: 'state_precondition', provenance: 'initial_state', operation: id });
      }
    }
    if (/\bapprov|authori[sz]/.test(text) && f.kind !== 'delete') {
      const approve = pickTool(env.tools, ['authorise'], wordsOf(f.collection, null));
      if (approve) {
        const id = addOp(approve, deps.slice(), args(approve));
        deps.push(id);
        gates.push({ type: 'authorisation', provenance: 'instruction', operation: id });
      }
    }
    if (f.capacity) {
      const getter = pickTool(env.tools, ['lookup'], ['capacity', 'limit', ...wordsOf(f.collection, null)]);
      if (getter) {
        const id = addOp(getter, deps.slice(), args(getter));
        deps.push(id);
        gates.push({ type: 'capacity_constraint', provenance: 'initial_state', operation: id });
      }
    }
    if (f.derived) {
      const source = pickTool(env.tools, ['compute', 'lookup'], wordsOf(f.collection, f.field));
      if (source) {
        const id = addOp(source, deps.slice(), args(source));
        deps.push(id);
        gates.push({ type: 'parameter_derivation', provenance: 'prior_output', operation: id });
      }
    }
    const families =
      f.kind === 'delete'
        ? ['delete', 'update']
        : f.kind === 'create'
          ? ['create', 'update']
          : f.field && /_id$/.test(f.field)
            ? ['link', 'update']
            : f.field && /(date|time|schedule|kickoff|deadline)/.test(f.field)
              ? ['schedule', 'update']
              : ['update', 'authorise', 'link', 'schedule', 'create'];
    const write = pickTool(env.tools, families, words) ?? pickTool(env.tools, [...WRITE_FAMILIES], words);
    let writeId: string | null = null;
    if (write) {
      const writeDeps = deps.slice();
      const isOrdered = ordered && previousWrite !== null;
      if (isOrdered) writeDeps.push(previousWrite!);
      writeId = addOp(write, writeDeps, args(write));
      gates.push({
        type: isOrdered ? 'ordering' : 'state_change',
        provenance: isOrdered ? 'prior_output' : 'instruction',
        operation: writeId,
      });
      previousWrite = writeId;
    }
    topo.gates.push(...gates);
    topo.reward_groups.push({
      checks: g.count,
      requires: writeId ? [...deps, writeId] : deps,
      relation: f.kind === 'delete' ? 'absence' : f.kind === 'create' ? 'existence' : 'all_of',
    });
  }
  const keep = groups.get('keep');
  if (keep) {
    topo.reward_groups.push({ checks: keep.count, requires: [], relation: 'unchanged' });
    if (/\b(only these|do not modify|don't modify|without changing|no other)\b/.test(text) || keep.count > 0) {
      topo.conflicts.push({ operations: topo.operations.filter((o) => WRITE_FAMILIES.has(o.family)).map((o) => o.id), with: 'unchanged' });
    }
  }
  return topo;
}

// ---------------------------------------------------------------------------------------------
// Descriptions (SPEC 9 view 6 and the abstract string of S_abs).

function valueType(v: unknown): string {
  if (typeof v === 'boolean') return '<bool>';
  if (typeof v === 'number') return Number.isInteger(v) ? '<int>' : '<float>';
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) return '<date>';
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return '<int>';
  if (typeof v === 'string' && /^-?\d+\.\d+$/.test(v)) return '<float>';
  return '<string>';
}

function countWord(n: number): string {
  return n <= 1 ? 'one' : n <= 3 ? 'few' : n <= 7 ? 'several' : 'many';
}

/** Concrete description: tool names, argument names and values, and the structure. */
export function describeConcrete(t: TaskTopology): string {
  const parts: string[] = [];
  for (const o of t.operations) {
    const args = Object.entries(o.arguments)
      .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join(' ');
    parts.push(
      `${o.family} ${o.tool} ${args}${o.depends_on.length ? ` after ${o.depends_on.map((d) => t.operations.find((x) => x.id === d)?.tool ?? d).join(' ')}` : ''}`,
    );
  }
  for (const g of t.gates)
    parts.push(`gate ${g.type} from ${g.provenance} on ${t.operations.find((o) => o.id === g.operation)?.tool ?? g.operation}`);
  for (const r of t.reward_groups)
    parts.push(
      `reward ${r.relation} ${countWord(r.checks)} checks requires ${r.requires.map((d) => t.operations.find((o) => o.id === d)?.tool ?? d).join(' ')}`,
    );
  for (const c of t.conflicts)
    parts.push(`conflict ${c.operations.map((d) => t.operations.find((o) => o.id === d)?.tool ?? d).join(' ')} with ${c.with}`);
  return parts.join(' ; ');
}

/**
 * Abstract description (SPEC 9): no tool names, identifiers, field names or literal values.
 * Operations become `step<k> <family> <type of each argument>`, dependencies `step<k> after
 * step<j>`, gates `gate <type> from <provenance> at <family> step`, reward groups by relation
 * and size, conflicts by the families involved.
 */
export function describeAbstract(t: TaskTopology): string {
  const step = new Map(t.operations.map((o, k) => [o.id, `step${k + 1}`]));
  const famOf = new Map(t.operations.map((o) => [o.id, o.family]));
  const parts: string[] = [];
  for (const o of t.operations) {
    parts.push(`${step.get(o.id)} ${o.family} ${Object.values(o.arguments).map(valueType).join(' ')}`.trim());
    for (const d of o.depends_on) parts.push(`${step.get(o.id)} after ${step.get(d) ?? 'step'} ${famOf.get(d) ?? ''} then ${o.family}`);
  }
  for (const g of t.gates)
    parts.push(`gate ${g.type} from ${g.provenance} at ${famOf.get(g.operation) ?? ''} ${step.get(g.operation) ?? ''}`);
  for (const r of t.reward_groups)
    parts.push(`reward ${r.relation} ${countWord(r.checks)} checks needs ${r.requires.map((d) => famOf.get(d) ?? '').join(' ')}`);
  for (const c of t.conflicts) parts.push(`conflict ${c.operations.map((d) => famOf.get(d) ?? '').join(' ')} with guarded checks`);
  return parts.join(' ; ');
}

/** The tools a topology uses, in order of first use (the graph task's `tools`). */
export function topologyTools(t: TaskTopology): string[] {
  const seen = new Set<string>();
  for (const o of t.operations) if (o.tool) seen.add(o.tool);
  return [...seen];
}
