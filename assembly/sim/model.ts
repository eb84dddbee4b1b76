// The simulated policy and its rollouts (SPEC 10). Formulas: docs/simulator.md.
// All hidden parameters live in linear memory (packed by src/sim/pack-sim.ts); `sim_bind` records
// where. Every random draw comes from the one PCG32 generator of assembly/common/rng.ts.
import { rngNextF64 } from '../common/rng';

// ---- where the packed pool lives (set by sim_bind) ----------------------------------------------
let nTasks: i32 = 0; // training tasks + held-out tasks (held-out ones follow the pool)
let nEnvs: i32 = 0; // training envs + held-out envs
let nFamilies: i32 = 0;
let pTaskEnv: usize = 0; // i32[nTasks]
let pGateOff: usize = 0; // i32[nTasks + 1]: gates of task i are gateOff[i] .. gateOff[i+1]
let pGateFam: usize = 0; // i32[G]
let pGateDiff: usize = 0; // f64[G]: difficulty on the logit scale
let pGateChecks: usize = 0; // f64[G]: checks behind each gate
let pTaskInit: usize = 0; // f64[nTasks]: initially satisfied checks
let pTaskTotal: usize = 0; // f64[nTasks]: total checks (>= 1)
let pTaskExploit: usize = 0; // i32[nTasks]: 1 when exploitable
let pCompetence: usize = 0; // f64[nFamilies]  (policy state)
let pFamiliarity: usize = 0; // f64[nEnvs]      (policy state)
let pMemo: usize = 0; // f64[nTasks]     (policy state)
let pScratch: usize = 0; // f64[max(maxGates, nFamilies + 2 * nEnvs + 2 * maxGates) + 1] scratch for learning / probabilities
let pParams: usize = 0; // f64[PARAM_COUNT] model constants, see below
let pPractice: usize = 0; // f64[nTasks]: steps in which the task's group had spread (world state)

// Indices into the params array (mirrored in src/sim/model-params.ts).
const P_EXPLOIT: i32 = 0; // probability that a rollout of an exploitable task uses the exploit
const P_EXPLOIT_REWARD: i32 = 1; // reward of an exploited rollout
const P_ETA_COMPETENCE: i32 = 2;
const P_COMPETENCE_SAT: i32 = 3; // per-step saturation of a family's credit
const P_ETA_FAMILIARITY: i32 = 4;
const P_FAMILIARITY_DECAY: i32 = 5; // fraction lost per step by an environment left out
const P_ETA_MEMO: i32 = 6;
const P_FAMILIARITY_MAX: i32 = 7;
const P_MEMO_MAX: i32 = 8;
const P_LOGIT_SCALE: i32 = 9; // sharpness of every gate's sigmoid
// World mechanisms (docs/simulator.md, "World mechanisms"). Each has an "off" value that gives the
// simulator as it was before the mechanism existed, bit for bit.
const P_PARTIAL_CREDIT: i32 = 10; // q: a check behind a passed gate fails with probability q (1 - p_gate); off 0
const P_SIGNAL_EXPONENT: i32 = 11; // gamma: a group teaches sigma^gamma; off 1 (unnormalised)
const P_BREADTH: i32 = 12; // beta: a group's transfer is divided by n_e^beta (n_e groups of its env this step); off 0
const P_FORGETTING: i32 = 13; // phi: competence relaxes toward competence0 by phi x the step's mean signal; off 0
const P_REPEAT_DISCOUNT: i32 = 14; // rho: transfer of a task's group divided by 1 + rho x earlier practice; off 0
const P_COMPETENCE0: i32 = 15; // the starting competence forgetting relaxes toward
const P_NORMALISED_DRIFT: i32 = 16; // lambda: forgetting driven by the share of groups with spread (1) instead of the mean signal (0); off 0
const P_GRADIENT_NOISE: i32 = 17; // kappa: the step has a fixed length (Adam), each group with spread adds noise kappa; off 0
const P_DRIFT_EXPONENT: i32 = 18; // nu: with lambda, the drift follows (groups with spread)^nu / n (1/2: their pushes add in quadrature); off 1
const P_FAMILIARITY_DRIFT: i32 = 19; // psi: every environment's familiarity relaxes by psi x the step's drift, as competence does; off 0
const P_GRADIENT_CREDIT: i32 = 20; // omega: a group's lesson split over its gates by d(expected reward)/d(gate logit) (1) instead of evenly (0); off 0

