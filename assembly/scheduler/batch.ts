// SPEC 6 (batch selection) and SPEC 7 (cold start). The batch similarity penalty
// max_{j in Bt} S_full(i, j) is maintained incrementally: adding j touches only the tasks whose
// S_full(i, j) is listed (SPEC 1 lookup via the transposed lists); every other pair is 0.
import { cfg, cfgInt } from './config';
import {
  gE, gEnvOff, gEnvTasks, gFFallback, gMinPenalty, gFIdx, gFOff, gFSim, gFTIdx, gFTOff, gFTSim, gN, gTaskEnv,
  gWMirror, gWMirrorSim, gWOff, gWSim,
} from './graph';
import {
  CFG_B, CFG_C0, CFG_C1, CFG_C3, CFG_C_TASK, CFG_LAMBDA_SIM, CFG_RHO, INFO_BATCH_LENGTH, INFO_RELAXED0, INFO_RELAXED_COUNT,
  PHASE_COLD_START, PHASE_COVERAGE, PHASE_EXPLOITATION, RELAX_C1, RELAX_C3, RELAX_C_TASK,
} from './layout';
import { getF64, getI32, getU8, setF64, setI32, setU8 } from './mem';
import { sortByKey, sortedIdx } from '../common/sort';
import {
  coverGroupEnd, coverOrder, eAvail, eMinC, eN, eR, eX, exploitGroupEnd, exploitOrder, tNegQ, oBatchPhase, oBatchTask, oExcluded, oInfo, oQ,
  oRemoved, tBaseScore,
  tCount, tInBatch, tNegBase, tOmega, tPen, tPenSame, tRun, tTouched, tTouchedSame,
} from './state';

let batchLen: i32 = 0;

function resetBatch(): void {
  batchLen = 0;
  for (let i = 0; i < gN; i++) {
    setU8(tInBatch, i, 0);
    setF64(tPen, i, -Infinity);
    setI32(tTouched, i, 0);
    setF64(tPenSame, i, -Infinity);
    setI32(tTouchedSame, i, 0);
  }
  for (let e = 0; e < gE; e++) setI32(eN, e, 0);
  setI32(oInfo, INFO_BATCH_LENGTH, 0);
  setI32(oInfo, INFO_RELAXED_COUNT, 0);
}

// @ts-ignore: decorator
@inline function touch(i: i32, s: f64, same: bool): void {
  if (s > getF64(tPen, i)) setF64(tPen, i, s);
  setI32(tTouched, i, getI32(tTouched, i) + 1);
  if (same) {
    if (s > getF64(tPenSame, i)) setF64(tPenSame, i, s);
    setI32(tTouchedSame, i, getI32(tTouchedSame, i) + 1);
  }
}

/** Adds task j to the batch and updates n_e and the penalties of the tasks it is listed with. */
function addToBatch(j: i32, phase: u8): void {
  setI32(oBatchTask, batchLen, j);
  setU8(oBatchPhase, batchLen, phase);
  batchLen++;
  setI32(oInfo, INFO_BATCH_LENGTH, batchLen);
  setU8(tInBatch, j, 1);
  const ej = getI32(gTaskEnv, j);
  setI32(eN, ej, getI32(eN, ej) + 1);
  setI32(eAvail, ej, getI32(eAvail, ej) - 1); // j passed rules 1, 4, 5 (cold start: recounted later)
  // same environment: S_full(i, j) is the value of j in within(i), found through the mirror
  // (slot k of j = the k-th other task of env(j) in env order, graph.ts)
  let slot = getI32(gWOff, j);
  const mirrorSim = gWMirrorSim; // the same values, read in a run (graph.ts)
  for (let p = getI32(gEnvOff, ej), end = getI32(gEnvOff, ej + 1); p < end; p++) {
    const i = getI32(gEnvTasks, p);
    if (i == j) continue;
    touch(i, mirrorSim != 0 ? getF64(mirrorSim, slot) : getF64(gWSim, getI32(gWMirror, slot)), true);
    slot++;
  }
  // other environments: the value of j in fullCross(i) ...
  for (let p = getI32(gFTOff, j), end = getI32(gFTOff, j + 1); p < end; p++) {
    touch(getI32(gFTIdx, p), getF64(gFTSim, p), false);
  }
  // ... failing that, the value of i in fullCross(j)
  for (let p = getI32(gFOff, j), end = getI32(gFOff, j + 1); p < end; p++) {
    if (getU8(gFFallback, p) != 0) touch(getI32(gFIdx, p), getF64(gFSim, p), false);
  }
}

