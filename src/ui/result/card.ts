// The result card's figures (plain TypeScript, tested in Node): for configuration A against B,
// at seeds S..S+n-1, the differences a lecturer wants to show, each with the 95% band of the mean
// across seeds (src/sweep/stats.ts). Every figure is computed from the individual runs' own
// figures (PointRun: the summary and the held-out curve of one `envsched simulate` run), and the
// per-seed values are kept so a test can recompute every band.
import type { Config } from '../../engine/types.ts';
import type { PointRun } from '../../sweep/point.ts';
import { pointStats, type PointStats } from '../../sweep/stats.ts';

export type CardMetric = 'envsPerBatch' | 'meanVariance' | 'heldoutFinal' | 'stepsToReach' | 'rolloutsToReach';

export const CARD_METRICS: readonly CardMetric[] = ['envsPerBatch', 'meanVariance', 'heldoutFinal', 'stepsToReach', 'rolloutsToReach'];

export const CARD_LABEL: Record<CardMetric, string> = {
  envsPerBatch: 'Environments per batch',
  meanVariance: 'Mean selected variance',
  heldoutFinal: 'Held-out score at the end',
  stepsToReach: 'Steps to B’s final held-out',
  rolloutsToReach: 'Rollouts to B’s final held-out',
};

/** One seed's pair of runs (A and B at the same seed). */
export interface SeedPair {
  seed: number;
  a: PointRun;
  b: PointRun;
}

export interface CardRow {
  metric: CardMetric;
  /** Per seed (in seed order): A's value, B's value and A − B (null: A never reached B's final score). */
  perSeed: { seed: number; a: number | null; b: number | null; diff: number | null }[];
  a: PointStats;
  b: PointStats;
  diff: PointStats;
}

/**
 * The first step (1-based count of steps run) at which a held-out curve reaches `target`; null
 * when it never does. B's own value is when B first reaches its final score (at most T).
 */
export function stepsToReach(heldout: readonly number[], target: number): number | null {
  const k = heldout.findIndex((h) => h >= target);
  return k < 0 ? null : k + 1;
}

/**
 * Rollouts spent after `steps` steps: the run's total rollouts over its steps, times `steps` (every
 * scheduler here pays B·K rollouts a step, except DAPO, whose cost per step varies: its figure is
 * then the run's average cost per step times the steps).
 */
export function rolloutsAt(run: PointRun, steps: number | null): number | null {
  if (steps === null || run.heldout.length === 0) return null;
  return (run.summary.rollouts / run.heldout.length) * steps;
}

function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

/** The two values (A, B) of one metric for one seed. */
export function seedValues(metric: CardMetric, pair: SeedPair): [number | null, number | null] {
  const { a, b } = pair;
  const target = b.summary.heldoutFinal;
  switch (metric) {
    case 'envsPerBatch':
      return [finite(a.summary.envsPerBatch), finite(b.summary.envsPerBatch)];
    case 'meanVariance':
      return [finite(a.summary.meanVariance), finite(b.summary.meanVariance)];
    case 'heldoutFinal':
      return [finite(a.summary.heldoutFinal), finite(b.summary.heldoutFinal)];
    case 'stepsToReach':
      return [stepsToReach(a.heldout, target), stepsToReach(b.heldout, target)];
    case 'rolloutsToReach':
      return [rolloutsAt(a, stepsToReach(a.heldout, target)), rolloutsAt(b, stepsToReach(b.heldout, target))];
  }
}

export function cardRows(pairs: readonly SeedPair[]): CardRow[] {
  const sorted = [...pairs].sort((x, y) => x.seed - y.seed);
  return CARD_METRICS.map((metric) => {
    const perSeed = sorted.map((pair) => {
      const [a, b] = seedValues(metric, pair);
      return { seed: pair.seed, a, b, diff: a !== null && b !== null ? a - b : null };
    });
    return {
      metric,
      perSeed,
      a: pointStats(perSeed.map((p) => p.a)),
      b: pointStats(perSeed.map((p) => p.b)),
      diff: pointStats(perSeed.map((p) => p.diff)),
    };
  });
}

/** Mean held-out curve across seeds with its 95% band per step (x: step, or rollouts spent). */
export function heldoutBand(runs: readonly PointRun[]): { step: number; rollouts: number; mean: number; lo: number; hi: number }[] {
  if (runs.length === 0) return [];
  const T = Math.min(...runs.map((r) => r.heldout.length));
  const perStep = runs.reduce((s, r) => s + r.summary.rollouts / Math.max(1, r.heldout.length), 0) / runs.length;
  return Array.from({ length: T }, (_, t) => {
    const st = pointStats(runs.map((r) => r.heldout[t]));
    return { step: t, rollouts: perStep * (t + 1), mean: st.mean ?? NaN, lo: st.lo ?? st.mean ?? NaN, hi: st.hi ?? st.mean ?? NaN };
  });
}

/** The executor the card runs on (the browser's sweep worker pool; an in-process one in tests). */
export interface CardExecutor {
  run(request: { config: Config }): Promise<PointRun>;
  /** Stops the runs in flight (their promises reject) and frees the workers. */
  terminate(): void;
}

export interface CardProgress {
  pairs: SeedPair[];
  /** Seeds wanted in total. */
  seeds: number;
  done: boolean;
}

/**
 * Runs A and B at seeds S..S+n-1, a pair at a time in seed order (both runs of a seed are in flight
 * together), and reports after every finished pair, so the bands appear after two seeds and
 * tighten as results arrive. An aborted signal stops it before the next pair (runs already in
 * flight finish in their workers and are dropped).
 */
export async function runCard(
  executor: CardExecutor,
  a: Config,
  b: Config,
  seeds: number,
  signal: AbortSignal,
  onProgress: (progress: CardProgress) => void,
): Promise<void> {
  const pairs: SeedPair[] = [];
  for (let k = 0; k < seeds; k++) {
    if (signal.aborted) return;
    const seed = (a.seed + k) >>> 0;
    const [ra, rb] = await Promise.all([
      executor.run({ config: { ...a, seed } }),
      executor.run({ config: { ...b, seed: (b.seed + k) >>> 0 } }),
    ]);
    if (signal.aborted) return;
    pairs.push({ seed, a: ra, b: rb });
    onProgress({ pairs: [...pairs], seeds, done: k === seeds - 1 });
  }
}