/** Records the layout of the packed pool and the policy state. Pointers come from mem_alloc. */
export function sim_bind(
  tasks: i32, envs: i32, families: i32,
  taskEnv: usize, gateOff: usize, gateFam: usize, gateDiff: usize, gateChecks: usize,
  taskInit: usize, taskTotal: usize, taskExploit: usize,
  competence: usize, familiarity: usize, memo: usize, scratch: usize, params: usize, practice: usize,
): void {
  nTasks = tasks; nEnvs = envs; nFamilies = families;
  pTaskEnv = taskEnv; pGateOff = gateOff; pGateFam = gateFam; pGateDiff = gateDiff; pGateChecks = gateChecks;
  pTaskInit = taskInit; pTaskTotal = taskTotal; pTaskExploit = taskExploit;
  pCompetence = competence; pFamiliarity = familiarity; pMemo = memo; pScratch = scratch; pParams = params;
  pPractice = practice;
}

// @ts-ignore: decorator
@inline function ldI(p: usize, i: i32): i32 { return load<i32>(p + (<usize>i << 2)); }
// @ts-ignore: decorator
@inline function ldF(p: usize, i: i32): f64 { return load<f64>(p + (<usize>i << 3)); }
// @ts-ignore: decorator
@inline function stF(p: usize, i: i32, v: f64): void { store<f64>(p + (<usize>i << 3), v); }
// @ts-ignore: decorator
@inline function param(k: i32): f64 { return ldF(pParams, k); }

/** Pass probability of gate g of task i under the current policy: sigmoid of the logit (docs/simulator.md). */
// @ts-ignore: decorator
@inline function gatePass(i: i32, g: i32): f64 {
  const z = ldF(pCompetence, ldI(pGateFam, g)) + ldF(pFamiliarity, ldI(pTaskEnv, i)) + ldF(pMemo, i) - ldF(pGateDiff, g);
  return 1.0 / (1.0 + Math.exp(-param(P_LOGIT_SCALE) * z));
}

/**
 * Exact expected reward and exact expected within-group population variance ((K-1)/K * Var r) of
 * tasks first .. first+count-1, written to outMean / outVar at index i - first. `honest` = 1 leaves
 * the exploit out (held-out scoring); 0 mixes it in as a rollout does.
 */
export function sim_expect(first: i32, count: i32, K: i32, honest: i32, outMean: usize, outVar: usize): void {
  const pe = param(P_EXPLOIT);
  const re = param(P_EXPLOIT_REWARD);
  const q = param(P_PARTIAL_CREDIT);
  const kFactor = K > 1 ? <f64>(K - 1) / <f64>K : 0.0;
  for (let i = first; i < first + count; i++) {
    const g0 = ldI(pGateOff, i);
    const g1 = ldI(pGateOff, i + 1);
    const total = ldF(pTaskTotal, i);
    // First pass: the probability of each "gates passed" count k and its expected reward E_k / C.
    // prefix = P(first k gates pass); P(exactly k) = prefix * (1 - p_{k+1}). With partial credit a
    // check behind passed gate k passes with probability pi_k = 1 - q (1 - p_k), independently.
    let prefix = 1.0;
    let checks = ldF(pTaskInit, i);
    let mean = 0.0;
    for (let g = g0; g < g1; g++) {
      const p = gatePass(i, g);
      stF(pScratch, g - g0, p);
      mean += prefix * (1.0 - p) * (checks / total);
      prefix *= p;
      checks += ldF(pGateChecks, g) * (1.0 - q * (1.0 - p));
    }
    mean += prefix * (checks / total);
    // Second pass: variance around the mean (two passes keep it non-negative and accurate): the
    // spread of E_k / C plus, within k, the binomial variance V_k / C^2 of the partial checks.
    prefix = 1.0;
    checks = ldF(pTaskInit, i);
    let within = 0.0; // V_k / C^2 so far
    let variance = 0.0;
    for (let g = g0; g < g1; g++) {
      const p = ldF(pScratch, g - g0);
      const d = checks / total - mean;
      variance += prefix * (1.0 - p) * d * d + prefix * (1.0 - p) * within; // the same bits as before when within = 0
      prefix *= p;
      const pi = 1.0 - q * (1.0 - p);
      const c = ldF(pGateChecks, g);
      checks += c * pi;
      within += c * pi * (1.0 - pi) / (total * total);
    }
    const dLast = checks / total - mean;
    variance += prefix * dLast * dLast + prefix * within;
    if (honest == 0 && ldI(pTaskExploit, i) != 0 && pe > 0.0) {
      // Mixture of the honest walk (1 - pe) and the exploit (pe, reward re): law of total variance.
      const mixed = (1.0 - pe) * mean + pe * re;
      const dh = mean - mixed;
      const dx = re - mixed;
      variance = (1.0 - pe) * (variance + dh * dh) + pe * dx * dx;
      mean = mixed;
    }
    stF(outMean, i - first, mean);
    stF(outVar, i - first, variance * kFactor);
  }
}

