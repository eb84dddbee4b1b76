// `topology-import`: LLM answers to the Appendix E prompts -> a `--topology` file. Each answer is
// judged on its own: it is kept when it yields a valid topology (JSON with or without code
// fences), else rejected with a reason; one bad answer never costs the others. docs/graph.md
// ("Topology from an LLM") lists the accepted line shapes and the reject reasons.
import { InputError, isInputError } from '../engine/errors.ts';
import { isPlainObject } from '../engine/json-text.ts';
import type { Release } from './release.ts';
import { parseTopologyEntry, type TaskTopology } from './topology.ts';

export const REJECT_KINDS = [
  'malformed-line',
  'no-task-id',
  'failed-request',
  'no-answer',
  'malformed-json',
  'invalid-topology',
  'unknown-task',
  'unknown-tool',
  'duplicate',
] as const;
export type RejectKind = (typeof REJECT_KINDS)[number];

export const REJECT_WORDS: Record<RejectKind, string> = {
  'malformed-line': 'line not JSON',
  'no-task-id': 'no task id',
  'failed-request': 'failed request',
  'no-answer': 'no answer',
  'malformed-json': 'answer not JSON',
  'invalid-topology': 'invalid topology',
  'unknown-task': 'unknown task id',
  'unknown-tool': 'tool not in the environment',
  duplicate: 'second answer for a task',
};

export interface Reject {
  /** Where the answer is: a line number (JSON Lines) or `[k]` (a JSON list). */
  place: string;
  taskId: string | null;
  kind: RejectKind;
  reason: string;
  /** The answer as it was in the file. */
  answer: string;
}

export interface ImportResult {
  answers: number;
  /** Accepted topologies by task id, in pool order (or file order without a pool). */
  accepted: Map<string, TaskTopology>;
  /** How many accepted answers were inside code fences. */
  fenced: number;
  rejects: Reject[];
}

/** What the pool says about a scenario: its environment's tools and its number of checks. */
export interface PoolTask {
  tools: ReadonlySet<string>;
  env: string;
  checks: number;
}

export function poolIndex(release: Release): Map<string, PoolTask> {
  const out = new Map<string, PoolTask>();
  for (const t of release.tasks) {
    const env = release.envs[t.env];
    out.set(t.scenario, { tools: new Set(env.tools.map((x) => x.name)), env: env.id, checks: t.checks.length });
  }
  return out;
}

