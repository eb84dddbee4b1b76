// Baseline schedulers' kernels (docs/baselines.md): random, DAPO's random draws,
// MoPPS (Beta posterior + Thompson sampling) and DPS (3-state Markov model per task). Their random
// draws come from the one PCG32 generator, so runs are bit-identical in every engine (SPEC 10).
import { rngNextBelow, rngNextF64 } from '../common/rng';

// @ts-ignore: decorator
@inline function ldI(p: usize, i: i32): i32 { return load<i32>(p + (<usize>i << 2)); }
// @ts-ignore: decorator
@inline function stI(p: usize, i: i32, v: i32): void { store<i32>(p + (<usize>i << 2), v); }
// @ts-ignore: decorator
@inline function ldF(p: usize, i: i32): f64 { return load<f64>(p + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline function stF(p: usize, i: i32, v: f64): void { store<f64>(p + (<usize>i << 3), v); }

/** Sets perm[0..n) to the identity (the starting state of the partial shuffles below). */
export function base_perm_init(perm: usize, n: i32): void {
  for (let i = 0; i < n; i++) stI(perm, i, i);
}

/**
 * Uniform sample of m distinct tasks of 0..n-1: the first m steps of a Fisher-Yates shuffle of the
 * persistent permutation `perm` (any starting order gives a uniform sample). Writes them to out[0..m).
 */
export function base_random_choose(perm: usize, n: i32, m: i32, out: usize): void {
  for (let k = 0; k < m; k++) {
    const j = k + <i32>rngNextBelow(<u32>(n - k));
    const a = ldI(perm, k);
    const b = ldI(perm, j);
    stI(perm, k, b);
    stI(perm, j, a);
    stI(out, k, b);
  }
}

/**
 * The `count` candidates cand[0..m) of largest key[cand], ties broken by position in `cand`, in
 * descending key order, into out[0..count). Insertion into a sorted prefix: O(m * count).
 */
function selectTop(cand: usize, m: i32, keys: usize, count: i32, out: usize, outKeys: usize): i32 {
  let filled = 0;
  for (let p = 0; p < m; p++) {
    const c = ldI(cand, p);
    const k = ldF(keys, c);
    if (filled == count && !(k > ldF(outKeys, count - 1))) continue;
    let pos = filled < count ? filled : count - 1;
    // shift down every kept entry with a strictly smaller key (equal keys keep their place: earlier wins)
    while (pos > 0 && ldF(outKeys, pos - 1) < k) {
      stI(out, pos, ldI(out, pos - 1));
      stF(outKeys, pos, ldF(outKeys, pos - 1));
      pos--;
    }
    stI(out, pos, c);
    stF(outKeys, pos, k);
    if (filled < count) filled++;
  }
  return filled;
}

// ---- MoPPS -------------------------------------------------------------------------------------

/** Standard normal by Box-Muller (one of the pair; deterministic NativeMath). */
function normal(): f64 {
  const u1 = 1.0 - rngNextF64(); // (0, 1]
  const u2 = rngNextF64();
  return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
}

/** Gamma(a, 1) by Marsaglia and Tsang (2000), with the U^(1/a) boost for a < 1. */
function gamma(a: f64): f64 {
  if (a < 1.0) {
    const u = rngNextF64();
    return gamma(a + 1.0) * Math.pow(u, 1.0 / a);
  }
  const d = a - 1.0 / 3.0;
  const c = 1.0 / Math.sqrt(9.0 * d);
  while (true) {
    const x = normal();
    let v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const u = rngNextF64();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1.0 - v + Math.log(v))) return d * v;
  }
  return 0.0;
}

/** Beta(a, b) as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b). */
export function base_beta_sample(a: f64, b: f64): f64 {
  const x = gamma(a);
  const y = gamma(b);
  const s = x + y;
  return s > 0.0 ? x / s : 0.5;
}

/**
 * MoPPS posterior update for each selected group: with s = sum of its rewards (fractional
 * successes) and f = K - s, alpha <- lambda*alpha + (1-lambda)*alpha0 + s, beta likewise with f.
 */
export function base_mopps_update(
  alpha: usize, beta: usize, batch: usize, n: i32, K: i32, rewards: usize,
  lambda: f64, alpha0: f64, beta0: f64,
): void {
  for (let b = 0; b < n; b++) {
    const i = ldI(batch, b);
    let s = 0.0;
    for (let k = 0; k < K; k++) s += ldF(rewards, b * K + k);
    const f = <f64>K - s;
    stF(alpha, i, lambda * ldF(alpha, i) + (1.0 - lambda) * alpha0 + s);
    stF(beta, i, lambda * ldF(beta, i) + (1.0 - lambda) * beta0 + f);
  }
}