/**
 * One honest walk of task i's chain: the fraction of checks passed. With partial credit (q > 0)
 * each check behind a passed gate is drawn right after its gate (pass with 1 - q (1 - p)).
 */
function walk(i: i32): f64 {
  const g0 = ldI(pGateOff, i);
  const g1 = ldI(pGateOff, i + 1);
  const q = param(P_PARTIAL_CREDIT);
  let checks = ldF(pTaskInit, i);
  for (let g = g0; g < g1; g++) {
    const p = gatePass(i, g);
    if (rngNextF64() >= p) break; // a failed gate blocks every check behind it and later gates
    if (q > 0.0) {
      const pi = 1.0 - q * (1.0 - p);
      const c = <i32>ldF(pGateChecks, g);
      for (let k = 0; k < c; k++) if (rngNextF64() < pi) checks += 1.0;
    } else {
      checks += ldF(pGateChecks, g);
    }
  }
  return checks / ldF(pTaskTotal, i);
}

/**
 * K rollouts of each of the n tasks at batch[0..n): rewards[b*K + k], flags[b*K + k] (1 = the
 * rollout used the exploit) and honest[b*K + k] (what the rollout scores with the exploit removed:
 * the identifier filter's second replay, SPEC 8). Draw order: task by task, rollout by rollout,
 * the walk first, then (exploitable tasks only) the exploit draw.
 */
export function sim_rollout(batch: usize, n: i32, K: i32, rewards: usize, flags: usize, honest: usize): void {
  const pe = param(P_EXPLOIT);
  const re = param(P_EXPLOIT_REWARD);
  for (let b = 0; b < n; b++) {
    const i = ldI(batch, b);
    const exploitable = ldI(pTaskExploit, i) != 0;
    for (let k = 0; k < K; k++) {
      const slot = b * K + k;
      const r = walk(i);
      let flagged = 0;
      let reward = r;
      if (exploitable && rngNextF64() < pe) {
        flagged = 1;
        reward = re;
      }
      stF(rewards, slot, reward);
      stF(honest, slot, r);
      store<i32>(flags + (<usize>slot << 2), flagged);
    }
  }
}

/**
 * How much task i's honest expected reward depends on each gate's logit, up to the common factor
 * logitScale / C: out[k] = p_k (1 - p_k) P_{k-1} (c_k (1 - q + 2 q p_k) + T_k), where P_{k-1} is the
 * chance of reaching gate k and T_k = sum over later gates j of c_j pi_j p_{k+1}...p_j (docs/simulator.md,
 * "Gradient credit"). A gate every rollout passes, or one none reaches, gets almost nothing. Uses
 * out[0 .. 2n) (n gates); returns the sum of out[0 .. n).
 */
function rewardGradient(i: i32, out: usize): f64 {
  const g0 = ldI(pGateOff, i);
  const n = ldI(pGateOff, i + 1) - g0;
  const q = param(P_PARTIAL_CREDIT);
  const later = out + (<usize>n << 3); // T_k
  for (let k = 0; k < n; k++) stF(out, k, gatePass(i, g0 + k));
  let t = 0.0;
  for (let k = n - 1; k >= 0; k--) {
    stF(later, k, t);
    const p = ldF(out, k);
    t = p * (ldF(pGateChecks, g0 + k) * (1.0 - q * (1.0 - p)) + t);
  }
  let reach = 1.0;
  let sum = 0.0;
  for (let k = 0; k < n; k++) {
    const p = ldF(out, k);
    const w = p * (1.0 - p) * reach * (ldF(pGateChecks, g0 + k) * (1.0 - q + 2.0 * q * p) + ldF(later, k));
    stF(out, k, w);
    sum += w;
    reach *= p;
  }
  return sum;
}

/**
 * Competence after a step with a fixed step length (the gradient-noise mechanism, docs/simulator.md):
 * Adam-like optimisers move the parameters by about the same length whatever the gradient's scale,
 * so the batch decides the step's direction. Its aligned part is the families' saturated credit
 * G_f, its noise kappa per group with spread, adding in quadrature. Competence moves by
 * etaC * G_f / |g| and relaxes toward competence0 by phi times the noise's share of the step.
 * Returns that share (the step's drift).
 */
