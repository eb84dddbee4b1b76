// The paper's figures beside the result card's rows. Per-scheduler statistics come from the one
// table the reproduce command keeps (src/sim/reproduce.ts, PAPER); the headline rollout figure
// (Figure 1) is not a per-scheduler statistic and is kept here.
import { PAPER } from '../../sim/reproduce.ts';
import type { CardMetric } from './card.ts';

/** Figure 1: EnvSched after 40 steps is above random's best within 120 steps (the same rollouts per step). */
export const PAPER_STEPS_TO_RANDOM_BEST = { envsched: 40, random: 120 } as const;

const KEY: Partial<Record<CardMetric, 'meanVariance' | 'envsPerBatch'>> = { meanVariance: 'meanVariance', envsPerBatch: 'envsPerBatch' };

/** The paper's value of `metric` for a scheduler, when the paper reports one (null otherwise). */
export function paperValue(metric: CardMetric, scheduler: string): number | null {
  const key = KEY[metric];
  if (key) return PAPER[scheduler]?.[key] ?? null;
  if (metric === 'stepsToReach' && (scheduler === 'envsched' || scheduler === 'random')) return PAPER_STEPS_TO_RANDOM_BEST[scheduler];
  return null;
}
