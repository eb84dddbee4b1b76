// SPEC 3-5 for both half-lives at once (references, centred histories, relation estimates over
// the neighbour sets of ./neighbours, fusion, calibrated u), and the selection counts at step t
// that SPEC 6 and the identifier filter read (gatherCounts). Reference: src/reference/predict.ts.
import { cfg, cfgInt } from './config';
import { CFG_K_CROSS, CFG_K_WITHIN, CFG_LAMBDA_G, CFG_LAMBDA_S, CFG_PRIOR, CFG_W_CROSS, CFG_W_IN, PRIOR_CROSS_ONLY, PRIOR_WITHIN_ONLY } from './layout';
import { gE, gN, gTaskEnv, gWOff } from './graph';
import { hGen, hObsCount, hObsD, hObsM, hObsRemoves, hObsStep, hObsStepIdx, hObsTask, hObsV, hSlotCount, hTaskSlot, hStepSize, hStepSumD, hStepSumM, hStepSumV, hStepValue } from './history';
import { clip, getF64, getI32, getU8, setF64, setI32, setU8 } from './mem';
import { sortedIdx } from '../common/sort';
import { percentileRanks, quantile } from './rank';
import {
  eR, eX, nbCrCnt, nbIdx, nbInCnt, nbKer, nbOff, oReference, oRemoved,
  gCross, gIn, oLongD, oLongM, oLongU, oLongV, oShortD, oShortM, oShortU, oShortV,
  sBd, sBm, sBv, sW, sWShort, tBlankRow, tCount, tF, tFShort, tLastStep, tPr1, tPr2, tRow, tRun, tRunRaw, tSortedV,
} from './state';

// gatherCounts covers observations [0, gcObs) of history generation gcGen: the observations used
// at t are a prefix (steps ascending), so scoring a later step only adds the new ones.
let gcObs: i32 = 0;
let gcGen: i32 = -1;

/**
 * The observations of steps s < t (a prefix of the history): c_i, the latest step and the run of
 * consecutive selections ending there (rule 4), X_e, R_e (SPEC 6) and the identifier filter's
 * removals (SPEC 8). Everything but R_e and the run's t - 1 test is a function of the prefix, kept
 * across scores and extended by the new observations (rebuilt when the prefix shrinks or the
 * history was cleared).
 */
export function gatherCounts(t: i32, nObs: i32): void {
  if (gcGen != hGen || nObs < gcObs || gcObs > hObsCount) {
    for (let i = 0; i < gN; i++) {
      setI32(tCount, i, 0);
      setI32(tLastStep, i, -1);
      setI32(tRunRaw, i, 0);
      setU8(oRemoved, i, 0);
    }
    for (let e = 0; e < gE; e++) setI32(eX, e, 0);
    gcObs = 0;
    gcGen = hGen;
  }
  for (let k = gcObs; k < nObs; k++) {
    const i = getI32(hObsTask, k);
    const s = getI32(hObsStep, k);
    const e = getI32(gTaskEnv, i);
    setI32(tCount, i, getI32(tCount, i) + 1);
    setI32(tRunRaw, i, getI32(tLastStep, i) == s - 1 ? getI32(tRunRaw, i) + 1 : 1);
    setI32(tLastStep, i, s);
    setI32(eX, e, getI32(eX, e) + 1);
    if (getU8(hObsRemoves, k) != 0) setU8(oRemoved, i, 1);
  }
  gcObs = nObs;
  // R_e: the observations at steps t - 1 and t - 2, the end of the prefix
  for (let e = 0; e < gE; e++) setI32(eR, e, 0);
  for (let k = nObs - 1; k >= 0; k--) {
    const s = getI32(hObsStep, k);
    if (s < t - 2) break;
    if (s == t - 1 || s == t - 2) {
      const e = getI32(gTaskEnv, getI32(hObsTask, k));
      setI32(eR, e, getI32(eR, e) + 1);
    }
  }
  // a run only counts when it reaches t - 1
  for (let i = 0; i < gN; i++) {
    setI32(tRun, i, getI32(tLastStep, i) == t - 1 ? getI32(tRunRaw, i) : 0);
  }
}

