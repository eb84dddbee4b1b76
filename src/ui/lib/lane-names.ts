// Lane names that say what differs ("A: ρ 0.5" / "B: ρ 1"), not "A: envsched / B: envsched".
import type { Config } from '../../engine/types.ts';
import { configDifferences } from '../state/url-state.ts';
import { SCHEDULER_LABELS } from '../state/knobs.ts';

const SHORT: Record<string, string> = {
  rho: 'ρ',
  lambda_sim: 'λ_sim',
  lambda_g: 'λ_g',
  lambda_s: 'λ_s',
  lambda_ridge: 'λ_ridge',
  eta_decline: 'η',
  kappa: 'κ',
  alpha: 'α',
};

export function schedulerName(scheduler: string): string {
  return SCHEDULER_LABELS[scheduler]?.replace(/ \(.*\)$/, '') ?? scheduler;
}

function part(key: string, value: string): string {
  if (key === 'scheduler') return schedulerName(value);
  return `${SHORT[key] ?? key} ${value}`;
}

/** The names of lanes A and B: by their differences (at most two listed, "+n" for the rest). */
export function laneNames(a: Config, b: Config | null): { a: string; b: string | null } {
  if (!b) return { a: `A: ${schedulerName(a.scheduler)}`, b: null };
  const diffs = configDifferences(a, b).filter((d) => d.key !== 'dataset');
  if (diffs.length === 0) return { a: 'A', b: 'B (same as A)' };
  const name = (side: 'a' | 'b') => {
    const shown = diffs.slice(0, 2).map((d) => part(d.key, d[side]));
    return shown.join(', ') + (diffs.length > 2 ? ` +${diffs.length - 2}` : '');
  };
  return { a: `A: ${name('a')}`, b: `B: ${name('b')}` };
}