function learnFixedStep(etaC: f64, sat: f64, phi: f64, a0: f64, kappa: f64, spreadGroups: f64, credit: usize): f64 {
  if (spreadGroups == 0.0) return 0.0; // no group with spread: no gradient, no step
  let aligned = 0.0;
  for (let f = 0; f < nFamilies; f++) {
    const c = ldF(credit, f);
    const g = c / (1.0 + c / sat); // the same saturation as the earlier rule
    stF(credit, f, g);
    aligned += g * g;
  }
  const noise = kappa * Math.sqrt(spreadGroups);
  const norm = Math.sqrt(aligned + noise * noise);
  const keep = 1.0 - min<f64>(1.0, phi * noise / norm);
  for (let f = 0; f < nFamilies; f++) {
    const a = a0 + keep * (ldF(pCompetence, f) - a0);
    stF(pCompetence, f, a + etaC * ldF(credit, f) / norm);
  }
  return noise / norm;
}

/**
 * Learning after a step (docs/simulator.md, "Learning"): each selected group teaches in proportion
 * to its signal s = sigma^gamma, sigma the population standard deviation of its K rewards (0 for
 * equal rewards). Memorisation of the task, familiarity of its environment and competence of the
 * families on its chain grow; environments without a group in the batch lose familiarity. The
 * world mechanisms shape the transfer to competence: forgetting (relax toward the start), breadth
 * (several groups of one environment transfer less than as many from distinct environments) and
 * repeat discount (practice on a task already practised transfers less).
 */