/** max_{j in Bt} S_full(i, j): pairs without a listed value count as 0; 0 for an empty batch. */
// @ts-ignore: decorator
@inline function penalty(i: i32): f64 {
  if (batchLen == 0) return 0.0;
  const p = getF64(tPen, i);
  return getI32(tTouched, i) < batchLen ? max<f64>(p, 0.0) : p;
}

// ---------------------------------------------------------------------------------------------
// SPEC 6

let relaxCTask = false;
let relaxC3 = false;
let relaxC1 = false;

function recordRelaxed(code: i32): void {
  const n = getI32(oInfo, INFO_RELAXED_COUNT);
  setI32(oInfo, INFO_RELAXED0 + n, code);
  setI32(oInfo, INFO_RELAXED_COUNT, n + 1);
}

/** Relaxes the next rule (4, then 3, then 2); false when every rule is already relaxed. */
function relaxNext(): bool {
  if (!relaxCTask) {
    relaxCTask = true;
    recordRelaxed(RELAX_C_TASK);
    countAvailable();
    return true;
  }
  if (!relaxC3) {
    relaxC3 = true;
    recordRelaxed(RELAX_C3);
    return true;
  }
  if (!relaxC1) {
    relaxC1 = true;
    recordRelaxed(RELAX_C1);
    return true;
  }
  return false;
}

let capC1: i32 = 0;
let capC3: i32 = 0;
let capCTask: i32 = 0;

/** Rules 2 and 3 of an environment (per-environment part of the eligibility). */
// @ts-ignore: decorator
@inline function envOpen(e: i32): bool {
  const ne = getI32(eN, e);
  if (!relaxC1 && ne >= capC1) return false;
  if (!relaxC3 && getI32(eR, e) + ne >= capC3) return false;
  return true;
}

/** Rules 1, 4 and 5 (per-task part of the eligibility). */
// @ts-ignore: decorator
@inline function taskOpen(i: i32): bool {
  if (getU8(tInBatch, i) != 0 || getU8(oRemoved, i) != 0) return false;
  return relaxCTask || getI32(tRun, i) < capCTask;
}

/** eAvail[e] = tasks of e passing rules 1, 4, 5 and eMinC[e] their smallest c_i (recounted when
 *  rule 4 relaxes and for the environment of each pick). */
function countEnv(e: i32): void {
  let n = 0;
  let minC = i32.MAX_VALUE;
  for (let p = getI32(gEnvOff, e), end = getI32(gEnvOff, e + 1); p < end; p++) {
    const i = getI32(gEnvTasks, p);
    if (!taskOpen(i)) continue;
    n++;
    minC = min<i32>(minC, getI32(tCount, i));
  }
  setI32(eAvail, e, n);
  setI32(eMinC, e, minC);
}

function countAvailable(): void {
  for (let e = 0; e < gE; e++) countEnv(e);
}

/** A coverage group of more tasks than this is searched in q order with the penalty bound. */
let largeGroup: i32 = 4096;

/** Test hook: the group size above which coverage searches in q order (both paths give the same batch). */
export function setLargeGroup(n: i32): void {
  largeGroup = n;
}
let coverOrderBuilt = false;

/** Tasks by q descending, index ascending among equal q (stable sort of -q), and the runs of equal q. */
function buildOrder(keys: usize, order: usize, groupEnd: usize): void {
  sortByKey(keys, gN);
  memory.copy(order, sortedIdx, <usize>gN << 2);
  let end = gN;
  for (let k = gN - 1; k >= 0; k--) {
    if (k + 1 < gN && getF64(keys, getI32(order, k + 1)) != getF64(keys, getI32(order, k))) end = k + 1;
    setI32(groupEnd, k, end);
  }
}