/** SPEC 3: step weights w(t, s), step references b_s and B_t for half-life h (steps ascending). */
function references(h: f64, t: i32, nSteps: i32, sWh: usize, refAt: i32): void {
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
    setF64(sWh, s, w);
    setF64(sBv, s, bv);
    setF64(sBm, s, bm);
    setF64(sBd, s, bd);
    sumW += w;
    sumV += w * bv;
    sumM += w * bm;
    sumD += w * bd;
  }
  if (sumW == 0.0 && nSteps > 0) {
    // Every w(t, s) underflowed (the newest step is ~1,074+ half-lives before t). B_t is a ratio
    // that does not depend on t, so evaluate it at t' = the newest step: its exact value
    // (docs/spec-decisions.md). The stored step weights stay literal: W_i uses them.
    const newest = getI32(hStepValue, nSteps - 1);
    for (let s = 0; s < nSteps; s++) {
      const w = Math.pow(2.0, -<f64>(newest - getI32(hStepValue, s)) / h);
      sumW += w;
      sumV += w * getF64(sBv, s);
      sumM += w * getF64(sBm, s);
      sumD += w * getF64(sBd, s);
    }
  }
  setF64(oReference, refAt, sumV / sumW);
  setF64(oReference, refAt + 1, sumM / sumW);
  setF64(oReference, refAt + 2, sumD / sumW);
}

/**
 * ybar_i of the observed tasks whose every weight w(t, s) underflowed (W_i = 0, half-life slot
 * `hl`): the ratio does not depend on t, so it is evaluated at t' = the task's newest step, in
 * the same order as the literal sum (docs/spec-decisions.md). Called only when some observed
 * task has W_i = 0: a gap of ~1,074+ half-lives, or a task first observed at or after t (then
 * ybar_i = B_t). tPr1 / tPr2 are free scratch here.
 */
function underflowedHistories(h: f64, hl: i32, nObs: i32, nSlots: i32): void {
  const Bv = getF64(oReference, hl * 3);
  const Bm = getF64(oReference, hl * 3 + 1);
  const Bd = getF64(oReference, hl * 3 + 2);
  for (let slot = 0; slot < nSlots; slot++) {
    if (load<f64>(fieldAt(rowAt(slot), hl, F_W)) == 0.0) setF64(tPr2, slot, 0.0);
  }
  for (let k = 0; k < nObs; k++) {
    const slot = getI32(hTaskSlot, getI32(hObsTask, k));
    if (load<f64>(fieldAt(rowAt(slot), hl, F_W)) == 0.0) setF64(tPr1, slot, <f64>getI32(hObsStep, k)); // steps ascending: ends at the newest
  }
  for (let k = 0; k < nObs; k++) {
    const slot = getI32(hTaskSlot, getI32(hObsTask, k));
    const at = rowAt(slot) + (<usize>hl << 3);
    if (load<f64>(at, 0) != 0.0) continue;
    const s = getI32(hObsStepIdx, k);
    const w = Math.pow(2.0, -(getF64(tPr1, slot) - <f64>getI32(hObsStep, k)) / h);
    setF64(tPr2, slot, getF64(tPr2, slot) + w);
    store<f64>(at, load<f64>(at, 16) + w * clip(getF64(hObsV, k) - getF64(sBv, s) + Bv, 0.0, 0.25), 16);
    store<f64>(at, load<f64>(at, 32) + w * clip(getF64(hObsM, k) - getF64(sBm, s) + Bm, 0.0, 1.0), 32);
    store<f64>(at, load<f64>(at, 48) + w * clip(getF64(hObsD, k) - getF64(sBd, s) + Bd, 0.0, 1.0), 48);
  }
  for (let slot = 0; slot < nSlots; slot++) {
    const at = rowAt(slot) + (<usize>hl << 3);
    if (load<f64>(at, 0) != 0.0) continue;
    const den = getF64(tPr2, slot);
    // den = 0: the slot's task is observed only at steps >= t (an earlier step is being scored),
    // so it has no history before t: ybar_i = B_t (SPEC 3)
    store<f64>(at, den > 0.0 ? load<f64>(at, 16) / den : Bv, 16);
    store<f64>(at, den > 0.0 ? load<f64>(at, 32) / den : Bm, 32);
    store<f64>(at, den > 0.0 ? load<f64>(at, 48) / den : Bd, 48);
  }
}

