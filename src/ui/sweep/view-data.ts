// Pure helpers of the sweep views: chart series with bands, heatmap cells, the default marker.
import { knobDefault, type KnobValue, type SweepDefinition, type SweepKnob, type SweepMetric } from '../../sweep/definition.ts';
import type { SweepPointResult } from '../../sweep/runner.ts';

/** x position of a knob value: the number itself, or its index for scheduler names. */
export function xOf(knob: SweepKnob, value: KnobValue): number {
  return typeof value === 'number' ? value : knob.values.indexOf(value);
}

/** The knob's default (SPEC 11's, or the calibrated world's), as an x position; undefined when not on the axis range. */
export function defaultX(knob: SweepKnob): number | undefined {
  const d = knobDefault(knob.key);
  if (typeof d === 'string') return knob.values.includes(d) ? knob.values.indexOf(d) : undefined;
  const xs = knob.values as number[];
  return d >= Math.min(...xs) && d <= Math.max(...xs) ? d : undefined;
}

export interface LineSeries {
  mean: { x: number; y: number; point: number }[];
  lo: { x: number; y: number }[];
  hi: { x: number; y: number }[];
}

export function lineSeries(def: SweepDefinition, points: readonly SweepPointResult[], metric: SweepMetric): LineSeries {
  const knob = def.knobs[0];
  const sorted = [...points].sort((a, b) => xOf(knob, a.values[0]) - xOf(knob, b.values[0]));
  const out: LineSeries = { mean: [], lo: [], hi: [] };
  for (const p of sorted) {
    const s = p.metrics[metric]?.stats;
    if (!s || s.mean === null) continue;
    const x = xOf(knob, p.values[0]);
    out.mean.push({ x, y: s.mean, point: p.index });
    out.lo.push({ x, y: s.lo ?? s.mean });
    out.hi.push({ x, y: s.hi ?? s.mean });
  }
  return out;
}

export interface Cell {
  col: number;
  row: number;
  point: SweepPointResult | null;
  isDefault: boolean;
}

/** Heatmap cells: first knob = columns, second = rows (row 0 at the top). */
export function heatmapCells(def: SweepDefinition, points: readonly SweepPointResult[]): Cell[] {
  const [k1, k2] = def.knobs;
  const byIndex = new Map(points.map((p) => [p.index, p]));
  const cells: Cell[] = [];
  k2.values.forEach((v2, row) =>
    k1.values.forEach((v1, col) =>
      cells.push({
        col,
        row,
        point: byIndex.get(col + k1.values.length * row) ?? null,
        isDefault: knobDefault(k1.key) === v1 && knobDefault(k2.key) === v2,
      }),
    ),
  );
  return cells;
}

export function metricDigits(metric: SweepMetric): number {
  return metric === 'mean_variance' ? 4 : metric === 'steps_to_random_best' ? 1 : 2;
}
