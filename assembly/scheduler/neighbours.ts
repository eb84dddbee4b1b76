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
import { cfgInt } from './config';
import { CFG_K_CROSS, CFG_K_WITHIN } from './layout';
import { gMaxCross, gMaxWithin, gCIdx, gCOff, gCSim, gCTIdx, gCTOff, gCTPos, gEnvOff, gEnvTasks, gN, gTaskEnv, gWIdx, gWMirror, gWOff, gWSim } from './graph';
import { hObsNth, hObsTask } from './history';
import { allocI32, clip, getF64, getI32, getU8, setF64, setI32, setU8 } from './mem';
import {
  ensureNeighbourCapacity, medScratch, nbCrCnt, nbDeltaScratch, nbDirty, nbDirtyList, nbIdx, nbInCnt, nbKer, nbMergeScratch, nbOff,
  nbPos, tCount,
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
  // the heap was reset with the graph: forget the old scratch
  pendFillW = allocI32(gN);
  pendFillC = allocI32(gN);
  pendCap = 0;
  pendN = 0;
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
    store<u16>(nbPos + (<usize>(at + taken) << 1), <u16>(p - from)); // used only when lists fit u16
    const delta = clip(1.0 - getF64(sim, p), 0.0, 1.0);
    setF64(nbDeltaScratch, taken, delta);
    setF64(medScratch, taken, delta);
    taken++;
  }
  // p is one past the last entry read: the last taken one when K were taken, else the list end
  setI32(front, i, p - from);
  return kernelsOf(at, taken);
}

/**
 * SPEC 4 kernels of the `taken` neighbours at nbKer[at..] from their deltas (in nbDeltaScratch and
 * medScratch, list order): the adaptive bandwidth sigma (median delta, at least 0.05),
 * exp(-0.5 (delta/sigma)^2).
 */
function kernelsOf(at: i32, taken: i32): i32 {
  if (taken == 0) return 0;
  const sigma = max<f64>(medianOfScratch(taken), 0.05);
  for (let p = 0; p < taken; p++) {
    const r = getF64(nbDeltaScratch, p) / sigma;
    setF64(nbKer, at + p, Math.exp(-0.5 * r * r)); // (-0.5 r) r: the reference's rounding order
  }
  return taken;
}

// Newly observed entries of the dirty tasks' lists (forward updates): task, list (0 within,
// 1 cross), position; grouped by task before the merge. Growable scratch.
let pendCap: i32 = 0;
let pendN: i32 = 0;
let pendTask: usize = 0; // i32
let pendPos: usize = 0; // i32: position | (list << 30)
let pendGrouped: usize = 0; // i32: positions grouped by dirty task (dirty-list order), within then cross
let pendFillW: usize = 0; // i32[N]: per dirty task, fill pointer of its within run
let pendFillC: usize = 0; // i32[N]: same, cross run

function addPending(i: i32, code: i32): void {
  if (pendN == pendCap) {
    const cap = max<i32>(1024, pendCap * 2);
    const t = allocI32(cap);
    const q = allocI32(cap);
    if (pendN > 0) {
      memory.copy(t, pendTask, <usize>pendN << 2);
      memory.copy(q, pendPos, <usize>pendN << 2);
    }
    pendTask = t;
    pendPos = q;
    pendGrouped = allocI32(cap);
    pendCap = cap;
  }
  setI32(pendTask, pendN, i);
  setI32(pendPos, pendN, code);
  pendN++;
}

/**
 * Forward update of one list of a dirty task: the old neighbours (observed before, positions
 * ascending in nbPos) merged with the newly observed entries `news` (positions, sorted here), the
 * first k kept: the same neighbours, in the same order, as a scan of the whole list (an entry
 * observed now was either observed before, so it is in the old list if it is among the first k
 * observed, or is new; the old list held every observed entry before its frontier).
 */