// Per observed task, both half-lives side by side in one 64-byte row, interleaved by statistic:
// [W, v, m, d] x [long, short] = W_L W_S v_L v_S m_L m_S d_L d_S. A neighbour's row is one cache
// line, read once for both half-lives, and each statistic's pair is one f64x2 (lane 0 long, lane 1
// short): lane-wise IEEE add/mul/min/max round exactly like the scalar operations, and each lane
// keeps its own summation order, so the SIMD code gives the scalar code's bits. Rows are indexed by
// the task's slot (order of first observation, history.ts): neighbours are always observed tasks,
// so on a large pool with few observed tasks the rows the relation loop reads stay in cache.
// Once the ybar pass is done, W holds clip[0.1, 3](W) (all the relation loop reads of it) and the
// raw W of the fusion waits in tPr1 / tPr2 by slot.
// @ts-ignore: decorator
@inline function rowAt(slot: i32): usize {
  return tRow + (<usize>slot << 6);
}
const F_W: i32 = 0;
const F_V: i32 = 1;
const F_M: i32 = 2;
const F_D: i32 = 3;
/** Address of statistic f (F_W, F_V, F_M, F_D) of half-life hl (0 long, 1 short) in a row. */
// @ts-ignore: decorator
@inline function fieldAt(row: usize, hl: i32, f: i32): usize {
  return row + (<usize>f << 4) + (<usize>hl << 3);
}

/**
 * SPEC 4: one relation's neighbours [from, to) of both half-lives (lane 0 long, lane 1 short):
 * the pairs G^v, G^m, G^d into out (bytes 0, 16, 32). `lg2` is lambda_G in both lanes, `lgB*` the
 * products lambda_G * B_t and `b*` the pairs B_t: (sum a y + lambda_G B_t) / (sum a + lambda_G)
 * lane by lane, the scalar operations in the scalar order (f64x2.div is the IEEE division).
 */
// @ts-ignore: decorator
@inline function relation(
  from: i32, to: i32, lg2: v128, lgBv: v128, lgBm: v128, lgBd: v128, bv: v128, bm: v128, bd: v128, out: usize,
): void {
  if (to <= from) {
    // SPEC 4: an empty relation gives B_t
    v128.store(out, bv, 0);
    v128.store(out, bm, 16);
    v128.store(out, bd, 32);
    return;
  }
  let sa = f64x2.splat(0.0);
  let sv = f64x2.splat(0.0);
  let sm = f64x2.splat(0.0);
  let sd = f64x2.splat(0.0);
  // the buffers' addresses in locals: read once, not once per neighbour
  const idx = nbIdx;
  const ker = nbKer;
  const slotOf = hTaskSlot;
  const rows = tRow;
  for (let p = from; p < to; p++) {
    const row = rows + (<usize>getI32(slotOf, getI32(idx, p)) << 6);
    // a_ij = kernel * clip[0.1, 3](W_j), per half-life (the row holds W_j already clipped)
    const a = f64x2.mul(f64x2.splat(getF64(ker, p)), v128.load(row, 0));
    sa = f64x2.add(sa, a);
    sv = f64x2.add(sv, f64x2.mul(a, v128.load(row, 16)));
    sm = f64x2.add(sm, f64x2.mul(a, v128.load(row, 32)));
    sd = f64x2.add(sd, f64x2.mul(a, v128.load(row, 48)));
  }
  const den = f64x2.add(sa, lg2);
  v128.store(out, f64x2.div(f64x2.add(sv, lgBv), den), 0);
  v128.store(out, f64x2.div(f64x2.add(sm, lgBm), den), 16);
  v128.store(out, f64x2.div(f64x2.add(sd, lgBd), den), 32);
}

/**
 * SPEC 3-5 for both half-lives at step t over the first nSteps stored steps / nObs observations:
 * B_t (reference slots), yhat (v, m, d) and u per half-life, into the output arrays.
 */
