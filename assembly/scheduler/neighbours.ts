// SPEC 4: the observed-neighbour sets N_in(i) (first K_within observed tasks of within(i)) and
// N_cross(i) (first K_cross observed of cross(i)) with their h-independent kernels
// exp(-0.5 (delta/sigma)^2), tracked incrementally ("fixed-capacity neighbour lists"):
//
// The sets depend only on which tasks are observed at t, and observations are a prefix of the
// stored history, so the lists of a task can change only when a task of within(i) or cross(i)
// changes status between the prefix the lists were built for and the prefix of this score. Those
// are the tasks whose FIRST observation lies between the two prefixes (either direction: scoring an
// earlier t un-observes them). Each such task j marks the tasks whose lists may contain it (the
// other tasks of env(j), and the transpose of cross); only marked tasks are rebuilt, from scratch,
// with the same arithmetic as a full build, so the result is bit-identical to rebuilding every task.
// Cost per step: O(new tasks x (env size + cross in-degree) x list length), not O(N x list length).
import { cfgInt, CFG_K_CROSS, CFG_K_WITHIN } from './config';
import { gCIdx, gCOff, gCSim, gCTIdx, gCTOff, gCTPos, gEnvOff, gEnvTasks, gN, gTaskEnv, gWIdx, gWMirror, gWOff, gWSim } from './graph';
import { hObsNth, hObsTask } from './history';
import { allocI32, clip, getF64, getI32, getU8, setF64, setI32, setU8 } from './mem';
import {
  ensureNeighbourCapacity, medScratch, nbCrCnt, nbDeltaScratch, nbDirty, nbDirtyList, nbIdx, nbInCnt, nbKer, nbOff, tCount,
} from './state';

let nbValid = false;
let nbKw: i32 = -1;
let nbKc: i32 = -1;
/** The lists were built for the observed set of the first nbTrackedObs stored observations. */
let nbTrackedObs: i32 = 0;
let nbDirtyCount: i32 = 0;
/** Tasks rebuilt by the latest update (diagnostics for tests and benches). */
export let nbLastRebuilt: i32 = 0;

// Per task, how far into within(i) / cross(i) a change of status can matter: one past the entry of
// the last taken neighbour when the list took K, else the whole list. A task at a later position
// cannot enter N_in(i) / N_cross(i) (the first K observed are found before it), and cannot leave it.
let nbFrontW: usize = 0; // i32[N]
let nbFrontC: usize = 0; // i32[N]

export function neighboursInitForGraph(): void {
  nbFrontW = allocI32(gN);
  nbFrontC = allocI32(gN);
  nbValid = false;
}

/** Forgets the lists (new graph, history cleared): the next update rebuilds every task. */
export function invalidateNeighbours(): void {
  nbValid = false;
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

/**
 * SPEC 4: the first `k` observed tasks of list(i) in list order into nbIdx[at..], their deltas
 * into nbDeltaScratch, and their kernels with the adaptive bandwidth sigma into nbKer[at..].
 * Returns how many were taken.
 */
function buildList(off: usize, idx: usize, sim: usize, i: i32, k: i32, at: i32, front: usize): i32 {
  let taken = 0;
  const from = getI32(off, i);
  const end = getI32(off, i + 1);
  let p = from;
  for (; p < end && taken < k; p++) {
    const j = getI32(idx, p);
    if (getI32(tCount, j) == 0) continue;
    setI32(nbIdx, at + taken, j);
    const delta = clip(1.0 - getF64(sim, p), 0.0, 1.0);
    setF64(nbDeltaScratch, taken, delta);
    setF64(medScratch, taken, delta);
    taken++;
  }
  // p is one past the last entry read: the last taken one when K were taken, else the list end
  setI32(front, i, p - from);
  if (taken == 0) return 0;
  const sigma = max<f64>(medianOfScratch(taken), 0.05);
  for (let p = 0; p < taken; p++) {
    const r = getF64(nbDeltaScratch, p) / sigma;
    setF64(nbKer, at + p, Math.exp(-0.5 * r * r)); // (-0.5 r) r: the reference's rounding order
  }
  return taken;
}

function rebuildTask(i: i32, kw: i32, kc: i32): void {
  const base = getI32(nbOff, i);
  const capIn = min<i32>(kw, getI32(gWOff, i + 1) - getI32(gWOff, i));
  setI32(nbInCnt, i, buildList(gWOff, gWIdx, gWSim, i, kw, base, nbFrontW));
  setI32(nbCrCnt, i, buildList(gCOff, gCIdx, gCSim, i, kc, base + capIn, nbFrontC));
}

// @ts-ignore: decorator
@inline function markDirty(i: i32): void {
  if (getU8(nbDirty, i) != 0) return;
  setU8(nbDirty, i, 1);
  setI32(nbDirtyList, nbDirtyCount, i);
  nbDirtyCount++;
}

/** Marks every task whose within or cross list holds j before its frontier. */
function markListsHolding(j: i32): void {
  const e = getI32(gTaskEnv, j);
  // within: the k-th other task of env(j) holds j at gWMirror[gWOff[j] + k] (graph.ts)
  let slot = getI32(gWOff, j);
  for (let p = getI32(gEnvOff, e), end = getI32(gEnvOff, e + 1); p < end; p++) {
    const i = getI32(gEnvTasks, p);
    if (i == j) continue;
    if (getI32(gWMirror, slot) - getI32(gWOff, i) < getI32(nbFrontW, i)) markDirty(i);
    slot++;
  }
  for (let p = getI32(gCTOff, j), end = getI32(gCTOff, j + 1); p < end; p++) {
    const i = getI32(gCTIdx, p);
    if (getI32(gCTPos, p) < getI32(nbFrontC, i)) markDirty(i);
  }
}

/**
 * Brings N_in / N_cross of every task to the observed set of the first nObs observations (tCount
 * must already hold the counts of that prefix, see gatherCounts).
 */
export function updateNeighbours(nObs: i32): void {
  const kw = max<i32>(cfgInt(CFG_K_WITHIN), 0);
  const kc = max<i32>(cfgInt(CFG_K_CROSS), 0);
  if (!nbValid || kw != nbKw || kc != nbKc) {
    let total = 0;
    for (let i = 0; i < gN; i++) {
      setI32(nbOff, i, total);
      total += min<i32>(kw, getI32(gWOff, i + 1) - getI32(gWOff, i));
      total += min<i32>(kc, getI32(gCOff, i + 1) - getI32(gCOff, i));
    }
    setI32(nbOff, gN, total);
    ensureNeighbourCapacity(total);
    for (let i = 0; i < gN; i++) rebuildTask(i, kw, kc);
    nbValid = true;
    nbKw = kw;
    nbKc = kc;
    nbTrackedObs = nObs;
    nbLastRebuilt = gN;
    return;
  }
  const lo = min<i32>(nObs, nbTrackedObs);
  const hi = max<i32>(nObs, nbTrackedObs);
  nbDirtyCount = 0;
  for (let k = lo; k < hi; k++) {
    if (getI32(hObsNth, k) == 1) markListsHolding(getI32(hObsTask, k));
  }
  for (let d = 0; d < nbDirtyCount; d++) {
    const i = getI32(nbDirtyList, d);
    rebuildTask(i, kw, kc);
    setU8(nbDirty, i, 0);
  }
  nbLastRebuilt = nbDirtyCount;
  nbTrackedObs = nObs;
}