/**
 * Coverage pick: among eligible tasks keep the smallest n_e, then X_e, then c_i, and take the
 * argmax of q - lambda_sim * penalty (ties: lower index). The (n_e, X_e) minimum is found over
 * environments (those with an available task and open caps), so only the tasks of the winning
 * environments are scanned.
 */
function pickCoverage(lambdaSim: f64): i32 {
  let bestN = i32.MAX_VALUE;
  let bestX = i32.MAX_VALUE;
  let groupTasks = 0;
  let bestC = i32.MAX_VALUE;
  for (let e = 0; e < gE; e++) {
    if (getI32(eAvail, e) == 0 || !envOpen(e)) continue;
    const ne = getI32(eN, e);
    const xe = getI32(eX, e);
    if (ne < bestN || (ne == bestN && xe < bestX)) {
      bestN = ne;
      bestX = xe;
      groupTasks = 0;
      bestC = i32.MAX_VALUE;
    }
    if (ne == bestN && xe == bestX) {
      groupTasks += getI32(eAvail, e);
      bestC = min<i32>(bestC, getI32(eMinC, e));
    }
  }
  if (bestN == i32.MAX_VALUE) return -1;
  let best = -1;
  let bestScore = 0.0;
  if (groupTasks > largeGroup) {
    // Large group (big pools early on: every never-selected environment ties on n_e = X_e = 0).
    // Visit tasks by q descending; score <= q - lambda_sim * gMinPenalty, so once that bound is
    // below the best score nothing later can win; at equality, the rest of a run of equal q has
    // higher indices and loses the tie. Same result as scanning the group, bestC first.
    if (!coverOrderBuilt) {
      for (let i = 0; i < gN; i++) setF64(tNegQ, i, -getF64(oQ, i));
      buildOrder(tNegQ, coverOrder, coverGroupEnd);
      coverOrderBuilt = true;
    }
    const floor = lambdaSim * gMinPenalty;
    let k = 0;
    while (k < gN) {
      const i = getI32(coverOrder, k);
      const q = getF64(oQ, i);
      if (best >= 0) {
        const bound = q - floor;
        if (bound < bestScore) break;
        if (bound == bestScore && i > best) {
          k = getI32(coverGroupEnd, k);
          continue;
        }
      }
      k++;
      const e = getI32(gTaskEnv, i);
      if (getI32(tCount, i) != bestC || getI32(eN, e) != bestN || getI32(eX, e) != bestX || !taskOpen(i) || !envOpen(e)) continue;
      const score = q - lambdaSim * penalty(i);
      if (best < 0 || score > bestScore || (score == bestScore && i < best)) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  }
  for (let e = 0; e < gE; e++) {
    if (getI32(eN, e) != bestN || getI32(eX, e) != bestX || getI32(eAvail, e) == 0 || !envOpen(e)) continue;
    for (let p = getI32(gEnvOff, e), end = getI32(gEnvOff, e + 1); p < end; p++) {
      const i = getI32(gEnvTasks, p);
      if (getI32(tCount, i) != bestC || !taskOpen(i)) continue;
      const score = getF64(oQ, i) - lambdaSim * penalty(i);
      if (best < 0 || score > bestScore || (score == bestScore && i < best)) {
        best = i;
        bestScore = score;
      }
    }
  }
  return best;
}

/**
 * Exploitation pick: argmax q * omega - lambda_sim * penalty over eligible, non-excluded tasks.
 * Tasks are visited by q * omega descending (exploitOrder); the penalty is at least gMinPenalty,
 * so once q * omega - lambda_sim * gMinPenalty falls below the best score nothing later can win.
 * Both sides round monotonically, so the early stop is exact.
 */
function pickExploitation(lambdaSim: f64): i32 {
  let best = -1;
  let bestScore = 0.0;
  const floor = lambdaSim * gMinPenalty;
  let k = 0;
  while (k < gN) {
    const i = getI32(exploitOrder, k);
    const base = getF64(tBaseScore, i);
    if (best >= 0) {
      const bound = base - floor;
      if (bound < bestScore) break;
      // the rest of this run of equal q * omega has higher indices: none can win
      if (bound == bestScore && i > best) {
        k = getI32(exploitGroupEnd, k);
        continue;
      }
    }
    k++;
    if (getU8(oExcluded, i) != 0 || !taskOpen(i) || !envOpen(getI32(gTaskEnv, i))) continue;
    const score = base - lambdaSim * penalty(i);
    if (best < 0 || score > bestScore || (score == bestScore && i < best)) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

/** SPEC 6: the batch of step t from q, the counts and the filters (already in state). */
export function chooseBatch(): void {
  resetBatch();
  relaxCTask = false;
  relaxC3 = false;
  relaxC1 = false;
  capC1 = cfgInt(CFG_C1);
  capC3 = cfgInt(CFG_C3);
  capCTask = cfgInt(CFG_C_TASK);
  const B = cfgInt(CFG_B);
  const bCov = <i32>Math.floor(cfg(CFG_RHO) * <f64>B);
  const lambdaSim = cfg(CFG_LAMBDA_SIM);
  const c0 = cfg(CFG_C0);
  for (let i = 0; i < gN; i++) {
    // 1 / sqrt: sqrt is correctly rounded everywhere, pow(x, -0.5) is not
    const omega = 1.0 / Math.sqrt(1.0 + <f64>getI32(tCount, i) / c0);
    setF64(tOmega, i, omega);
    setF64(tBaseScore, i, getF64(oQ, i) * omega);
    setF64(tNegBase, i, -getF64(tBaseScore, i));
  }
  // visiting order of the exploitation pick: q * omega descending, index ascending (stable sort)
  buildOrder(tNegBase, exploitOrder, exploitGroupEnd);
  coverOrderBuilt = false;
  countAvailable();
  for (let k = 0; k < B; k++) {
    const coverage = k < bCov;
    let pick = -1;
    while (true) {
      pick = coverage ? pickCoverage(lambdaSim) : pickExploitation(lambdaSim);
      if (pick >= 0 || !relaxNext()) break;
    }
    if (pick < 0) break; // short batch
    addToBatch(pick, coverage ? PHASE_COVERAGE : PHASE_EXPLOITATION);
    countEnv(getI32(gTaskEnv, pick));
  }
}

// ---------------------------------------------------------------------------------------------
// SPEC 7

/** The cold-start batch: environment representatives, then greedy novelty. */
export function chooseColdStart(): void {
  resetBatch();
  const B = cfgInt(CFG_B);
  // 1. representatives in environment order: highest mean S_full within the environment
  for (let e = 0; e < gE && batchLen < B; e++) {
    let best = -1;
    let bestMean = 0.0;
    for (let p = getI32(gEnvOff, e), end = getI32(gEnvOff, e + 1); p < end; p++) {
      const i = getI32(gEnvTasks, p);
      const from = getI32(gWOff, i);
      const to = getI32(gWOff, i + 1);
      let mean = 0.0;
      if (to > from) {
        let sum = 0.0;
        for (let q = from; q < to; q++) sum += getF64(gWSim, q);
        mean = sum / <f64>(to - from);
      }
      if (best < 0 || mean > bestMean) {
        best = i;
        bestMean = mean;
      }
    }
    if (best >= 0) addToBatch(best, PHASE_COLD_START);
  }
  // 2. novelty, at most 2 per environment until that leaves no candidate
  let capped = true;
  while (batchLen < B) {
    let best = -1;
    let bestNovelty = 0.0;
    for (let i = 0; i < gN; i++) {
      if (getU8(tInBatch, i) != 0) continue;
      if (capped && getI32(eN, getI32(gTaskEnv, i)) >= 2) continue;
      const same = getI32(tTouchedSame, i) > 0 ? getF64(tPenSame, i) : 0.0;
      const novelty = 0.5 * (1.0 - penalty(i)) + 0.5 * (1.0 - same);
      if (best < 0 || novelty > bestNovelty) {
        best = i;
        bestNovelty = novelty;
      }
    }
    if (best < 0) {
      if (!capped) break;
      capped = false;
      continue;
    }
    addToBatch(best, PHASE_COLD_START);
  }
}
