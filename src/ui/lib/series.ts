// The series of the step charts, built from the lanes' streamed steps.
import type { StepRecord } from '../../worker/api.ts';

export interface Series {
  label: string;
  colour: string;
  points: { x: number; y: number }[];
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
