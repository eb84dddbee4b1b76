// Rollout histories (SPEC 12, `*.jsonl`): one rollout group per line, in any order.
// Lines are read one at a time so histories of millions of lines can be streamed.
import { InputError } from './errors.ts';
import { checkStep, readObservation } from './groups.ts';
import { isPlainObject, parseJsonText } from './json-text.ts';
import type { Graph, GraphMeta, Observation } from './types.ts';

export { MAX_GROUP, MAX_STEP } from './groups.ts';

const KNOWN_KEYS = new Set(['step', 'task', 'rewards', 'flags']);

export function taskIndexOf(graph: Graph | GraphMeta): Map<string, number> {
  const map = new Map<string, number>();
  graph.tasks.forEach((task, i) => map.set(task.id, i));
  return map;
}

/** Accumulates history lines; reports the first problem with its line number. */
export class HistoryReader {
  private readonly observations: Observation[] = [];
  /** `${step}:${task}` -> line of its first occurrence, to name both lines of a duplicate. */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly source: string,
    private readonly taskIndex: ReadonlyMap<string, number>,
  ) {}

  /** Reads one line (1-based `line`). Blank lines are allowed and skipped. */
  pushLine(text: string, line: number): void {
    if (text.trim() === '') return;
    const raw = parseJsonText(text, this.source, line - 1);
    const at = (field: string) => `${line}:${field}`;
    if (!isPlainObject(raw))
      throw new InputError(this.source, `${line}`, 'each line must be a JSON object {"step", "task", "rewards", "flags"?}');
    for (const key of Object.keys(raw)) {
      if (!KNOWN_KEYS.has(key))
        throw new InputError(this.source, at(key), 'unknown field (a history line has step, task, rewards and optional flags)');
    }
    const step = checkStep(raw.step, this.source, at('step'));
    const observation = readObservation(step, raw, this.taskIndex, this.source, at);
    const index = observation.task;
    const key = `${step}:${index}`;
    const first = this.seen.get(key);
    if (first !== undefined)
      throw new InputError(
        this.source,
        `${line}`,
        `task ${raw.task as string} is already observed at step ${step} (line ${first}); a task is observed at most once per step`,
      );
    this.seen.set(key, line);
    this.observations.push(observation);
  }

  /** The observations in canonical order: step ascending, then task index (SPEC 12 summation order). */
  finish(): Observation[] {
    return this.observations.sort((a, b) => a.step - b.step || a.task - b.task);
  }
}

/** Parses a whole history file held in memory. */
export function parseHistoryJsonl(text: string, source: string, taskIndex: ReadonlyMap<string, number>): Observation[] {
  const reader = new HistoryReader(source, taskIndex);
  let line = 1;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const lineText = text.slice(start, end);
    reader.pushLine(lineText.endsWith('\r') ? lineText.slice(0, -1) : lineText, line);
    line++;
    start = end + 1;
  }
  return reader.finish();
}

/** Default step to score (SPEC 12): one past the last step in the history; 0 for an empty one. */
export function defaultScoreStep(observations: readonly Observation[]): number {
  let last = -1;
  for (const o of observations) if (o.step > last) last = o.step;
  return last + 1;
}

/** Writes a history back as JSONL, one group per line in canonical order. */
export function serializeHistoryJsonl(observations: readonly Observation[], taskIds: readonly string[]): string {
  return observations
    .map((o) =>
      JSON.stringify(
        o.flags
          ? { step: o.step, task: taskIds[o.task], rewards: o.rewards, flags: o.flags }
          : { step: o.step, task: taskIds[o.task], rewards: o.rewards },
      ),
    )
    .map((line) => `${line}\n`)
    .join('');
}
