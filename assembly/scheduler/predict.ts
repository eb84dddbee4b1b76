// SPEC 3-5: counts at step t, observed-neighbour selection, and the per-half-life predictions
// (references, centred histories, relation estimates, fusion, calibrated u).
import { cfg, cfgInt, CFG_K_CROSS, CFG_K_WITHIN, CFG_LAMBDA_G, CFG_LAMBDA_S, CFG_PRIOR, CFG_W_CROSS, CFG_W_IN, PRIOR_CROSS, PRIOR_WITHIN } from './config';
import { gCIdx, gCOff, gCSim, gE, gN, gTaskEnv, gWIdx, gWOff, gWSim } from './graph';
import { hObsD, hObsM, hObsRemoves, hObsStep, hObsStepIdx, hObsTask, hObsV, hStepSize, hStepSumD, hStepSumM, hStepSumV, hStepValue } from './history';
import { clip, getF64, getI32, getU8, setF64, setI32, setU8 } from './mem';
import { percentileRanks, quantile, sortedIdx } from './rank';
import {
  eR, eX, ensureNeighbourCapacity, medScratch, nbIdx, nbInEnd, nbKer, nbOff, oReference, oRemoved,
  sBd, sBm, sBv, sW, tCount, tF, tLastStep, tPr1, tPr2, tRun, tSortedV, tW, tYd, tYm, tYv,
} from './state';

/**
 * One pass over the observations of steps s < t (a prefix of the history): c_i, the latest step and
 * the run of consecutive selections ending there (rule 4), X_e, R_e (SPEC 6) and the identifier
 * filter's removals (SPEC 8).
 */
export function gatherCounts(t: i32, nObs: i32): void {
  for (let i = 0; i < gN; i++) {
    setI32(tCount, i, 0);
    setI32(tLastStep, i, -1);
    setI32(tRun, i, 0);
    setU8(oRemoved, i, 0);
  }
  for (let e = 0; e < gE; e++) {
    setI32(eX, e, 0);
    setI32(eR, e, 0);
  }
  for (let k = 0; k < nObs; k++) {
    const i = getI32(hObsTask, k);
    const s = getI32(hObsStep, k);
    const e = getI32(gTaskEnv, i);
    setI32(tCount, i, getI32(tCount, i) + 1);
    setI32(tRun, i, getI32(tLastStep, i) == s - 1 ? getI32(tRun, i) + 1 : 1);
    setI32(tLastStep, i, s);
    setI32(eX, e, getI32(eX, e) + 1);
    if (s == t - 1 || s == t - 2) setI32(eR, e, getI32(eR, e) + 1);
    if (getU8(hObsRemoves, k) != 0) setU8(oRemoved, i, 1);
  }
  // a run only counts when it reaches t - 1
  for (let i = 0; i < gN; i++) {
    if (getI32(tLastStep, i) != t - 1) setI32(tRun, i, 0);
  }
}

/** Median of the first n values of medScratch after an insertion sort (lists are nearly sorted). */
function medianOfScratch(n: i32): f64 {
  for (let a = 1; a < n; a++) {
    const x = getF64(medScratch, a);
    let b = a - 1;
    while (b >= 0 && getF64(medScratch, b) > x) {
      setF64(medScratch, b + 1, getF64(medScratch, b));
      b--;
    }
    setF64(medScratch, b + 1, x);
  }
  const h = n >> 1;
  if (n & 1) return getF64(medScratch, h);
  return (getF64(medScratch, h - 1) + getF64(medScratch, h)) / 2.0;
}

/** SPEC 4: the first `k` observed tasks of list(i), in list order; writes delta, returns the count. */
function takeObserved(off: usize, idx: usize, sim: usize, i: i32, k: i32, at: i32): i32 {
  let taken = 0;
  for (let p = getI32(off, i), end = getI32(off, i + 1); p < end && taken < k; p++) {
    const j = getI32(idx, p);
    if (getI32(tCount, j) == 0) continue;
    setI32(nbIdx, at + taken, j);
    setF64(nbKer, at + taken, clip(1.0 - getF64(sim, p), 0.0, 1.0));
    taken++;
  }
  return taken;
}

