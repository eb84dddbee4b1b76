// SPEC 8 progress filter. Residuals depend only on a transition's end step s2 (the ridge fit uses
// exactly the transitions ending before s2), so they are computed once, incrementally, as steps are
// appended (lazily, at the next score) and cached per observation; only a change of lambda_ridge
// recomputes them. The normal equations X'X, X'y are accumulated transition by transition
// (s2 ascending, task ascending), touching only the 7 non-zero features of each row.
import { cfg, cfgInt } from './config';
import { CFG_K_WITHIN, CFG_KAPPA, CFG_LAMBDA_RIDGE } from './layout';
import { gCats, gE, gEnvCat, gEnvOff, gEnvTasks, gN, gTaskEnv, gWOff } from './graph';
import {
  hObsCap, hObsM, hObsNth, hObsPrev, hObsStep, hObsTask, hObsV, hStepCount, hStepFirst, hStepSize,
} from './history';
import { allocF64, allocU8, getF64, getI32, getU8, setF64, setI32, setU8 } from './mem';
import { eRCnt, eRSum, nbCrCnt, nbIdx, nbInCnt, nbOff, oExcluded, tRCnt, tRFill, tROff, tRSum } from './state';

const DENSE = 6; // [1, m1, m1^2, v1, s1/100, ln(1+n1)], then one-hot category
const MIN_FIT = 8;

let pDim: i32 = 0;
let pXtX: usize = 0; // f64[D*D]
let pXty: usize = 0; // f64[D]
let pA: usize = 0; // f64[D*D] elimination scratch
let pBeta: usize = 0; // f64[D]
let pFeatIdx: usize = 0; // i32[7]
let pFeatVal: usize = 0; // f64[7]
let pTransitions: i32 = 0;
let pStepsDone: i32 = 0;
let pLambda: f64 = NaN;
let pCap: i32 = 0;
/** Per observation: the residual of the transition ending there, when scorable. */
export let pResid: usize = 0; // f64
export let pScorable: usize = 0; // u8
let pNext: usize = 0; // i32: per observation, the next scorable observation of its task (progressScore)
let pEnvDirty: usize = 0; // u8[E]: ref_env sum to recompute
/** Residual generation: bumped whenever cached residuals are forgotten. */
let pGen: i32 = 0;
// progressScore's per-task sums cover the scorable residuals of observations [0, pSumObs) of
// generation pSumGen: scoring a later step only adds the new ones (a prefix, steps ascending).
let pSumObs: i32 = 0;
let pSumGen: i32 = -1;

export function progressInitForGraph(): void {
  pDim = DENSE + gCats;
  pXtX = allocF64(pDim * pDim);
  pXty = allocF64(pDim);
  pA = allocF64(pDim * pDim);
  pBeta = allocF64(pDim);
  pFeatIdx = heap.alloc(7 << 2);
  pFeatVal = heap.alloc(7 << 3);
  pEnvDirty = allocU8(gE);
  pCap = 0;
  progressReset();
}

/** Forgets every residual (new history, or a different lambda_ridge). */
export function progressReset(): void {
  pTransitions = 0;
  pStepsDone = 0;
  pLambda = NaN;
  pGen++;
  const dd = pDim * pDim;
  for (let a = 0; a < dd; a++) setF64(pXtX, a, 0.0);
  for (let a = 0; a < pDim; a++) setF64(pXty, a, 0.0);
}

function ensureCapacity(): void {
  if (pCap >= hObsCap) return;
  const cap = hObsCap;
  const resid = allocF64(cap);
  const scorable = allocU8(cap);
  const next = heap.alloc(<usize>cap << 2);
  if (pCap > 0) {
    memory.copy(resid, pResid, <usize>pCap << 3);
    memory.copy(scorable, pScorable, <usize>pCap);
    memory.copy(next, pNext, <usize>pCap << 2);
  }
  pNext = next;
  pResid = resid;
  pScorable = scorable;
  pCap = cap;
}

/** Features of the transition ending at observation k (previous observation p). */
function features(k: i32, p: i32): void {
  const m1 = getF64(hObsM, p);
  setI32(pFeatIdx, 0, 0);
  setF64(pFeatVal, 0, 1.0);
  setI32(pFeatIdx, 1, 1);
  setF64(pFeatVal, 1, m1);
  setI32(pFeatIdx, 2, 2);
  setF64(pFeatVal, 2, m1 * m1);
  setI32(pFeatIdx, 3, 3);
  setF64(pFeatVal, 3, getF64(hObsV, p));
  setI32(pFeatIdx, 4, 4);
  setF64(pFeatVal, 4, <f64>getI32(hObsStep, p) / 100.0);
  setI32(pFeatIdx, 5, 5);
  setF64(pFeatVal, 5, Math.log(<f64>(1 + getI32(hObsNth, p))));
  setI32(pFeatIdx, 6, DENSE + getI32(gEnvCat, getI32(gTaskEnv, getI32(hObsTask, k))));
  setF64(pFeatVal, 6, 1.0);
}

