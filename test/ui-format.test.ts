// Numbers and labels as the views print them.
import { describe, expect, it } from 'vitest';
import { fmt, fmtFixed, wrapWords } from '../src/ui/lib/format.ts';
import { METRIC_LABELS } from '../src/sweep/definition.ts';

describe('view formatting', () => {
  it('prints the rounding residue of an exact zero as 0 (coverage-only median variance was 3.08e-33)', () => {
    expect(fmt(3.08e-33, 4)).toBe('0');
    expect(fmt(-1e-17, 4)).toBe('0');
    expect(fmt(2.5e-4, 4)).toBe('2.50e-4');
    expect(fmt(0.0429, 4)).toBe('0.0429');
  });

  it('keeps trailing zeros where figures are read side by side (a quarter series, a mean beside its band)', () => {
    expect(fmt(0.045, 4)).toBe('0.045');
    expect(fmtFixed(0.045, 4)).toBe('0.0450');
    expect(fmtFixed(30, 2)).toBe('30.00');
    expect(fmtFixed(3.08e-33, 4)).toBe('0');
    expect(fmtFixed(-0.004, 2)).toBe('0.00'); // a difference too small to show has no sign
    expect(fmtFixed(-0.006, 2)).toBe('-0.01');
    expect(fmtFixed(null)).toBe('–');
  });

  it('wraps the sweep’s long metric names so the y axis title is not cut off', () => {
    const lines = wrapWords(METRIC_LABELS.auc, 26);
    expect(lines.join(' ')).toBe(METRIC_LABELS.auc);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(26);
  });
});
