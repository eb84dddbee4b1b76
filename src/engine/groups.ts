// One rollout group (SPEC 2, 12) read from untyped JSON: the checks a history line and a server
// `observe` request share. Errors name the source and the field (`3:rewards[2]`, `groups[4].task`).
import { InputError } from './errors.ts';
import type { Observation } from './types.ts';

/** Largest step accepted: far beyond any run, small enough that step arithmetic stays exact. */
export const MAX_STEP = 1_000_000_000;
/** Largest group accepted (rollouts per task per step). */
export const MAX_GROUP = 65_536;

/** A short, one-line rendering of a bad value for an error message. */
export function showValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function checkStep(value: unknown, source: string, place: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_STEP) {
    throw new InputError(source, place, `must be an integer in [0, ${MAX_STEP}], got ${showValue(value)}`);
  }
  return value;
}

/** Rewards: a non-empty list of at most MAX_GROUP finite numbers in [0, 1]. */
export function checkRewards(value: unknown, source: string, place: string): number[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_GROUP) {
    throw new InputError(source, place, `must be a non-empty list of at most ${MAX_GROUP} rewards`);
  }
  for (let k = 0; k < value.length; k++) {
    const r: unknown = value[k];
    if (typeof r !== 'number' || !Number.isFinite(r) || r < 0 || r > 1) {
      throw new InputError(source, `${place}[${k}]`, `reward must be a finite number in [0, 1], got ${showValue(r)}`);
    }
  }
  return value as number[];
}

/** Flags: one boolean per rollout. */
export function checkFlags(value: unknown, count: number, source: string, place: string): boolean[] {
  if (!Array.isArray(value) || value.length !== count)
    throw new InputError(source, place, `must be a list of ${count} booleans (one per rollout)`);
  for (let k = 0; k < value.length; k++) {
    if (typeof value[k] !== 'boolean') throw new InputError(source, `${place}[${k}]`, `must be true or false, got ${showValue(value[k])}`);
  }
  return value as boolean[];
}

/** A task id known to the graph, as its index. */
export function checkTask(value: unknown, taskIndex: ReadonlyMap<string, number>, source: string, place: string): number {
  if (typeof value !== 'string') throw new InputError(source, place, `must be a task id string, got ${showValue(value)}`);
  const index = taskIndex.get(value);
  if (index === undefined) throw new InputError(source, place, `unknown task id ${JSON.stringify(value).slice(0, 80)} (not in the graph)`);
  return index;
}

/** An observation of `step` from its task, rewards and optional flags; `at(field)` names each field. */
export function readObservation(
  step: number,
  raw: { task?: unknown; rewards?: unknown; flags?: unknown },
  taskIndex: ReadonlyMap<string, number>,
  source: string,
  at: (field: string) => string,
): Observation {
  const task = checkTask(raw.task, taskIndex, source, at('task'));
  const rewards = checkRewards(raw.rewards, source, at('rewards'));
  const observation: Observation = { step, task, rewards };
  if (raw.flags !== undefined) observation.flags = checkFlags(raw.flags, rewards.length, source, at('flags'));
  return observation;
}