/**
 * beta = (X'X + lambda diag(0, 1, ..., 1))^-1 X'y by Gaussian elimination with partial pivoting
 * (the system is positive definite, see docs). Same operation order as the TS reference, so both
 * give the same bits from the same X'X.
 */
function solveRidge(lambda: f64): void {
  const D = pDim;
  for (let a = 0; a < D * D; a++) setF64(pA, a, getF64(pXtX, a));
  for (let a = 0; a < D; a++) setF64(pBeta, a, getF64(pXty, a));
  for (let a = 1; a < D; a++) setF64(pA, a * D + a, getF64(pA, a * D + a) + lambda);
  for (let col = 0; col < D; col++) {
    let pivot = col;
    for (let r = col + 1; r < D; r++) {
      if (Math.abs(getF64(pA, r * D + col)) > Math.abs(getF64(pA, pivot * D + col))) pivot = r;
    }
    if (getF64(pA, pivot * D + col) == 0.0) abort('progress filter: singular ridge system');
    if (pivot != col) {
      for (let c = 0; c < D; c++) {
        const x = getF64(pA, pivot * D + c);
        setF64(pA, pivot * D + c, getF64(pA, col * D + c));
        setF64(pA, col * D + c, x);
      }
      const y = getF64(pBeta, pivot);
      setF64(pBeta, pivot, getF64(pBeta, col));
      setF64(pBeta, col, y);
    }
    const diag = getF64(pA, col * D + col);
    for (let r = col + 1; r < D; r++) {
      const factor = getF64(pA, r * D + col) / diag;
      if (factor == 0.0) continue;
      for (let c = col; c < D; c++) setF64(pA, r * D + c, getF64(pA, r * D + c) - factor * getF64(pA, col * D + c));
      setF64(pBeta, r, getF64(pBeta, r) - factor * getF64(pBeta, col));
    }
  }
  // back substitution in place: pBeta holds the eliminated right-hand side
  for (let r = D - 1; r >= 0; r--) {
    let sum = getF64(pBeta, r);
    for (let c = r + 1; c < D; c++) sum -= getF64(pA, r * D + c) * getF64(pBeta, c);
    setF64(pBeta, r, sum / getF64(pA, r * D + r));
  }
}

/** Brings the cached residuals up to every stored step. */
export function progressUpdate(): void {
  const lambda = cfg(CFG_LAMBDA_RIDGE);
  if (lambda != pLambda) {
    progressReset();
    pLambda = lambda;
  }
  ensureCapacity();
  const D = pDim;
  for (let s = pStepsDone; s < hStepCount; s++) {
    const first = getI32(hStepFirst, s);
    const end = first + getI32(hStepSize, s);
    const scorable = pTransitions >= MIN_FIT;
    let fitted = false;
    // residuals of the transitions ending at this step, from the fit on earlier ones
    for (let k = first; k < end; k++) {
      setU8(pScorable, k, 0);
      setF64(pResid, k, 0.0);
      const p = getI32(hObsPrev, k);
      if (p < 0 || !scorable) continue;
      if (!fitted) {
        solveRidge(lambda);
        fitted = true;
      }
      features(k, p);
      let dot = 0.0;
      for (let a = 0; a < 7; a++) dot += getF64(pFeatVal, a) * getF64(pBeta, getI32(pFeatIdx, a));
      setF64(pResid, k, getF64(hObsM, k) - dot);
      setU8(pScorable, k, 1);
    }
    // then they join the fit of later steps
    for (let k = first; k < end; k++) {
      const p = getI32(hObsPrev, k);
      if (p < 0) continue;
      features(k, p);
      const y = getF64(hObsM, k);
      for (let a = 0; a < 7; a++) {
        const ia = getI32(pFeatIdx, a);
        const va = getF64(pFeatVal, a);
        for (let b = 0; b < 7; b++) {
          const at = ia * D + getI32(pFeatIdx, b);
          setF64(pXtX, at, getF64(pXtX, at) + va * getF64(pFeatVal, b));
        }
        setF64(pXty, ia, getF64(pXty, ia) + va * y);
      }
      pTransitions++;
    }
  }
  pStepsDone = hStepCount;
}

