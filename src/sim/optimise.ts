// The calibration's optimisers (scripts/calibrate.mjs, docs/calibration.md): Nelder-Mead, as the
// first four fits ran it, and CMA-ES (Hansen's (mu/mu_w, lambda) evolution strategy with rank-one
// and rank-mu updates and cumulative step-size adaptation, as in his tutorial's `purecma`). Both
// minimise a function of a point of the unit cube given through `reflectUnit`, so any real vector
// is a valid point and neither needs bound handling of its own. The objective may be async (each
// evaluation runs simulations). CMA-ES samples from the seeded PCG32 of src/pool/rng.ts, so a fit
// is reproducible from its seed.
import { Pcg32 } from '../pool/rng.ts';

export type Objective = (x: number[]) => number | Promise<number>;

export interface Evaluated {
  x: number[];
  y: number;
}

export interface OptimiseResult {
  /** The best point evaluated, and its value. */
  best: Evaluated;
  evals: number;
}

/** Maps any real into [0, 1] by reflection at the walls (0.2 -> 0.2, 1.2 -> 0.8, -0.2 -> 0.2). */
export function reflectUnit(x: number): number {
  const m = ((x % 2) + 2) % 2;
  return m <= 1 ? m : 2 - m;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Nelder-Mead with the standard coefficients and a fixed budget of evaluations. */
export async function nelderMead(f: Objective, x0: readonly number[], budget: number, step = 0.15): Promise<OptimiseResult> {
  const n = x0.length;
  let evals = 0;
  const ev = async (x: number[]): Promise<Evaluated> => {
    evals++;
    return { x, y: await f(x) };
  };
  const simplex = [await ev(x0.slice())];
  for (let j = 0; j < n; j++) {
    const x = x0.slice();
    x[j] += x[j] + step <= 1 ? step : -step;
    simplex.push(await ev(x));
  }
  const combo = (a: number[], b: number[], t: number) => a.map((v, j) => v + t * (b[j] - v));
  while (evals < budget) {
    simplex.sort((a, b) => a.y - b.y);
    const worst = simplex[n];
    const centroid = Array.from({ length: n }, (_, j) => mean(simplex.slice(0, n).map((p) => p.x[j])));
    const r = await ev(combo(centroid, worst.x, -1));
    if (r.y < simplex[0].y) {
      const e = await ev(combo(centroid, worst.x, -2));
      simplex[n] = e.y < r.y ? e : r;
    } else if (r.y < simplex[n - 1].y) {
      simplex[n] = r;
    } else {
      const c = r.y < worst.y ? await ev(combo(centroid, r.x, 0.5)) : await ev(combo(centroid, worst.x, 0.5));
      if (c.y < Math.min(r.y, worst.y)) simplex[n] = c;
      else {
        for (let k = 1; k <= n; k++) simplex[k] = await ev(combo(simplex[0].x, simplex[k].x, 0.5));
      }
    }
  }
  simplex.sort((a, b) => a.y - b.y);
  return { best: simplex[0], evals };
}

/** Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations: C = B diag(d) B^T. */
export function symmetricEigen(c: readonly number[][]): { values: number[]; vectors: number[][] } {
  const n = c.length;
  const a = c.map((row) => row.slice());
  const v: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] * a[p][q];
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const cos = 1 / Math.sqrt(t * t + 1);
        const sin = t * cos;
        for (let k = 0; k < n; k++) {
          const akp = a[k][p];
          const akq = a[k][q];
          a[k][p] = cos * akp - sin * akq;
          a[k][q] = sin * akp + cos * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p][k];
          const aqk = a[q][k];
          a[p][k] = cos * apk - sin * aqk;
          a[q][k] = sin * apk + cos * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k][p];
          const vkq = v[k][q];
          v[k][p] = cos * vkp - sin * vkq;
          v[k][q] = sin * vkp + cos * vkq;
        }
      }
    }
  }
  return { values: a.map((row, i) => row[i]), vectors: v };
}

export interface CmaesOptions {
  /** Initial step size (in the unit cube's coordinates). */
  sigma0: number;
  /** Evaluations in all (whole generations: the last one may overshoot by less than lambda). */
  budget: number;
  /** Seed of the sampler (PCG32 stream 7). */
  seed: number;
  /** Population size (default 4 + floor(3 ln n)). */
  lambda?: number;
  /** Called after every generation. */
  onGeneration?: (g: { generation: number; evals: number; best: Evaluated; sigma: number }) => void;
}

