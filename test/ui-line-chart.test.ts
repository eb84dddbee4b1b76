// The step charts' axis ticks (src/ui/lib/line-chart.ts): round values that cover the data, few
// enough to read, labelled like Chart.js (grouped thousands, the decimals the step needs).
import { describe, expect, it } from 'vitest';
import { niceTicks, tickLabel } from '../src/ui/lib/line-chart.ts';

describe('niceTicks', () => {
  it('covers the data with round steps and at most the asked number of ticks', () => {
    expect(niceTicks(0, 199, 6)).toEqual([0, 50, 100, 150, 200]);
    expect(niceTicks(31.2, 58.7, 5)).toEqual([30, 40, 50, 60]);
    expect(niceTicks(0.004, 0.081, 5)).toEqual([0, 0.025, 0.05, 0.075, 0.1]);
    expect(niceTicks(512, 102400, 5)).toEqual([0, 50000, 100000, 150000]);
    for (const [lo, hi, n] of [[0.1, 0.9, 5], [-3, 7, 6], [45.1, 56.9, 5], [1e-7, 3e-7, 4]] as const) {
      const t = niceTicks(lo, hi, n);
      expect(t.length).toBeLessThanOrEqual(n);
      expect(t[0]).toBeLessThanOrEqual(lo);
      expect(t[t.length - 1]).toBeGreaterThanOrEqual(hi);
    }
  });

  it('widens a flat series instead of dividing by zero, and gives nothing for no data', () => {
    expect(niceTicks(64, 64, 5).length).toBeGreaterThan(1);
    expect(niceTicks(0, 0, 5)).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(niceTicks(Infinity, -Infinity, 5)).toEqual([]);
  });
});

describe('tickLabel', () => {
  it('prints grouped thousands and just the decimals of the step', () => {
    expect(tickLabel(150000, 50000)).toBe('150,000');
    expect(tickLabel(0.075, 0.025)).toBe('0.075');
    expect(tickLabel(0.05, 0.025)).toBe('0.050');
    expect(tickLabel(0.4, 0.2)).toBe('0.4');
    expect(tickLabel(55, 5)).toBe('55');
  });
});
