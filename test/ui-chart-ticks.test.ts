// The step charts' tick labels (src/ui/lib/charts.ts): printed like Chart.js's default (grouped
// thousands, the decimals the tick spacing needs) without building an Intl.NumberFormat.
import { describe, expect, it } from 'vitest';
import { tickCallback, tickLabel } from '../src/ui/lib/charts.ts';

describe('tickLabel', () => {
  it('prints grouped thousands and just the decimals of the spacing', () => {
    expect(tickLabel(150000, 50000)).toBe('150,000');
    expect(tickLabel(1234567.5, 0.5)).toBe('1,234,567.5');
    expect(tickLabel(0.075, 0.025)).toBe('0.075');
    expect(tickLabel(0.05, 0.025)).toBe('0.050');
    expect(tickLabel(0.4, 0.2)).toBe('0.4');
    expect(tickLabel(55, 5)).toBe('55');
    expect(tickLabel(-1500, 500)).toBe('-1,500');
    expect(tickLabel(-0, 0.5)).toBe('0');
  });
});

describe('tickCallback', () => {
  it('labels the last step of the x axis (a bound) with the spacing of the round ticks', () => {
    const ticks = [0, 50, 100, 150, 199].map((value) => ({ value }));
    expect(ticks.map((t, k) => tickCallback(t.value, k, ticks))).toEqual(['0', '50', '100', '150', '199']);
    const y = [0, 0.025, 0.05, 0.075].map((value) => ({ value }));
    expect(y.map((t, k) => tickCallback(t.value, k, y))).toEqual(['0', '0.025', '0.050', '0.075']);
  });
});
