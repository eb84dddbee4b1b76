// The paper's figures beside the result card's rows, from the simulator's one table of them
// (src/sim/paper.ts): Tables 2 and 3(a) per scheduler, and Figure 1's step counts.
import { DEFAULT_CONFIG } from '../../engine/config.ts';
import type { Config } from '../../engine/types.ts';
import { PAPER_FIGURE1, PAPER_ROWS } from '../../sim/paper.ts';
import type { CardMetric } from './card.ts';

/**
 * Whether a configuration runs the setup the paper's figures describe: its pool (envscaler-rl)
 * with B = 64 and K = 8, the contract's defaults. On another pool or batch size the paper's
 * environments per batch (45.96 of 51) or variance say nothing about the run.
 */
export function paperSetup(config: Pick<Config, 'dataset' | 'B' | 'K'>): boolean {
  return config.dataset === DEFAULT_CONFIG.dataset && config.B === DEFAULT_CONFIG.B && config.K === DEFAULT_CONFIG.K;
}

const KEY: Partial<Record<CardMetric, 'meanVariance' | 'envsPerBatch'>> = { meanVariance: 'meanVariance', envsPerBatch: 'envsPerBatch' };

/**
 * The paper's value of `metric` for a scheduler, when the paper reports one (null otherwise). The
 * steps row shows Figure 1 (EnvSched after 40 steps is above random's best of 120 steps): a
 * different target than B's final score, and labelled as the paper's.
 */
export function paperValue(metric: CardMetric, scheduler: string): number | null {
  const key = KEY[metric];
  if (key) return PAPER_ROWS[scheduler]?.[key] ?? null;
  if (metric === 'stepsToReach')
    return scheduler === 'envsched' ? PAPER_FIGURE1.envschedSteps : scheduler === 'random' ? PAPER_FIGURE1.randomSteps : null;
  return null;
}
