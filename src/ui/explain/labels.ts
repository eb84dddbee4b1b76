// Short, readable names for tasks and environments on a projector.
import type { DatasetInfo } from '../../worker/api.ts';

/** "UsedCarTradeIn… · task_5": environment name (cut) and the task's own part of its id. */
export function taskLabel(ds: DatasetInfo | null, i: number, envChars = 14): string {
  const t = ds?.tasks[i];
  if (!t) return `#${i}`;
  const own = t.id.includes('-') ? t.id.slice(t.id.lastIndexOf('-') + 1) : t.id;
  const env = ds.envs[t.env]?.name ?? '';
  return `${env.length > envChars ? `${env.slice(0, envChars - 1)}\u2026` : env} \u00b7 ${own}`;
}

export function envLabel(ds: DatasetInfo | null, e: number, chars = 22): string {
  const name = ds?.envs[e]?.name ?? `env ${e}`;
  return name.length > chars ? `${name.slice(0, chars - 1)}\u2026` : name;
}

/** 1 -> "1st", 2 -> "2nd", 13 -> "13th". */
export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${s}`;
}
