// Figure 4 of the paper is in words only: over training the selected groups' variance declines for
// both random and EnvSched, EnvSched's stays above random's for most of the steps, and its coverage
// stays stable. The checks read it as quarter-to-quarter changes of the seed-mean curves
// (docs/calibration.md, "Checks").
import { describe, expect, it } from 'vitest';
import { quarterChange, quarterMeans, shareAbove } from '../src/sim/checks.ts';

describe('Figure 4 readings', () => {
  it('a curve is split into four quarters of steps; the change is the last minus the first', () => {
    const curve = Array.from({ length: 200 }, (_, t) => (t < 50 ? 0.04 : t < 150 ? 0.035 : 0.03));
    const q = quarterMeans(curve)!;
    [0.04, 0.035, 0.035, 0.03].forEach((x, k) => expect(q[k]).toBeCloseTo(x, 12));
    expect(quarterChange(curve)).toBeCloseTo(-0.01, 12);
  });

  it('a rising or flat curve does not decline', () => {
    expect(quarterChange(Array.from({ length: 40 }, (_, t) => 0.03 + t * 1e-5))).toBeGreaterThan(0);
    expect(quarterChange(new Array(40).fill(0.03))).toBe(0);
  });

  it('too short a run has no quarters to compare', () => {
    expect(quarterMeans([0.1, 0.2, 0.3])).toBeNull();
    expect(quarterChange(undefined)).toBeNull();
  });

  it('"above for most steps" counts the steps where one curve is strictly above the other', () => {
    expect(shareAbove([3, 2, 1, 5], [1, 2, 3, 4])).toBe(0.5);
    expect(shareAbove([1, 2], [1, 2, 3])).toBeNull();
  });
});
