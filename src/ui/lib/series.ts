// The series of the step charts, built from the lanes' streamed steps.
import type { StepRecord } from '../../worker/api.ts';

export interface Series {
  label: string;
  colour: string;
  points: { x: number; y: number }[];
  /** The lane's run: a chart appends to its dataset while this stays the same, and replaces it otherwise. */
  run: number;
  dash?: number[];
  faint?: boolean;
}

export function pointsOf(steps: readonly StepRecord[], value: (s: StepRecord) => number | null): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  for (const s of steps) {
    const y = value(s);
    out.push({ x: s.metrics.step, y: y === null || !Number.isFinite(y) ? NaN : y });
  }
  return out;
}

/**
 * Points of one metric of one lane, extended as steps stream in instead of rebuilt at every flush
 * (a lane's steps only ever grow within a run; a new run starts a new array). Returns a new array
 * object when points were added, so Svelte and Chart.js see the change.
 */
export class PointsCache {
  private readonly entries = new Map<string, { runId: number; points: { x: number; y: number }[] }>();

  get(key: string, runId: number, steps: readonly StepRecord[], value: (s: StepRecord) => number | null): { x: number; y: number }[] {
    const entry = this.entries.get(key);
    if (!entry || entry.runId !== runId || entry.points.length > steps.length) {
      const points = pointsOf(steps, value);
      this.entries.set(key, { runId, points });
      return points;
    }
    if (entry.points.length === steps.length) return entry.points;
    const points = entry.points.concat(pointsOf(steps.slice(entry.points.length), value));
    entry.points = points;
    return points;
  }
}
