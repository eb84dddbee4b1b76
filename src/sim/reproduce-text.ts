// What `envsched reproduce` prints: the tables as text, or one JSON object (--json).
import { quarterMeans } from './checks.ts';
import { worldChangesText } from './model-params.ts';
import type { PaperRow } from './paper.ts';
import { HELDOUT_STEPS, ROLLOUT_SHARES, type ReproduceResult, type ReproduceRow } from './reproduce.ts';

function fmt(x: number | null | undefined, digits: number): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(digits);
}

type Stat = 'meanVariance' | 'medianVariance' | 'medianReward' | 'envsPerBatch' | 'toolsPerBatch';

/** Whether a simulated statistic agrees with the paper's (the tolerances of docs/calibration.md). */
export function agrees(stat: Stat, simulated: number, paper: number): boolean {
  switch (stat) {
    case 'meanVariance':
      return Math.abs(simulated - paper) <= 0.15 * paper;
    case 'medianVariance':
      return Math.abs(simulated - paper) <= 0.3 * paper;
    case 'medianReward':
      return Math.abs(simulated - paper) <= 0.05;
    case 'envsPerBatch':
      return Math.abs(simulated - paper) <= 2;
    case 'toolsPerBatch':
      return Math.abs(simulated - paper) <= 0.1 * paper;
  }
}

const STATS: readonly [Stat, string, number][] = [
  ['meanVariance', 'meanVar', 4],
  ['medianVariance', 'medVar', 4],
  ['medianReward', 'medReward', 3],
  ['envsPerBatch', 'envs/batch', 2],
  ['toolsPerBatch', 'tools/batch', 1],
];

/** "sim (paper mark)": the paper's figure and agree (=) / disagree (x) beside the simulated one. */
function cell(row: ReproduceRow, paper: PaperRow | undefined, stat: Stat, digits: number): string {
  const p = paper?.[stat];
  return p === undefined
    ? `${fmt(row[stat], digits)}`
    : `${fmt(row[stat], digits)} (${fmt(p, digits)} ${agrees(stat, row[stat], p) ? '=' : 'x'})`;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const line = (cells: string[]) => cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join('  ');
  return [line(header), ...rows.map(line)];
}

function gainShare(result: ReproduceResult, row: ReproduceRow, random: ReproduceRow | undefined): string {
  if (!random) return '-';
  const T = result.steps;
  const g = random.heldoutCurve[T] - random.heldoutCurve[0];
  return g === 0 ? '-' : fmt((row.heldoutCurve[T] - random.heldoutCurve[T]) / g, 2);
}

function paperGainShare(result: ReproduceResult, scheduler: string): string {
  const p = result.paper.rows[scheduler]?.benchmarkMean;
  const r = result.paper.rows.random?.benchmarkMean;
  return p === undefined || r === undefined ? '-' : fmt((p - r) / (r - result.paper.base), 2);
}