/** CMA-ES from x0; returns the best point it evaluated (x0 included: a fit never ends worse than its start). */
export async function cmaes(f: Objective, x0: readonly number[], options: CmaesOptions): Promise<OptimiseResult> {
  const n = x0.length;
  const rng = new Pcg32(options.seed, 7);
  const lambda = options.lambda ?? 4 + Math.floor(3 * Math.log(n));
  const mu = Math.floor(lambda / 2);
  const raw = Array.from({ length: mu }, (_, i) => Math.log(mu + 0.5) - Math.log(i + 1));
  const wSum = raw.reduce((a, b) => a + b, 0);
  const w = raw.map((x) => x / wSum);
  const mueff = 1 / w.reduce((a, b) => a + b * b, 0);
  const cc = (4 + mueff / n) / (n + 4 + (2 * mueff) / n);
  const cs = (mueff + 2) / (n + mueff + 5);
  const c1 = 2 / ((n + 1.3) ** 2 + mueff);
  const cmu = Math.min(1 - c1, (2 * (mueff - 2 + 1 / mueff)) / ((n + 2) ** 2 + mueff));
  const damps = 1 + 2 * Math.max(0, Math.sqrt((mueff - 1) / (n + 1)) - 1) + cs;
  const chiN = Math.sqrt(n) * (1 - 1 / (4 * n) + 1 / (21 * n * n));

  let xmean = x0.slice();
  let sigma = options.sigma0;
  let pc = new Array<number>(n).fill(0);
  let ps = new Array<number>(n).fill(0);
  let C: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  let B = C.map((row) => row.slice());
  let D = new Array<number>(n).fill(1);
  let best: Evaluated = { x: x0.slice(), y: await f(x0.slice()) };
  let evals = 1;
  let eigenAt = 0;
  const matVec = (m: number[][], x: number[]) => m.map((row) => row.reduce((s, v, j) => s + v * x[j], 0));
  const invSqrtCTimes = (y: number[]) => {
    // C^(-1/2) y = B diag(1/D) B^T y
    const bt = Array.from({ length: n }, (_, k) => B.reduce((s, row, i) => s + row[k] * y[i], 0));
    return matVec(
      B,
      bt.map((v, k) => v / D[k]),
    );
  };

  for (let generation = 1; evals < options.budget; generation++) {
    const population: Evaluated[] = [];
    for (let k = 0; k < lambda; k++) {
      const z = Array.from({ length: n }, () => rng.normal());
      const y = matVec(
        B,
        z.map((v, j) => D[j] * v),
      );
      const x = xmean.map((m, j) => m + sigma * y[j]);
      population.push({ x, y: await f(x) });
      evals++;
    }
    population.sort((a, b) => a.y - b.y);
    if (population[0].y < best.y) best = population[0];

    const xold = xmean;
    xmean = Array.from({ length: n }, (_, j) => w.reduce((s, wi, i) => s + wi * population[i].x[j], 0));
    const step = xmean.map((m, j) => (m - xold[j]) / sigma);
    const csn = Math.sqrt(cs * (2 - cs) * mueff);
    ps = invSqrtCTimes(step).map((v, j) => (1 - cs) * ps[j] + csn * v);
    const psNorm = Math.sqrt(ps.reduce((s, v) => s + v * v, 0));
    const hsig = psNorm / Math.sqrt(1 - (1 - cs) ** ((2 * evals) / lambda)) / chiN < 1.4 + 2 / (n + 1) ? 1 : 0;
    const ccn = Math.sqrt(cc * (2 - cc) * mueff);
    pc = step.map((v, j) => (1 - cc) * pc[j] + hsig * ccn * v);
    const art = population.slice(0, mu).map((p) => p.x.map((v, j) => (v - xold[j]) / sigma));
    C = C.map((row, i) =>
      row.map(
        (cij, j) =>
          (1 - c1 - cmu) * cij +
          c1 * (pc[i] * pc[j] + (1 - hsig) * cc * (2 - cc) * cij) +
          cmu * art.reduce((s, a, k) => s + w[k] * a[i] * a[j], 0),
      ),
    );
    sigma *= Math.exp((cs / damps) * (psNorm / chiN - 1));
    if (evals - eigenAt > lambda / (c1 + cmu) / n / 10) {
      eigenAt = evals;
      for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) C[i][j] = C[j][i]; // keep it symmetric
      const e = symmetricEigen(C);
      D = e.values.map((v) => Math.sqrt(Math.max(v, 1e-20)));
      B = e.vectors;
    }
    options.onGeneration?.({ generation, evals, best, sigma });
  }
  return { best, evals };
}