export function sim_learn(batch: usize, n: i32, K: i32, rewards: usize): void {
  const credit = pScratch; // f64[nFamilies]
  const envSpread = pScratch + (<usize>nFamilies << 3); // f64[nEnvs]
  const envCount = envSpread + (<usize>nEnvs << 3); // f64[nEnvs], groups of the env in this batch
  for (let f = 0; f < nFamilies; f++) stF(credit, f, 0.0);
  for (let e = 0; e < nEnvs; e++) { stF(envSpread, e, 0.0); stF(envCount, e, 0.0); }
  const etaM = param(P_ETA_MEMO);
  const memoMax = param(P_MEMO_MAX);
  const gamma = param(P_SIGNAL_EXPONENT);
  const breadth = param(P_BREADTH);
  const repeat = param(P_REPEAT_DISCOUNT);
  const omega = param(P_GRADIENT_CREDIT);
  const gateWeights = envCount + (<usize>nEnvs << 3); // f64[2 * maxGates]: rewardGradient's output and its suffix sums
  for (let b = 0; b < n; b++) {
    const e = ldI(pTaskEnv, ldI(batch, b));
    stF(envCount, e, ldF(envCount, e) + 1.0);
  }
  let signalSum = 0.0;
  let spreadGroups = 0.0; // groups whose rewards are not all equal: each one updates the policy
  for (let b = 0; b < n; b++) {
    const i = ldI(batch, b);
    let mean = 0.0;
    for (let k = 0; k < K; k++) mean += ldF(rewards, b * K + k);
    mean /= <f64>K;
    let v = 0.0;
    for (let k = 0; k < K; k++) {
      const d = ldF(rewards, b * K + k) - mean;
      v += d * d;
    }
    const sigma = Math.sqrt(v / <f64>K);
    const s = gamma == 1.0 ? sigma : sigma > 0.0 ? Math.pow(sigma, gamma) : 0.0;
    signalSum += s;
    if (s > 0.0) spreadGroups += 1.0;
    const e = ldI(pTaskEnv, i);
    // The gradient's split is taken under the policy that played the group (before its memorisation grows).
    const gradientSum = omega != 0.0 && s > 0.0 ? rewardGradient(i, gateWeights) : 0.0;
    stF(envSpread, e, ldF(envSpread, e) + s);
    stF(pMemo, i, Math.min(ldF(pMemo, i) + etaM * s, memoMax));
    let transfer = s;
    if (breadth != 0.0) transfer /= Math.pow(ldF(envCount, e), breadth);
    if (repeat != 0.0) transfer /= 1.0 + repeat * ldF(pPractice, i);
    if (s > 0.0) stF(pPractice, i, ldF(pPractice, i) + 1.0);
    const g0 = ldI(pGateOff, i);
    const g1 = ldI(pGateOff, i + 1);
    if (g1 > g0) {
      // Part omega of the lesson follows the gradient of the expected reward (when it was taken); the
      // rest is split evenly. Without it the even share is transfer / gates, the same bits as before.
      const byGradient = gradientSum > 0.0;
      const even = (byGradient ? 1.0 - omega : 1.0) * transfer / <f64>(g1 - g0);
      const along = byGradient ? omega * transfer / gradientSum : 0.0;
      for (let g = g0; g < g1; g++) {
        const f = ldI(pGateFam, g);
        stF(credit, f, ldF(credit, f) + (byGradient ? even + along * ldF(gateWeights, g - g0) : even));
      }
    }
  }
  const etaC = param(P_ETA_COMPETENCE);
  const sat = param(P_COMPETENCE_SAT);
  const phi = param(P_FORGETTING);
  const a0 = param(P_COMPETENCE0);
  const kappa = param(P_GRADIENT_NOISE);
  let drift = 0.0; // how far the step moved the policy, the driver of forgetting (phi multiplies it)
  if (kappa != 0.0) drift = learnFixedStep(etaC, sat, phi, a0, kappa, spreadGroups, credit);
  else {
    const lambda = param(P_NORMALISED_DRIFT);
    // How far this step's update moves the policy: the mean signal (lambda 0) or, as under GRPO's
    // normalised advantages where every group with spread pushes about equally hard, the share of
    // groups with spread (lambda 1). No group with spread, no update, no drift.
    // With nu < 1 the pushes of the groups with spread are independent noise that adds in
    // quadrature (nu 1/2): the drift grows with sqrt(N), not N.
    if (n > 0 && lambda == 0.0) drift = signalSum / <f64>n;
    else if (n > 0) {
      const nu = param(P_DRIFT_EXPONENT);
      const pushes = nu == 1.0 || spreadGroups == 0.0 ? spreadGroups : Math.pow(spreadGroups, nu);
      drift = (1.0 - lambda) * signalSum / <f64>n + lambda * pushes / <f64>n;
    }
    for (let f = 0; f < nFamilies; f++) {
      const c = ldF(credit, f);
      let a = ldF(pCompetence, f);
      // Forgetting: every update moves the policy and what it does not renew drifts back toward the
      // untrained policy, in proportion to how far the step's update moves it.
      if (phi != 0.0 && n > 0) {
        if (lambda == 0.0) a = a0 + (1.0 - min<f64>(1.0, phi * signalSum / <f64>n)) * (a - a0); // the same bits as before
        else a = a0 + (1.0 - min<f64>(1.0, phi * drift)) * (a - a0);
      }
      // Saturating within a step: redundant groups of one family teach less than diverse ones.
      // (etaC * c first: the same bits as before the fixed step existed.)
      stF(pCompetence, f, a + etaC * c / (1.0 + c / sat));
    }
  }
  const etaF = param(P_ETA_FAMILIARITY);
  const keep = 1.0 - param(P_FAMILIARITY_DECAY);
  const famMax = param(P_FAMILIARITY_MAX);
  // Familiarity drift: an environment's own skills are parameters like the shared ones, disturbed by
  // every update whether or not the environment is in the batch (and not by a step without one).
  const psi = param(P_FAMILIARITY_DRIFT);
  if (psi != 0.0 && drift != 0.0) {
    const hold = 1.0 - min<f64>(1.0, psi * drift);
    for (let e = 0; e < nEnvs; e++) stF(pFamiliarity, e, ldF(pFamiliarity, e) * hold);
  }
  for (let e = 0; e < nEnvs; e++) {
    if (ldF(envCount, e) != 0.0) stF(pFamiliarity, e, Math.min(ldF(pFamiliarity, e) + etaF * ldF(envSpread, e), famMax));
    else stF(pFamiliarity, e, ldF(pFamiliarity, e) * keep);
  }
}

// ---- fingerprint: FNV-1a 64 over raw bytes -------------------------------------------------------
const FNV_OFFSET: u64 = 0xcbf29ce484222325;
const FNV_PRIME: u64 = 0x100000001b3;
let fnv: u64 = FNV_OFFSET;

export function sim_hash_reset(): void {
  fnv = FNV_OFFSET;
}

/** Feeds `len` bytes at `ptr` into the running FNV-1a 64 hash. */
export function sim_hash_bytes(ptr: usize, len: i32): void {
  let h = fnv;
  for (let k = 0; k < len; k++) {
    h ^= <u64>load<u8>(ptr + <usize>k);
    h *= FNV_PRIME;
  }
  fnv = h;
}

export function sim_hash_hi(): u32 {
  return <u32>(fnv >> 32);
}

export function sim_hash_lo(): u32 {
  return <u32>fnv;
}