class Rejected extends Error {
  constructor(
    readonly kind: RejectKind,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const FENCE = /```[^\n`]*\n([\s\S]*?)```/;

/** The JSON of an answer text: inside the first code fence if there is one, else the text (or its outermost braces). */
export function answerJson(content: string): { value: unknown; fenced: boolean } {
  const fence = FENCE.exec(content);
  const body = fence ? fence[1] : content.trim();
  try {
    return { value: JSON.parse(body), fenced: fence !== null };
  } catch (error) {
    // Prose around an unfenced object: try from its first "{" to its last "}".
    const from = body.indexOf('{');
    const to = body.lastIndexOf('}');
    if (!fence && from > 0 && to > from) {
      try {
        return { value: JSON.parse(body.slice(from, to + 1)), fenced: false };
      } catch {
        // the first error says more
      }
    }
    const why = error instanceof Error ? error.message.replace(/[\u0000-\u001f\u2028\u2029]/g, ' ').slice(0, 120) : String(error);
    throw new Rejected('malformed-json', `the answer is not valid JSON${fence ? ' (inside its code fence)' : ''}: ${why}`);
  }
}

function taskIdOf(rec: Record<string, unknown>): string | null {
  for (const key of ['custom_id', 'task_id'] as const) if (typeof rec[key] === 'string' && rec[key] !== '') return rec[key] as string;
  return null;
}

function contentOfChoices(choices: unknown): string {
  const first = Array.isArray(choices) ? choices[0] : undefined;
  const message = isPlainObject(first) ? first.message : undefined;
  const content = isPlainObject(message) ? message.content : undefined;
  if (typeof content !== 'string') throw new Rejected('no-answer', 'the response has no message content (choices[0].message.content)');
  return content;
}

/** The answer of one line: a topology object, or the text that should hold one. */
function answerOf(rec: Record<string, unknown>): { text: string } | { value: unknown } {
  if (isPlainObject(rec.response) || (rec.error !== null && rec.error !== undefined)) {
    // An OpenAI Batch API output line.
    if (rec.error !== null && rec.error !== undefined) {
      const message = isPlainObject(rec.error) && typeof rec.error.message === 'string' ? rec.error.message : JSON.stringify(rec.error);
      throw new Rejected('failed-request', `the request failed: ${message.slice(0, 200)}`);
    }
    const response = rec.response as Record<string, unknown>;
    if (response.status_code !== undefined && response.status_code !== 200)
      throw new Rejected('failed-request', `the request failed with status ${JSON.stringify(response.status_code)}`);
    const body = isPlainObject(response.body) ? response.body : null;
    if (!body) throw new Rejected('no-answer', 'response.body must be an object');
    return { text: contentOfChoices(body.choices) };
  }
  if (Array.isArray(rec.choices)) return { text: contentOfChoices(rec.choices) };
  for (const key of ['content', 'answer', 'output', 'response'] as const)
    if (typeof rec[key] === 'string') return { text: rec[key] as string };
  if (isPlainObject(rec.topology)) return { value: rec.topology };
  if (Array.isArray(rec.operations)) return { value: rec };
  throw new Rejected(
    'no-answer',
    'holds no answer: expected an OpenAI Batch output line, {"task_id", "content"} or {"task_id", "topology"}',
  );
}

/** Checks an import is stricter about than `--topology`: ids unique and every reference resolved. */
function checkTopology(t: TaskTopology, task: PoolTask | undefined, raw: unknown): void {
  const ids = new Set<string>();
  t.operations.forEach((o, k) => {
    if (ids.has(o.id)) throw new Rejected('invalid-topology', `operations[${k}].id: duplicate operation id ${JSON.stringify(o.id)}`);
    ids.add(o.id);
  });
  t.reward_groups.forEach((g, k) =>
    g.requires.forEach((id, m) => {
      if (!ids.has(id))
        throw new Rejected('invalid-topology', `reward_groups[${k}].requires[${m}]: names no operation (${JSON.stringify(id)})`);
    }),
  );
  t.conflicts.forEach((c, k) =>
    c.operations.forEach((id, m) => {
      if (!ids.has(id))
        throw new Rejected('invalid-topology', `conflicts[${k}].operations[${m}]: names no operation (${JSON.stringify(id)})`);
    }),
  );
  if (!task) return;
  t.operations.forEach((o, k) => {
    if (o.tool !== '' && !task.tools.has(o.tool))
      throw new Rejected('unknown-tool', `operations[${k}].tool: ${JSON.stringify(o.tool)} is not a tool of environment ${task.env}`);
  });
  const groups = isPlainObject(raw) && Array.isArray(raw.reward_groups) ? raw.reward_groups : [];
  groups.forEach((g, k) => {
    const checks = isPlainObject(g) && Array.isArray(g.checks) ? g.checks : [];
    checks.forEach((c, m) => {
      if (!Number.isInteger(c) || (c as number) < 0 || (c as number) >= task.checks) {
        throw new Rejected(
          'invalid-topology',
          `reward_groups[${k}].checks[${m}]: ${JSON.stringify(c)} is not a check number of the task (0 to ${task.checks - 1})`,
        );
      }
    });
  });
}

/** The answers of a responses file: JSON Lines (a bad line is one reject), or one JSON list / object. */
function answerLines(text: string, source: string): { place: string; text: string; value?: unknown; error?: string }[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    const root: unknown = JSON.parse(body);
    if (Array.isArray(root)) return root.map((value, k) => ({ place: `[${k}]`, text: JSON.stringify(value), value }));
    return [{ place: '(top level)', text: body.trim(), value: root }];
  } catch {
    // JSON Lines
  }
  const out: { place: string; text: string; value?: unknown; error?: string }[] = [];
  body.split('\n').forEach((row, k) => {
    if (row.trim() === '') return;
    try {
      out.push({ place: String(k + 1), text: row.replace(/\r$/, ''), value: JSON.parse(row) });
    } catch (error) {
      out.push({
        place: String(k + 1),
        text: row.replace(/\r$/, ''),
        error: error instanceof Error ? error.message.slice(0, 120) : String(error),
      });
    }
  });
  if (out.length === 0) throw new InputError(source, '(top level)', 'holds no answers');
  return out;
}

/**
 * Imports every answer that yields a valid topology. With `pool`, answers for task ids not in
 * the pool, naming tools the task's environment lacks, or check numbers the task lacks are
 * rejected too.
 */
export function importResponses(text: string, source: string, pool: ReadonlyMap<string, PoolTask> | null): ImportResult {
  const lines = answerLines(text, source);
  const found = new Map<string, TaskTopology>();
  const rejects: Reject[] = [];
  let fenced = 0;
  for (const line of lines) {
    let taskId: string | null = null;
    try {
      if (line.error !== undefined) throw new Rejected('malformed-line', `the line is not JSON: ${line.error}`);
      if (!isPlainObject(line.value)) throw new Rejected('malformed-line', 'the line must be a JSON object');
      const rec = line.value;
      taskId = taskIdOf(rec);
      const answer = answerOf(rec);
      if (taskId === null) throw new Rejected('no-task-id', 'names no task (custom_id or task_id)');
      const task = pool?.get(taskId);
      if (pool && !task) throw new Rejected('unknown-task', `task id ${JSON.stringify(taskId)} is not in the pool`);
      if (found.has(taskId))
        throw new Rejected('duplicate', `task ${JSON.stringify(taskId)} already has an accepted answer (the first one is kept)`);
      const parsed = 'text' in answer ? answerJson(answer.text) : { value: answer.value, fenced: false };
      let topology: TaskTopology;
      try {
        topology = parseTopologyEntry(parsed.value, source, 'answer');
      } catch (error) {
        if (!isInputError(error)) throw error;
        throw new Rejected('invalid-topology', `${error.place.replace(/^answer\.?/, '') || '(answer)'}: ${error.problem}`);
      }
      checkTopology(topology, task, parsed.value);
      found.set(taskId, topology);
      if (parsed.fenced) fenced++;
    } catch (error) {
      if (!(error instanceof Rejected)) throw error;
      rejects.push({ place: line.place, taskId, kind: error.kind, reason: error.reason, answer: line.text });
    }
  }
  let accepted = found;
  if (pool) {
    accepted = new Map();
    for (const id of pool.keys()) {
      const t = found.get(id);
      if (t) accepted.set(id, t);
    }
  }
  return { answers: lines.length, accepted, fenced, rejects };
}

/** The `--topology` file of the accepted answers: an object keyed by task id, one entry per line. */
export function serializeTopologies(accepted: ReadonlyMap<string, TaskTopology>): string {
  if (accepted.size === 0) return '{}\n';
  const rows = [...accepted].map(([id, t]) => `  ${JSON.stringify(id)}: ${JSON.stringify(t)}`);
  return `{\n${rows.join(',\n')}\n}\n`;
}

/** The rejects file: one JSON object per line, {place, task_id, kind, reason, answer}. */
export function serializeRejects(rejects: readonly Reject[]): string {
  return rejects
    .map((r) => `${JSON.stringify({ place: r.place, task_id: r.taskId, kind: r.kind, reason: r.reason, answer: r.answer })}\n`)
    .join('');
}

/** `12 answers: 8 imported (3 from code fences), 4 rejected (2 answer not JSON, 1 unknown task id, ...)`. */
export function importSummary(r: ImportResult): string {
  const counts = new Map<RejectKind, number>();
  for (const x of r.rejects) counts.set(x.kind, (counts.get(x.kind) ?? 0) + 1);
  const parts = REJECT_KINDS.filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${REJECT_WORDS[k]}`);
  return `${r.answers} answers: ${r.accepted.size} imported (${r.fenced} from code fences), ${r.rejects.length} rejected${parts.length ? ` (${parts.join(', ')})` : ''}`;
}