/**
 * SPEC 8: p_i and the exclusion flags at step t from the residuals of observations [0, nObs).
 * R_i sums each task's residuals by step; ref_env sums the residuals of the tasks of env(i) task
 * by task (index order), each by step; ref_nb adds the per-task sums (sum, count) of N_in(i) then
 * N_cross(i) in list order (docs/spec-decisions.md: neighbours in list order, one addition per
 * neighbour; the TS reference associates the same way).
 */
export function progressScore(nObs: i32): void {
  if (pSumGen != pGen || nObs < pSumObs) {
    // residuals recomputed, or an earlier step scored: start the sums again
    for (let i = 0; i < gN; i++) {
      setI32(tRCnt, i, 0);
      setF64(tRSum, i, 0.0);
    }
    for (let e = 0; e < gE; e++) setU8(pEnvDirty, e, 1);
    pSumObs = 0;
    pSumGen = pGen;
  }
  // Per-task sums, adding the residuals in observation order = each task's residuals by step (the
  // same bits as summing its list from 0), and per-task chains first (tROff) -> last (tRFill)
  // through pNext, in step order, for ref_env.
  for (let k = pSumObs; k < nObs; k++) {
    if (getU8(pScorable, k) == 0) continue;
    const i = getI32(hObsTask, k);
    const c = getI32(tRCnt, i);
    if (c == 0) setI32(tROff, i, k);
    else setI32(pNext, getI32(tRFill, i), k);
    setI32(tRFill, i, k);
    setI32(tRCnt, i, c + 1);
    setF64(tRSum, i, getF64(tRSum, i) + getF64(pResid, k));
    setU8(pEnvDirty, getI32(gTaskEnv, i), 1);
  }
  pSumObs = nObs;
  // SPEC 8 ref_env: the residuals of the tasks of env(i), task by task (index order), each by step;
  // only environments with new residuals change
  for (let e = 0; e < gE; e++) {
    if (getU8(pEnvDirty, e) == 0) continue;
    setU8(pEnvDirty, e, 0);
    let sum = 0.0;
    let cnt = 0;
    for (let q = getI32(gEnvOff, e), qEnd = getI32(gEnvOff, e + 1); q < qEnd; q++) {
      const i = getI32(gEnvTasks, q);
      const c = getI32(tRCnt, i);
      let k = getI32(tROff, i);
      for (let r = 0; r < c; r++) {
        sum += getF64(pResid, k);
        k = getI32(pNext, k);
      }
      cnt += c;
    }
    setF64(eRSum, e, sum);
    setI32(eRCnt, e, cnt);
  }
  for (let i = 0; i < gN; i++) setU8(oExcluded, i, 0);
  const kappa = cfg(CFG_KAPPA);
  const kw = max<i32>(cfgInt(CFG_K_WITHIN), 0);
  for (let i = 0; i < gN; i++) {
    const cnt = getI32(tRCnt, i);
    if (cnt < 3) continue; // never excluded with fewer than 3 residuals
    const e = getI32(gTaskEnv, i);
    const ecnt = getI32(eRCnt, e);
    const refEnv = ecnt > 0 ? getF64(eRSum, e) / <f64>ecnt : 0.0;
    let nbSum = 0.0;
    let nbCnt = 0;
    // SPEC 8 ref_nb: N_in(i) then N_cross(i), list order (their slots, neighbours.ts), one
    // per-task sum per neighbour that has residuals
    const from = getI32(nbOff, i);
    const crossFrom = from + min<i32>(kw, getI32(gWOff, i + 1) - getI32(gWOff, i));
    for (let part = 0; part < 2; part++) {
      const qFrom = part == 0 ? from : crossFrom;
      const qEnd = qFrom + getI32(part == 0 ? nbInCnt : nbCrCnt, i);
      for (let q = qFrom; q < qEnd; q++) {
        const j = getI32(nbIdx, q);
        const c = getI32(tRCnt, j);
        if (c == 0) continue;
        nbSum += getF64(tRSum, j);
        nbCnt += c;
      }
    }
    const refNb = nbCnt > 0 ? nbSum / <f64>nbCnt : 0.0;
    const pi = (getF64(tRSum, i) + kappa * (0.5 * refEnv + 0.5 * refNb)) / (<f64>cnt + kappa);
    if (pi <= 0.0) setU8(oExcluded, i, 1);
  }
}