/** Turns the deltas at [from, to) into exp(-0.5 (delta/sigma)^2) with the adaptive bandwidth. */
function kernelise(from: i32, to: i32): void {
  const n = to - from;
  if (n == 0) return;
  for (let p = 0; p < n; p++) setF64(medScratch, p, getF64(nbKer, from + p));
  const sigma = max<f64>(medianOfScratch(n), 0.05);
  for (let p = from; p < to; p++) {
    const r = getF64(nbKer, p) / sigma;
    setF64(nbKer, p, Math.exp(-0.5 * r * r)); // (-0.5 r) r: the reference's rounding order
  }
}

/** SPEC 4: N_in(i), N_cross(i) and their kernels (independent of the half-life). */
export function selectNeighbours(): void {
  const kw = cfgInt(CFG_K_WITHIN);
  const kc = cfgInt(CFG_K_CROSS);
  let total = 0;
  for (let i = 0; i < gN; i++) {
    total += min<i32>(kw, getI32(gWOff, i + 1) - getI32(gWOff, i));
    total += min<i32>(kc, getI32(gCOff, i + 1) - getI32(gCOff, i));
  }
  ensureNeighbourCapacity(total);
  let at = 0;
  for (let i = 0; i < gN; i++) {
    setI32(nbOff, i, at);
    const nin = takeObserved(gWOff, gWIdx, gWSim, i, kw, at);
    kernelise(at, at + nin);
    at += nin;
    setI32(nbInEnd, i, at);
    const ncr = takeObserved(gCOff, gCIdx, gCSim, i, kc, at);
    kernelise(at, at + ncr);
    at += ncr;
  }
  setI32(nbOff, gN, at);
}

/**
 * SPEC 3-5 for one half-life h at step t over the first nSteps stored steps / nObs observations.
 * Writes yhat (v, m, d) and u^(h) per task, and B_t (v, m, d) into the reference slots refAt..+2.
 */
