// The history as of step t (SPEC 2): only groups observed at s < t, indexed by task and by step.
import type { Observation, StatTriple } from '../engine/types.ts';
import { ascending, groupStats } from './formulas.ts';

/** One rollout group with its SPEC 2 statistics. */
export interface ObservedGroup {
  step: number;
  task: number;
  rewards: readonly number[];
  flags?: readonly boolean[];
  stats: StatTriple;
}

export interface HistoryIndex {
  /** The step being scheduled: only observations with s < t are in here. */
  t: number;
  /** Per task, H_t(i) in step ascending order. */
  byTask: ObservedGroup[][];
  /** The steps s < t that have at least one observation, ascending. */
  steps: number[];
  /** Per step of `steps`, its groups by task index ascending. */
  byStep: Map<number, ObservedGroup[]>;
}

/** SPEC 12: the default step is one past the last step of the history (0 for an empty history). */
export function defaultStep(observations: readonly Observation[]): number {
  let last = -1;
  for (const o of observations) last = Math.max(last, o.step);
  return last + 1;
}

/** Indexes the observations with s < t. Refuses a task observed twice in one step (SPEC 2). */
export function indexHistory(observations: readonly Observation[], nTasks: number, t: number): HistoryIndex {
  const byTask: ObservedGroup[][] = [];
  for (let i = 0; i < nTasks; i++) byTask.push([]);
  const byStep = new Map<number, ObservedGroup[]>();
  for (const o of observations) {
    if (!Number.isInteger(o.task) || o.task < 0 || o.task >= nTasks) {
      throw new Error(`observation for task index ${o.task} is outside the pool of ${nTasks} tasks`);
    }
    if (!Number.isInteger(o.step) || o.step < 0) throw new Error(`observation step ${o.step} is not a non-negative integer`);
    if (o.step >= t) continue; // SPEC 0: the batch for step t uses the history of steps s < t only
    const group: ObservedGroup = { step: o.step, task: o.task, rewards: o.rewards, stats: groupStats(o.rewards) };
    if (o.flags) group.flags = o.flags;
    byTask[o.task].push(group);
    const atStep = byStep.get(o.step);
    if (atStep) atStep.push(group);
    else byStep.set(o.step, [group]);
  }
  for (const groups of byTask) {
    groups.sort((a, b) => a.step - b.step);
    for (let k = 1; k < groups.length; k++) {
      if (groups[k].step === groups[k - 1].step) {
        throw new Error(`task index ${groups[k].task} is observed twice at step ${groups[k].step} (SPEC 2: at most once per step)`);
      }
    }
  }
  for (const groups of byStep.values()) groups.sort((a, b) => a.task - b.task);
  const steps = [...byStep.keys()].sort(ascending);
  return { t, byTask, steps, byStep };
}

/** SPEC 2: task i is observed at t when H_t(i) is non-empty. */
export function isObserved(history: HistoryIndex, task: number): boolean {
  return history.byTask[task].length > 0;
}

/** True when task i was observed (selected) at step s. */
export function wasSelectedAt(history: HistoryIndex, task: number, s: number): boolean {
  return history.byTask[task].some((g) => g.step === s);
}