function mergeList(off: usize, idx: usize, sim: usize, i: i32, k: i32, at: i32, oldCnt: i32, news: usize, nNew: i32, front: usize): i32 {
  // insertion sort of the new positions (few)
  for (let a = 1; a < nNew; a++) {
    const x = getI32(news, a);
    let b = a - 1;
    while (b >= 0 && getI32(news, b) > x) {
      setI32(news, b + 1, getI32(news, b));
      b--;
    }
    setI32(news, b + 1, x);
  }
  const merged = nbMergeScratch;
  let a = 0;
  let b = 0;
  let taken = 0;
  if (nNew == 0) return oldCnt; // unchanged list, unchanged kernels
  while (taken < k && (a < oldCnt || b < nNew)) {
    const pa = a < oldCnt ? <i32>load<u16>(nbPos + (<usize>(at + a) << 1)) : i32.MAX_VALUE;
    const pb = b < nNew ? getI32(news, b) : i32.MAX_VALUE;
    if (pa < pb) {
      setI32(merged, taken, pa);
      a++;
    } else {
      setI32(merged, taken, pb);
      b++;
    }
    taken++;
  }
  const from = getI32(off, i);
  const len = getI32(off, i + 1) - from;
  for (let q = 0; q < taken; q++) {
    const pos = getI32(merged, q);
    store<u16>(nbPos + (<usize>(at + q) << 1), <u16>pos);
    setI32(nbIdx, at + q, getI32(idx, from + pos));
    const delta = clip(1.0 - getF64(sim, from + pos), 0.0, 1.0);
    setF64(nbDeltaScratch, q, delta);
    setF64(medScratch, q, delta);
  }
  // as buildList: one past the last taken entry when k were taken, else the list end
  setI32(front, i, taken == k ? getI32(merged, taken - 1) + 1 : len);
  return kernelsOf(at, taken);
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
function markListsHolding(j: i32, record: bool): void {
  const e = getI32(gTaskEnv, j);
  // within: the k-th other task of env(j) holds j at gWMirror[gWOff[j] + k] (graph.ts)
  let slot = getI32(gWOff, j);
  for (let p = getI32(gEnvOff, e), end = getI32(gEnvOff, e + 1); p < end; p++) {
    const i = getI32(gEnvTasks, p);
    if (i == j) continue;
    const pos = getI32(gWMirror, slot) - getI32(gWOff, i);
    if (pos < getI32(nbFrontW, i)) {
      markDirty(i);
      if (record) addPending(i, pos);
    }
    slot++;
  }
  for (let p = getI32(gCTOff, j), end = getI32(gCTOff, j + 1); p < end; p++) {
    const i = getI32(gCTIdx, p);
    const pos = getI32(gCTPos, p);
    if (pos < getI32(nbFrontC, i)) {
      markDirty(i);
      if (record) addPending(i, pos | (1 << 30));
    }
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
  // forward (tasks only become observed): merge each dirty list with its new entries; backward
  // (an earlier step scored): rebuild the dirty lists from scratch
  // (positions are stored as u16: pools with a longer list always rescan)
  const forward = nObs > nbTrackedObs && gMaxWithin <= 65536 && gMaxCross <= 65536;
  nbDirtyCount = 0;
  pendN = 0;
  for (let k = lo; k < hi; k++) {
    if (getI32(hObsNth, k) == 1) markListsHolding(getI32(hObsTask, k), forward);
  }
  if (forward) {
    // group the new entries by (task, list), in the order they were found: counts, then starts
    for (let d = 0; d < nbDirtyCount; d++) {
      const i = getI32(nbDirtyList, d);
      setI32(pendFillW, i, 0);
      setI32(pendFillC, i, 0);
    }
    for (let q = 0; q < pendN; q++) {
      const i = getI32(pendTask, q);
      const fill = (getI32(pendPos, q) >> 30) == 0 ? pendFillW : pendFillC;
      setI32(fill, i, getI32(fill, i) + 1);
    }
    let total = 0;
    for (let d = 0; d < nbDirtyCount; d++) {
      const i = getI32(nbDirtyList, d);
      const cw = getI32(pendFillW, i);
      const cc = getI32(pendFillC, i);
      setI32(pendFillW, i, total);
      setI32(pendFillC, i, total + cw);
      total += cw + cc;
    }
    for (let q = 0; q < pendN; q++) {
      const i = getI32(pendTask, q);
      const code = getI32(pendPos, q);
      const fill = (code >> 30) == 0 ? pendFillW : pendFillC;
      const at = getI32(fill, i);
      setI32(pendGrouped, at, code & ((1 << 30) - 1));
      setI32(fill, i, at + 1);
    }
    // now pendFillW[i] = end of i's within run = start of its cross run; pendFillC[i] = its end
    let start = 0;
    for (let d = 0; d < nbDirtyCount; d++) {
      const i = getI32(nbDirtyList, d);
      const midW = getI32(pendFillW, i);
      const end = getI32(pendFillC, i);
      const base = getI32(nbOff, i);
      const capIn = min<i32>(kw, getI32(gWOff, i + 1) - getI32(gWOff, i));
      const newsIn = pendGrouped + (<usize>start << 2);
      const newsCr = pendGrouped + (<usize>midW << 2);
      setI32(nbInCnt, i, mergeList(gWOff, gWIdx, gWSim, i, kw, base, getI32(nbInCnt, i), newsIn, midW - start, nbFrontW));
      setI32(nbCrCnt, i, mergeList(gCOff, gCIdx, gCSim, i, kc, base + capIn, getI32(nbCrCnt, i), newsCr, end - midW, nbFrontC));
      setU8(nbDirty, i, 0);
      start = end;
    }
  } else {
    for (let d = 0; d < nbDirtyCount; d++) {
      const i = getI32(nbDirtyList, d);
      rebuildTask(i, kw, kc);
      setU8(nbDirty, i, 0);
    }
  }
  nbLastRebuilt = nbDirtyCount;
  nbTrackedObs = nObs;
}