export function predictHalfLife(
  h: f64, t: i32, nSteps: i32, nObs: i32,
  outV: usize, outM: usize, outD: usize, outU: usize, refAt: i32,
): void {
  // SPEC 3: step weights, step references b_s, global references B_t (steps ascending)
  let sumW = 0.0;
  let sumV = 0.0;
  let sumM = 0.0;
  let sumD = 0.0;
  for (let s = 0; s < nSteps; s++) {
    const w = Math.pow(2.0, -<f64>(t - getI32(hStepValue, s)) / h);
    const size = <f64>getI32(hStepSize, s);
    const bv = getF64(hStepSumV, s) / size;
    const bm = getF64(hStepSumM, s) / size;
    const bd = getF64(hStepSumD, s) / size;
    setF64(sW, s, w);
    setF64(sBv, s, bv);
    setF64(sBm, s, bm);
    setF64(sBd, s, bd);
    sumW += w;
    sumV += w * bv;
    sumM += w * bm;
    sumD += w * bd;
  }
  const Bv = sumV / sumW;
  const Bm = sumM / sumW;
  const Bd = sumD / sumW;
  setF64(oReference, refAt, Bv);
  setF64(oReference, refAt + 1, Bm);
  setF64(oReference, refAt + 2, Bd);

  // SPEC 3: centred, clipped observations; W_i and ybar_i (histories by step ascending)
  for (let i = 0; i < gN; i++) {
    setF64(tW, i, 0.0);
    setF64(tYv, i, 0.0);
    setF64(tYm, i, 0.0);
    setF64(tYd, i, 0.0);
  }
  for (let k = 0; k < nObs; k++) {
    const i = getI32(hObsTask, k);
    const s = getI32(hObsStepIdx, k);
    const w = getF64(sW, s);
    const yv = clip(getF64(hObsV, k) - getF64(sBv, s) + Bv, 0.0, 0.25);
    const ym = clip(getF64(hObsM, k) - getF64(sBm, s) + Bm, 0.0, 1.0);
    const yd = clip(getF64(hObsD, k) - getF64(sBd, s) + Bd, 0.0, 1.0);
    setF64(tW, i, getF64(tW, i) + w);
    setF64(tYv, i, getF64(tYv, i) + w * yv);
    setF64(tYm, i, getF64(tYm, i) + w * ym);
    setF64(tYd, i, getF64(tYd, i) + w * yd);
  }
  for (let i = 0; i < gN; i++) {
    const W = getF64(tW, i);
    if (W > 0.0) {
      setF64(tYv, i, getF64(tYv, i) / W);
      setF64(tYm, i, getF64(tYm, i) / W);
      setF64(tYd, i, getF64(tYd, i) / W);
    } else {
      setF64(tYv, i, Bv);
      setF64(tYm, i, Bm);
      setF64(tYd, i, Bd);
    }
  }

  // SPEC 4-5: relation estimates, prior, fused estimate, f
  const lg = cfg(CFG_LAMBDA_G);
  const ls = cfg(CFG_LAMBDA_S);
  const wIn = cfg(CFG_W_IN);
  const wCross = cfg(CFG_W_CROSS);
  const prior = cfgInt(CFG_PRIOR);
  for (let i = 0; i < gN; i++) {
    const from = getI32(nbOff, i);
    const mid = getI32(nbInEnd, i);
    const to = getI32(nbOff, i + 1);
    // G_in
    let giv = Bv;
    let gim = Bm;
    let gid = Bd;
    if (mid > from) {
      let sa = 0.0;
      let sv = 0.0;
      let sm = 0.0;
      let sd = 0.0;
      for (let p = from; p < mid; p++) {
        const j = getI32(nbIdx, p);
        const a = getF64(nbKer, p) * clip(getF64(tW, j), 0.1, 3.0);
        sa += a;
        sv += a * getF64(tYv, j);
        sm += a * getF64(tYm, j);
        sd += a * getF64(tYd, j);
      }
      const den = sa + lg;
      giv = (sv + lg * Bv) / den;
      gim = (sm + lg * Bm) / den;
      gid = (sd + lg * Bd) / den;
    }
    // G_cross
    let gcv = Bv;
    let gcm = Bm;
    let gcd = Bd;
    if (to > mid) {
      let sa = 0.0;
      let sv = 0.0;
      let sm = 0.0;
      let sd = 0.0;
      for (let p = mid; p < to; p++) {
        const j = getI32(nbIdx, p);
        const a = getF64(nbKer, p) * clip(getF64(tW, j), 0.1, 3.0);
        sa += a;
        sv += a * getF64(tYv, j);
        sm += a * getF64(tYm, j);
        sd += a * getF64(tYd, j);
      }
      const den = sa + lg;
      gcv = (sv + lg * Bv) / den;
      gcm = (sm + lg * Bm) / den;
      gcd = (sd + lg * Bd) / den;
    }
    let pv: f64, pm: f64, pd: f64;
    if (prior == PRIOR_WITHIN) {
      pv = giv;
      pm = gim;
      pd = gid;
    } else if (prior == PRIOR_CROSS) {
      pv = gcv;
      pm = gcm;
      pd = gcd;
    } else {
      pv = wIn * giv + wCross * gcv;
      pm = wIn * gim + wCross * gcm;
      pd = wIn * gid + wCross * gcd;
    }
    const W = getF64(tW, i);
    const den = W + ls;
    const vh = (W * getF64(tYv, i) + ls * pv) / den;
    const mh = (W * getF64(tYm, i) + ls * pm) / den;
    const dh = (W * getF64(tYd, i) + ls * pd) / den;
    setF64(outV, i, vh);
    setF64(outM, i, mh);
    setF64(outD, i, dh);
    setF64(tF, i, dh * mh * (1.0 - mh));
  }

  // SPEC 5: calibrated score u = Q(0.65 pr(vhat) + 0.35 pr(f))
  const n = gN;
  percentileRanks(outV, tPr1, n);
  const idx = sortedIdx;
  for (let p = 0; p < n; p++) setF64(tSortedV, p, getF64(outV, getI32(idx, p)));
  percentileRanks(tF, tPr2, n);
  for (let i = 0; i < n; i++) {
    setF64(outU, i, quantile(tSortedV, n, 0.65 * getF64(tPr1, i) + 0.35 * getF64(tPr2, i)));
  }
}