/**
 * MoPPS choice: one Thompson sample theta_i ~ Beta(alpha_i, beta_i) per task (index order), then
 * the B tasks with theta nearest the target (0.5), ties by lower index. key[i] = -|theta_i - target|.
 * `cand` is scratch i32[n]; outKeys scratch f64[B].
 */
export function base_mopps_choose(
  alpha: usize, beta: usize, n: i32, B: i32, target: f64,
  theta: usize, key: usize, cand: usize, out: usize, outKeys: usize,
): i32 {
  for (let i = 0; i < n; i++) {
    const t = base_beta_sample(ldF(alpha, i), ldF(beta, i));
    stF(theta, i, t);
    stF(key, i, -Math.abs(t - target));
    stI(cand, i, i);
  }
  return selectTop(cand, n, key, B, out, outKeys);
}

// ---- DPS ---------------------------------------------------------------------------------------
// States: 0 unsolved (group mean 0), 1 partially solved, 2 solved (group mean 1).
// counts: f64[n * 9] (row-major from-state x to-state); belief: f64[n * 3]; last: i32[n] (-1: never seen).

/** Starts every task with belief `b0 = (1/3, 1/3, 1/3)`, no counts, and no observed state. */
export function base_dps_init(counts: usize, belief: usize, last: usize, n: i32): void {
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 9; k++) stF(counts, i * 9 + k, 0.0);
    for (let k = 0; k < 3; k++) stF(belief, i * 3 + k, 1.0 / 3.0);
    stI(last, i, -1);
  }
}

/**
 * Propagates every task's belief one step through its expected transition matrix
 * T[a][b] = (counts[a][b] + prior) / sum_b' (counts[a][b'] + prior), and writes the predicted
 * probability of "partially solved" to predicted[i]. Called once per step before choosing.
 */
export function base_dps_predict(counts: usize, belief: usize, n: i32, prior: f64, predicted: usize): void {
  for (let i = 0; i < n; i++) {
    const c = counts + (<usize>(i * 9) << 3);
    let n0 = 0.0, n1 = 0.0, n2 = 0.0;
    for (let a = 0; a < 3; a++) {
      const row = ldF(c, a * 3) + ldF(c, a * 3 + 1) + ldF(c, a * 3 + 2) + 3.0 * prior;
      const ba = ldF(belief, i * 3 + a) / row;
      n0 += ba * (ldF(c, a * 3) + prior);
      n1 += ba * (ldF(c, a * 3 + 1) + prior);
      n2 += ba * (ldF(c, a * 3 + 2) + prior);
    }
    stF(belief, i * 3, n0);
    stF(belief, i * 3 + 1, n1);
    stF(belief, i * 3 + 2, n2);
    stF(predicted, i, n1);
  }
}

/**
 * After a step: classify each selected group (mean 0 -> unsolved, 1 -> solved, else partial),
 * decay that task's transition counts by `decay`, add the transition from its last observed state,
 * and set its belief to the observed state.
 */
export function base_dps_update(
  counts: usize, belief: usize, last: usize, batch: usize, n: i32, K: i32, rewards: usize, decay: f64,
): void {
  for (let b = 0; b < n; b++) {
    const i = ldI(batch, b);
    let allZero = true;
    let allOne = true;
    for (let k = 0; k < K; k++) {
      const r = ldF(rewards, b * K + k);
      if (r != 0.0) allZero = false;
      if (r != 1.0) allOne = false;
    }
    const state = allZero ? 0 : allOne ? 2 : 1;
    const prev = ldI(last, i);
    if (prev >= 0) {
      for (let k = 0; k < 9; k++) stF(counts, i * 9 + k, ldF(counts, i * 9 + k) * decay);
      stF(counts, i * 9 + prev * 3 + state, ldF(counts, i * 9 + prev * 3 + state) + 1.0);
    }
    stI(last, i, state);
    for (let k = 0; k < 3; k++) stF(belief, i * 3 + k, k == state ? 1.0 : 0.0);
  }
}

/**
 * DPS choice: a uniform random candidate pool of m tasks (partial shuffle of `perm`), then the B
 * candidates of highest predicted probability of "partially solved", ties by candidate order.
 */
export function base_dps_choose(perm: usize, n: i32, m: i32, B: i32, predicted: usize, cand: usize, out: usize, outKeys: usize): i32 {
  base_random_choose(perm, n, m, cand);
  return selectTop(cand, m, predicted, B, out, outKeys);
}
