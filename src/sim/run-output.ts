// A run's files: `run.json` (every step's metrics, the summary and the fingerprint) and `run.csv`
// (one row per step). Numbers are written with enough digits to round-trip a double.
import { worldChangesText } from './model-params.ts';
import type { RunResult } from './run.ts';

export function runToJson(result: RunResult): string {
  return `${JSON.stringify(result, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 1)}\n`;
}

const CSV_COLUMNS = [
  'step',
  'batchSize',
  'meanVariance',
  'medianVariance',
  'meanReward',
  'medianReward',
  'envs',
  'tools',
  'families',
  'rollouts',
  'exploitationPicks',
  'exploitationHits',
  'hitRate',
  'rankCorrelation',
  'heldoutOverall',
  'removals',
  'removedTotal',
  'progressExcluded',
  'relaxed',
] as const;

function cell(value: unknown): string {
  if (value === null || value === undefined || (typeof value === 'number' && !Number.isFinite(value))) return '';
  if (Array.isArray(value)) return value.join(' ');
  return String(value);
}

export function runToCsv(result: RunResult): string {
  const suites = result.suites.map((s) => `heldout:${s}`);
  const lines = [[...CSV_COLUMNS, ...suites].join(',')];
  for (const step of result.steps) {
    lines.push([...CSV_COLUMNS.map((c) => cell(step[c])), ...step.heldout.map((h) => cell(h))].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** A short human summary for the terminal. */
export function runSummaryText(result: RunResult): string {
  const s = result.summary;
  const f = (x: number | null, d = 4) => (x === null || !Number.isFinite(x) ? '-' : x.toFixed(d));
  return [
    `scheduler ${result.scheduler}, seed ${result.seed}, ${result.steps.length} steps on ${result.graphName || result.dataset}`,
    ...(Object.keys(result.world).length > 0 ? [`  world: the calibrated defaults except ${worldChangesText(result.world)}`] : []),
    `  reward variance of selected groups: mean ${f(s.meanVariance)}, median ${f(s.medianVariance)}`,
    `  group mean reward: mean ${f(s.meanReward, 3)}, median ${f(s.medianReward, 3)}`,
    `  per batch: ${f(s.envsPerBatch, 2)} environments, ${f(s.toolsPerBatch, 1)} tools, ${f(s.familiesPerBatch, 2)} operation families`,
    `  rollouts spent ${s.rollouts}; exploitation hit rate ${f(s.hitRate, 3)}; rank correlation (predicted vs true variance) ${f(s.meanRankCorrelation, 3)}`,
    `  held-out score: ${f(s.heldoutInitial, 2)} at the start, ${f(s.heldoutFinal, 2)} at the end (best ${f(s.heldoutBest, 2)})`,
    `  identifier-filter removals ${s.removed}`,
    `  fingerprint ${result.fingerprint}`,
    '',
  ].join('\n');
}
