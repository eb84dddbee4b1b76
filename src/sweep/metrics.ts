// The metrics a sweep summarises, read from one run and, for "steps to reach random's
// best", from the random scheduler's run with the same seed, batch size, rollouts and steps.
import type { SweepMetric } from './definition.ts';
import type { PointRun } from './point.ts';

/** Mean of the per-step held-out curve: the area under it divided by the number of steps (rectangle rule, one value per step after its learning). */
export function heldoutAuc(run: PointRun): number | null {
  if (run.heldout.length === 0) return null;
  let s = 0;
  for (const h of run.heldout) s += h;
  const auc = s / run.heldout.length;
  return Number.isFinite(auc) ? auc : null;
}

/**
 * The 1-based step at which the run's held-out curve first reaches the best value of random's curve
 * (same seed); null when it never does. Same rule as `envsched reproduce` (src/sim/reproduce.ts),
 * applied per seed rather than to seed-averaged curves, so that it has a spread across seeds.
 */
export function stepsToReach(run: PointRun, reference: PointRun): number | null {
  if (reference.heldout.length === 0) return null;
  const best = reference.heldout.reduce((a, b) => Math.max(a, b), -Infinity);
  const k = run.heldout.findIndex((h) => h >= best);
  return k < 0 ? null : k + 1;
}

function finite(x: number | null): number | null {
  return x !== null && Number.isFinite(x) ? x : null;
}

export function metricValue(metric: SweepMetric, run: PointRun, reference: PointRun | undefined): number | null {
  switch (metric) {
    case 'final':
      return finite(run.summary.heldoutFinal);
    case 'auc':
      return heldoutAuc(run);
    case 'steps_to_random_best':
      return reference ? stepsToReach(run, reference) : null;
    case 'mean_variance':
      return finite(run.summary.meanVariance);
    case 'envs_per_batch':
      return finite(run.summary.envsPerBatch);
    case 'tools_per_batch':
      return finite(run.summary.toolsPerBatch);
  }
}
