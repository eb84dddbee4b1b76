// Seed statistics of one sweep point: mean, sample standard deviation and the 95%
// confidence band of the mean by Student's t. These numbers are displayed, never used to choose a
// batch, so JS Math is fine here (the project's determinism rule is about the scheduler's decisions).
//
//   mean  m = (1/n) sum x_k
//   sd    s = sqrt( sum (x_k - m)^2 / (n - 1) )            (sample sd, n >= 2)
//   band  m -/+ t_{0.975, n-1} * s / sqrt(n)                 (two-sided 95% interval of the mean)
//
// With n = 1 there is no spread to estimate: sd and the band are null (the view draws the point only).

export interface PointStats {
  /** Seeds that gave a value (a run that never reaches random's best gives none). */
  n: number;
  mean: number | null;
  sd: number | null;
  lo: number | null;
  hi: number | null;
}

/** log Gamma(x), x > 0 (Lanczos, g = 7, 9 terms; ~1e-15 relative). */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let k = 1; k < 9; k++) a += c[k] / (x + k);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the regularised incomplete beta function (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return h;
}

/** Regularised incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(x, a, b)) / a : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** P(T <= t) for Student's t with df degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

const quantileCache = new Map<number, number>();

/** t_{0.975, df}: the two-sided 95% critical value (bisection on the CDF to 1e-13). */
export function tCritical95(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  const cached = quantileCache.get(df);
  if (cached !== undefined) return cached;
  let lo = 0;
  let hi = 1000; // t_{0.975,1} = 12.7; every larger df is smaller
  while (hi - lo > 1e-13) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < 0.975) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  quantileCache.set(df, t);
  return t;
}

/** Mean, sample sd and 95% band of the finite values; nulls (no value for that seed) are left out. */
export function pointStats(values: readonly (number | null)[]): PointStats {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const n = xs.length;
  if (n === 0) return { n, mean: null, sd: null, lo: null, hi: null };
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = sum / n;
  if (n === 1) return { n, mean, sd: null, lo: null, hi: null };
  let ss = 0;
  for (const x of xs) ss += (x - mean) * (x - mean);
  const sd = Math.sqrt(ss / (n - 1));
  const half = (tCritical95(n - 1) * sd) / Math.sqrt(n);
  return { n, mean, sd, lo: mean - half, hi: mean + half };
}
