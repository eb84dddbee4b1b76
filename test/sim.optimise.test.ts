// The calibration's optimisers (src/sim/optimise.ts): CMA-ES finds the minimum of an
// ill-conditioned, rotated quadratic and of Rosenbrock's valley in nine dimensions (the number of
// free world parameters), from its seed alone; Nelder-Mead keeps the behaviour the first four fits
// ran with; the unit-cube reflection maps every real into the box.
import { describe, expect, it } from 'vitest';
import { cmaes, nelderMead, reflectUnit, symmetricEigen } from '../src/sim/optimise.ts';

const N = 9;
const target = Array.from({ length: N }, (_, j) => 0.15 + 0.08 * j);
/** A quadratic with condition number 1e4 whose axes are rotated away from the coordinates. */
function rotatedEllipsoid(x: number[]): number {
  let s = 0;
  for (let i = 0; i < N; i++) {
    let r = 0;
    for (let j = 0; j <= i; j++) r += x[j] - target[j]; // a lower-triangular rotation-and-shear
    s += 10 ** ((4 * i) / (N - 1)) * r * r;
  }
  return s;
}
function rosenbrock(x: number[]): number {
  let s = 0;
  for (let i = 0; i < N - 1; i++) {
    const a = 4 * x[i] - 1;
    const b = 4 * x[i + 1] - 1;
    s += 100 * (b - a * a) ** 2 + (1 - a) ** 2;
  }
  return s;
}

describe('CMA-ES', () => {
  it('finds the minimum of a rotated, ill-conditioned quadratic in nine dimensions', async () => {
    const { best, evals } = await cmaes(rotatedEllipsoid, new Array<number>(N).fill(0.5), { sigma0: 0.2, budget: 4000, seed: 1 });
    expect(best.y).toBeLessThan(1e-8);
    best.x.forEach((v, j) => expect(v).toBeCloseTo(target[j], 4));
    expect(evals).toBeLessThanOrEqual(4000 + 10);
  });

  it('follows the curved valley of Rosenbrock’s function to its minimum', async () => {
    const { best } = await cmaes(rosenbrock, new Array<number>(N).fill(0.1), { sigma0: 0.1, budget: 12000, seed: 3 });
    expect(best.y).toBeLessThan(1e-6);
    best.x.forEach((v) => expect(v).toBeCloseTo(0.5, 3));
  });

  it('never ends worse than its start', async () => {
    const start = target.map((v) => v + 1e-4);
    const { best } = await cmaes(rotatedEllipsoid, start, { sigma0: 0.3, budget: 21, seed: 1 });
    expect(best.y).toBeLessThanOrEqual(rotatedEllipsoid(start));
  });

  it('gives the same fit from the same seed, and another from another seed', async () => {
    const run = (seed: number) => cmaes(rotatedEllipsoid, new Array<number>(N).fill(0.5), { sigma0: 0.2, budget: 200, seed });
    const [a, b, c] = await Promise.all([run(5), run(5), run(6)]);
    expect(a.best).toEqual(b.best);
    expect(c.best.x).not.toEqual(a.best.x);
  });

  it('accepts an async objective and reports every generation', async () => {
    const seen: number[] = [];
    const f = async (x: number[]) => rotatedEllipsoid(x);
    const { evals } = await cmaes(f, new Array<number>(N).fill(0.5), {
      sigma0: 0.2,
      budget: 50,
      seed: 1,
      lambda: 10,
      onGeneration: (g) => seen.push(g.evals),
    });
    expect(seen).toEqual([11, 21, 31, 41, 51]); // the start, then whole generations
    expect(evals).toBe(51);
  });
});

describe('Nelder-Mead', () => {
  it('minimises a quadratic within its budget', async () => {
    const f = (x: number[]) => x.reduce((s, v, j) => s + (v - target[j]) ** 2, 0);
    const { best, evals } = await nelderMead(f, new Array<number>(N).fill(0.5), 2000);
    expect(best.y).toBeLessThan(1e-6);
    expect(evals).toBeGreaterThanOrEqual(2000);
  });
});

describe('the helpers', () => {
  it('reflects any real into the unit interval', () => {
    expect([0.2, 1.2, -0.2, 2.3, -1.7, 1].map((x) => Number(reflectUnit(x).toFixed(12)))).toEqual([0.2, 0.8, 0.2, 0.3, 0.3, 1]);
  });

  it('decomposes a symmetric matrix into its eigenvalues and orthonormal eigenvectors', () => {
    const c = [
      [4, 1, 0.5],
      [1, 3, 0.2],
      [0.5, 0.2, 1],
    ];
    const { values, vectors } = symmetricEigen(c);
    for (let k = 0; k < 3; k++) {
      const v = vectors.map((row) => row[k]);
      const cv = c.map((row) => row.reduce((s, x, j) => s + x * v[j], 0));
      cv.forEach((x, i) => expect(x).toBeCloseTo(values[k] * v[i], 10));
      expect(v.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 12);
    }
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(8, 10);
  });
});