export function predictBothHalfLives(hLong: f64, hShort: f64, t: i32, nSteps: i32, nObs: i32): void {
  references(hShort, t, nSteps, sWShort, 3);
  references(hLong, t, nSteps, sW, 0); // leaves sBv/sBm/sBd (h-independent) filled either way
  const BvL = getF64(oReference, 0);
  const BmL = getF64(oReference, 1);
  const BdL = getF64(oReference, 2);
  const BvS = getF64(oReference, 3);
  const BmS = getF64(oReference, 4);
  const BdS = getF64(oReference, 5);

  // SPEC 3: centred, clipped observations; W_i and ybar_i (histories by step ascending)
  const nSlots = hSlotCount;
  memory.fill(tRow, 0, <usize>nSlots << 6);
  // lanes: (long, short); (y - b_s) + B_t, clipped, times w(t, s): the scalar order, per lane
  const Bv = f64x2(BvL, BvS);
  const Bm = f64x2(BmL, BmS);
  const Bd = f64x2(BdL, BdS);
  const zero = f64x2.splat(0.0);
  const one = f64x2.splat(1.0);
  const quarter = f64x2.splat(0.25);
  for (let k = 0; k < nObs; k++) {
    const row = rowAt(getI32(hTaskSlot, getI32(hObsTask, k)));
    const s = getI32(hObsStepIdx, k);
    const w = f64x2.replace_lane(f64x2.splat(getF64(sW, s)), 1, getF64(sWShort, s));
    const cv = f64x2.min(f64x2.max(f64x2.add(f64x2.splat(getF64(hObsV, k) - getF64(sBv, s)), Bv), zero), quarter);
    const cm = f64x2.min(f64x2.max(f64x2.add(f64x2.splat(getF64(hObsM, k) - getF64(sBm, s)), Bm), zero), one);
    const cd = f64x2.min(f64x2.max(f64x2.add(f64x2.splat(getF64(hObsD, k) - getF64(sBd, s)), Bd), zero), one);
    v128.store(row, f64x2.add(v128.load(row, 0), w), 0);
    v128.store(row, f64x2.add(v128.load(row, 16), f64x2.mul(w, cv)), 16);
    v128.store(row, f64x2.add(v128.load(row, 32), f64x2.mul(w, cm)), 32);
    v128.store(row, f64x2.add(v128.load(row, 48), f64x2.mul(w, cd)), 48);
  }
  let underflowLong = false;
  let underflowShort = false;
  for (let slot = 0; slot < nSlots; slot++) {
    const row = rowAt(slot);
    for (let hl = 0; hl < 2; hl++) {
      const at = row + (<usize>hl << 3);
      const W = load<f64>(at, 0);
      if (W > 0.0) {
        store<f64>(at, load<f64>(at, 16) / W, 16);
        store<f64>(at, load<f64>(at, 32) / W, 32);
        store<f64>(at, load<f64>(at, 48) / W, 48);
      } else if (hl == 0) {
        underflowLong = true;
      } else {
        underflowShort = true;
      }
    }
  }
  if (underflowLong) underflowedHistories(hLong, 0, nObs, nSlots);
  if (underflowShort) underflowedHistories(hShort, 1, nObs, nSlots);
  // The relation loop reads W_j of ~K_within + K_cross neighbours per task, always as
  // clip[0.1, 3](W_j): clip each row's W once here (the same operation on the same value, so the
  // same bits) and keep the raw W of the fusion in tPr1 / tPr2 (free scratch until calibrate).
  const lo = f64x2.splat(0.1);
  const hi = f64x2.splat(3.0);
  for (let slot = 0; slot < nSlots; slot++) {
    const row = rowAt(slot);
    const W = v128.load(row, 0);
    setF64(tPr1, slot, f64x2.extract_lane(W, 0));
    setF64(tPr2, slot, f64x2.extract_lane(W, 1));
    v128.store(row, f64x2.min(f64x2.max(W, lo), hi), 0);
  }

  // SPEC 4-5: relation estimates, prior, fused estimate, f
  const blankRow = tBlankRow; // W (lanes 0-1) unused: the fusion takes W = 0 for it
  for (let hl = 0; hl < 2; hl++) {
    const at = blankRow + (<usize>hl << 3);
    store<f64>(at, 0.0, 0);
    store<f64>(at, getF64(oReference, hl * 3), 16);
    store<f64>(at, getF64(oReference, hl * 3 + 1), 32);
    store<f64>(at, getF64(oReference, hl * 3 + 2), 48);
  }
  const lg = cfg(CFG_LAMBDA_G);
  const ls = cfg(CFG_LAMBDA_S);
  const wIn = cfg(CFG_W_IN);
  const wCross = cfg(CFG_W_CROSS);
  const prior = cfgInt(CFG_PRIOR);
  const kw = max<i32>(cfgInt(CFG_K_WITHIN), 0);
  // lane pairs (long, short) of the loop invariants: the same values the scalar code computes
  const lg2 = f64x2.splat(lg);
  const lgBv = f64x2.mul(lg2, Bv);
  const lgBm = f64x2.mul(lg2, Bm);
  const lgBd = f64x2.mul(lg2, Bd);
  const ls2 = f64x2.splat(ls);
  const wIn2 = f64x2.splat(wIn);
  const wCross2 = f64x2.splat(wCross);
  for (let i = 0; i < gN; i++) {
    // SPEC 4: N_in(i) then N_cross(i) in their slots (neighbours.ts)
    const from = getI32(nbOff, i);
    const crossFrom = from + min<i32>(kw, getI32(gWOff, i + 1) - getI32(gWOff, i));
    relation(from, from + getI32(nbInCnt, i), lg2, lgBv, lgBm, lgBd, Bv, Bm, Bd, gIn);
    relation(crossFrom, crossFrom + getI32(nbCrCnt, i), lg2, lgBv, lgBm, lgBd, Bv, Bm, Bd, gCross);
    // a task not observed before t has W_i = 0 and ybar_i = B_t (SPEC 3): the blank row
    const slot = getI32(hTaskSlot, i);
    const row = slot >= 0 ? rowAt(slot) : blankRow;
    const W = slot >= 0 ? f64x2.replace_lane(f64x2.splat(getF64(tPr1, slot)), 1, getF64(tPr2, slot)) : f64x2.splat(0.0);
    // SPEC 4 prior, then SPEC 5 fusion, both half-lives lane by lane
    let pv: v128, pm: v128, pd: v128;
    if (prior == PRIOR_WITHIN_ONLY) {
      pv = v128.load(gIn, 0);
      pm = v128.load(gIn, 16);
      pd = v128.load(gIn, 32);
    } else if (prior == PRIOR_CROSS_ONLY) {
      pv = v128.load(gCross, 0);
      pm = v128.load(gCross, 16);
      pd = v128.load(gCross, 32);
    } else {
      pv = f64x2.add(f64x2.mul(wIn2, v128.load(gIn, 0)), f64x2.mul(wCross2, v128.load(gCross, 0)));
      pm = f64x2.add(f64x2.mul(wIn2, v128.load(gIn, 16)), f64x2.mul(wCross2, v128.load(gCross, 16)));
      pd = f64x2.add(f64x2.mul(wIn2, v128.load(gIn, 32)), f64x2.mul(wCross2, v128.load(gCross, 32)));
    }
    const den = f64x2.add(W, ls2);
    const vh = f64x2.div(f64x2.add(f64x2.mul(W, v128.load(row, 16)), f64x2.mul(ls2, pv)), den);
    const mh = f64x2.div(f64x2.add(f64x2.mul(W, v128.load(row, 32)), f64x2.mul(ls2, pm)), den);
    const dh = f64x2.div(f64x2.add(f64x2.mul(W, v128.load(row, 48)), f64x2.mul(ls2, pd)), den);
    const f = f64x2.mul(f64x2.mul(dh, mh), f64x2.sub(one, mh));
    setF64(oLongV, i, f64x2.extract_lane(vh, 0));
    setF64(oShortV, i, f64x2.extract_lane(vh, 1));
    setF64(oLongM, i, f64x2.extract_lane(mh, 0));
    setF64(oShortM, i, f64x2.extract_lane(mh, 1));
    setF64(oLongD, i, f64x2.extract_lane(dh, 0));
    setF64(oShortD, i, f64x2.extract_lane(dh, 1));
    setF64(tF, i, f64x2.extract_lane(f, 0));
    setF64(tFShort, i, f64x2.extract_lane(f, 1));
  }
  calibrate(oLongV, tF, oLongU);
  calibrate(oShortV, tFShort, oShortU);
}

/** SPEC 5: u = Q(0.65 pr(vhat) + 0.35 pr(f)). */
function calibrate(vhat: usize, f: usize, outU: usize): void {
  const n = gN;
  percentileRanks(vhat, tPr1, n);
  const idx = sortedIdx;
  for (let p = 0; p < n; p++) setF64(tSortedV, p, getF64(vhat, getI32(idx, p)));
  percentileRanks(f, tPr2, n);
  for (let i = 0; i < n; i++) {
    setF64(outU, i, quantile(tSortedV, n, 0.65 * getF64(tPr1, i) + 0.35 * getF64(tPr2, i)));
  }
}