export function reproduceTable(result: ReproduceResult): string {
  const random = result.rows.find((r) => r.scheduler === 'random');
  const shares = ROLLOUT_SHARES.map((s) => `${s * 100}%`);
  const main = table(
    [
      'scheduler',
      ...STATS.map(([, label]) => label),
      'rollouts',
      ...HELDOUT_STEPS.map((s) => `held@${s}`),
      'gain vs rnd (paper)',
      'steps->rnd best',
      'rollouts->rnd best',
      ...shares.map((s) => `held@${s} rnd rollouts`),
    ],
    result.rows.map((r) => [
      r.scheduler,
      ...STATS.map(([stat, , digits]) => cell(r, result.paper.rows[r.scheduler], stat, digits)),
      fmt(r.rollouts, 0),
      ...HELDOUT_STEPS.map((s) => fmt(r.heldout[String(s)], 2)),
      `${gainShare(result, r, random)} (${paperGainShare(result, r.scheduler)})`,
      r.stepsToRandomBest === null ? 'never' : String(r.stepsToRandomBest),
      r.rolloutsToRandomBest === null ? 'never' : fmt(r.rolloutsToRandomBest, 0),
      ...shares.map((s) => fmt(r.heldoutAtRollouts[s], 2)),
    ]),
  );
  const t3b =
    result.table3b.length > 0
      ? table(
          ['K_within', 'K_cross', 'meanVar', 'medVar', 'envs/batch', 'tools/batch', `held@${result.steps}`, 'steps->rnd best'],
          result.table3b.map((r) => [
            String(r.K_within),
            String(r.K_cross),
            fmt(r.meanVariance, 4),
            fmt(r.medianVariance, 4),
            fmt(r.envsPerBatch, 2),
            fmt(r.toolsPerBatch, 1),
            fmt(r.heldoutCurve[result.steps], 2),
            r.stepsToRandomBest === null ? 'never' : String(r.stepsToRandomBest),
          ]),
        )
      : [];
  const t4 = result.table4;
  const t4rows = (steps: typeof t4.steps) =>
    steps.map((s) => [String(s.step), fmt(s.meanVariance, 4), fmt(s.cumulativeVariance, 4), fmt(s.hitRate, 3)]);
  const p4 = result.paper.table4;
  const t4table =
    t4.runs > 0
      ? table(
          ['step', 'batch var', 'cumul. var', 'hit rate', 'low-q batch var', 'low-q hit', 'high-q batch var', 'high-q hit', 'top-q hit'],
          t4rows(t4.steps).map((row, k) => [
            ...row,
            fmt(t4.lowQuartile[k]?.meanVariance, 4),
            fmt(t4.lowQuartile[k]?.hitRate, 3),
            fmt(t4.highQuartile[k]?.meanVariance, 4),
            fmt(t4.highQuartile[k]?.hitRate, 3),
            fmt(t4.steps[k].predictionHitRate, 3),
          ]),
        )
      : [];
  const checks = table(
    ['kind', 'what', 'target', 'tolerance', 'simulated', 'verdict'],
    result.checks.map((c) => [c.kind, c.what, c.target, c.tolerance, fmt(c.simulated, 4), c.verdict === 'fail' ? 'FAIL' : c.verdict]),
  );
  const passed = result.checks.filter((c) => c.kind === 'check' && c.verdict === 'pass').length;
  const counted = result.checks.filter((c) => c.kind === 'check' && c.verdict !== 'not measured').length;
  return [
    `dataset ${result.dataset}, ${result.steps} steps, averaged over ${result.seeds} seed(s); untrained held-out score ${fmt(result.base, 2)}`,
    worldLine(result.world),
    'Tables 2 and 3(a): simulated (paper, "=" agrees within the tolerance of docs/calibration.md, "x" does not); "gain vs rnd" = (held-out - random\'s) / random\'s gain over the untrained policy, the paper\'s from the mean of its three benchmarks',
    ...main,
    '',
    ...(t3b.length > 0
      ? ['Table 3(b): EnvSched with K_within / K_cross halved or doubled (no paper figures here: a validation case)', ...t3b, '']
      : []),
    ...(t4table.length > 0
      ? [
          `Table 4: ${t4.runs} runs, step 0 a random cold-start batch, steps 1-${t4.steps.length - 1} EnvSched; quartiles by the step-0 batch's variance. Paper: step 1 ${p4.step1.meanVariance} / ${p4.step1.cumulativeVariance} / ${p4.step1.hitRate}; step 7 ${p4.step7.meanVariance} / ${p4.step7.cumulativeVariance} / ${p4.step7.hitRate}`,
          ...t4table,
          t4.step7HitRange
            ? `step-7 hit rate 5th-95th percentile over runs: ${fmt(t4.step7HitRange[0], 3)}-${fmt(t4.step7HitRange[1], 3)} (paper ${p4.step7.hitRateP5}-1.000)`
            : '',
          "top-q hit: the same share for the step's highest priorities q, as many as its exploitation picks, before the exposure discount, the similarity penalty and the caps (not a paper figure: how good the prediction itself is)",
          '',
        ]
      : []),
    ...figure4Lines(result),
    ...(result.envScaling.length > 0
      ? [
          `Environment scaling (random training on the first n environments): ${result.envScaling.map((p) => `${p.envs}: gain ${fmt(p.gain, 2)} (${fmt(p.share, 2)})`).join(', ')}`,
          '',
        ]
      : []),
    `Fit targets (re-measured on these seeds; the fit used others) and checks (never fitted): ${passed} of ${counted} checks pass`,
    ...checks,
    '',
  ].join('\n');
}

/** Figure 4 (in words in the paper): the selected groups' variance and EnvSched's coverage, quarter by quarter. */
function figure4Lines(result: ReproduceResult): string[] {
  const row = (s: string) => result.rows.find((r) => r.scheduler === s);
  const quarters = (curve: readonly number[] | undefined, digits: number) =>
    quarterMeans(curve)
      ?.map((x) => fmt(x, digits))
      .join(' / ') ?? '-';
  if (!row('random') || !row('envsched')) return [];
  return [
    'Figure 4 (the paper, in words: variance declines over training for both, EnvSched above random for most steps, coverage stable); means over the four quarters of the run:',
    `  selected-group variance: random ${quarters(row('random')?.varianceCurve, 4)}; EnvSched ${quarters(row('envsched')?.varianceCurve, 4)}`,
    `  EnvSched's environments per batch: ${quarters(row('envsched')?.envsCurve, 2)}`,
    '',
  ];
}

/** The `--json` object (fingerprints included: they identify the runs). */
/** Which world the figures come from: the checks' tolerances were written for the calibrated one. */
export function worldLine(world: ReproduceResult['world']): string {
  const changes = worldChangesText(world);
  if (changes === '') return 'world: the calibrated defaults (docs/calibration.md)';
  return `world: the calibrated defaults except ${changes} (the verdicts below describe this world, not the calibrated one)`;
}

export function reproduceJson(result: ReproduceResult): string {
  return `${JSON.stringify(result, null, 1)}\n`;
}
