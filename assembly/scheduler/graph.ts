// The static graph (SPEC 1) as CSR arrays, plus structures derived once per graph:
// tasks grouped by environment, and the transposes of `within` and `fullCross` so that adding a
// task j to a batch updates the similarity penalty of exactly the tasks whose S_full(i, j) is
// listed (SPEC 1 lookup, SPEC 6 penalty) instead of rescanning the pool.
import { allocF64, allocI32, allocU8, getF64, getI32, setF64, setI32, setU8 } from './mem';

export let gN: i32 = 0;
export let gE: i32 = 0;
export let gCats: i32 = 0;

// Filled by the engine (JS) after sched_graph_init.
export let gTaskEnv: usize = 0; // i32[N]
export let gEnvCat: usize = 0; // i32[E]
export let gWOff: usize = 0; // i32[N+1]  within(i) = index[off[i] .. off[i+1])
export let gWIdx: usize = 0; // i32[nnzW]
export let gWSim: usize = 0; // f64[nnzW]
export let gCOff: usize = 0; // cross
export let gCIdx: usize = 0;
export let gCSim: usize = 0;
export let gFOff: usize = 0; // fullCross
export let gFIdx: usize = 0;
export let gFSim: usize = 0;
export let gNnzW: i32 = 0;
export let gNnzC: i32 = 0;
export let gNnzF: i32 = 0;

// Derived in graphReady().
export let gEnvOff: usize = 0; // i32[E+1]
export let gEnvTasks: usize = 0; // i32[N], ascending within each env
export let gTaskLocal: usize = 0; // i32[N]: position of the task among the tasks of its environment
/** i32[nnzW], the within "mirror": within(j) holds every other task of env(j) (SPEC 1), so the
 *  transpose of within for j needs no index array: entry gWOff[j] + k is the k-th other task of
 *  env(j) in env order, and the mirror stores where j sits in that task's within list (its value is
 *  gWSim at that position). A third of the memory of a full transpose. */
export let gWMirror: usize = 0;
/** f64[nnzW] or 0: gWSim at gWMirror (the value of j in each other task's within list), so adding j
 *  to a batch reads its env's values in one run instead of one scattered load each (within lists
 *  of a large pool span megabytes). Only when it takes at most WMIRROR_SIM_MAX entries: the 750K
 *  pool's memory budget has no room for it, and there the kernels read through gWMirror. */
export let gWMirrorSim: usize = 0;
const WMIRROR_SIM_MAX: i32 = 1 << 22; // 32 MiB
export let gCTOff: usize = 0; // i32[N+1]: transpose of cross, j -> the tasks i with j in cross(i) (neighbour tracking)
export let gCTIdx: usize = 0;
export let gCTPos: usize = 0; // i32: position of j in cross(i), relative to the start of cross(i)
export let gFTOff: usize = 0; // transpose of fullCross, j -> (i, value of j in fullCross(i)), other env only
export let gFTIdx: usize = 0;
export let gFTSim: usize = 0;
/** u8 per fullCross entry (j -> i): 1 when the entry is the S_full lookup for the pair seen from i,
 *  i.e. env(i) != env(j) and j is not in fullCross(i) (SPEC 1: fullCross(i) first, then fullCross(j)). */
export let gFFallback: usize = 0;
/** min(0, every listed similarity): a lower bound of the batch penalty (exploitation early stop). */
export let gMinPenalty: f64 = 0.0;
export let gMaxWithin: i32 = 0;
export let gMaxCross: i32 = 0;
export let gReady: bool = false;

export function graphInit(nTasks: i32, nEnvs: i32, nCats: i32, nnzW: i32, nnzC: i32, nnzF: i32): void {
  if (nTasks < 1 || nEnvs < 1 || nCats < 1 || nnzW < 0 || nnzC < 0 || nnzF < 0) abort('sched_graph_init: bad sizes');
  gN = nTasks;
  gE = nEnvs;
  gCats = nCats;
  gNnzW = nnzW;
  gNnzC = nnzC;
  gNnzF = nnzF;
  gTaskEnv = allocI32(nTasks);
  gEnvCat = allocI32(nEnvs);
  gWOff = allocI32(nTasks + 1);
  gWIdx = allocI32(nnzW);
  gWSim = allocF64(nnzW);
  gCOff = allocI32(nTasks + 1);
  gCIdx = allocI32(nnzC);
  gCSim = allocF64(nnzC);
  gFOff = allocI32(nTasks + 1);
  gFIdx = allocI32(nnzF);
  gFSim = allocF64(nnzF);
  gReady = false;
}

function checkCsr(off: usize, idx: usize, nnz: i32, what: string): void {
  if (getI32(off, 0) != 0 || getI32(off, gN) != nnz) abort(what);
  for (let i = 0; i < gN; i++) {
    if (getI32(off, i + 1) < getI32(off, i)) abort(what);
  }
  for (let k = 0; k < nnz; k++) {
    const j = getI32(idx, k);
    if (j < 0 || j >= gN) abort(what);
  }
}

/** Transpose of a CSR list keeping, for target j, the pairs (i, sim of j in list(i)); tSim 0 = indices only. */
function transpose(off: usize, idx: usize, sim: usize, nnz: i32, sameEnv: bool, tOff: usize, tIdx: usize, tSim: usize, tPos: usize = 0): void {
  // count
  for (let i = 0; i < gN; i++) {
    const ei = getI32(gTaskEnv, i);
    for (let k = getI32(off, i), end = getI32(off, i + 1); k < end; k++) {
      const j = getI32(idx, k);
      if ((getI32(gTaskEnv, j) == ei) != sameEnv) continue;
      setI32(tOff, j + 1, getI32(tOff, j + 1) + 1);
    }
  }
  for (let j = 0; j < gN; j++) setI32(tOff, j + 1, getI32(tOff, j + 1) + getI32(tOff, j));
  const fill = allocI32(gN);
  for (let i = 0; i < gN; i++) {
    const ei = getI32(gTaskEnv, i);
    for (let k = getI32(off, i), end = getI32(off, i + 1); k < end; k++) {
      const j = getI32(idx, k);
      if ((getI32(gTaskEnv, j) == ei) != sameEnv) continue;
      const at = getI32(tOff, j) + getI32(fill, j);
      setI32(fill, j, getI32(fill, j) + 1);
      setI32(tIdx, at, i);
      if (tSim != 0) setF64(tSim, at, getF64(sim, k));
      if (tPos != 0) setI32(tPos, at, k - getI32(off, i));
    }
  }
}

/** Validates the CSR structure written by the engine and builds the derived structures. */
export function graphReady(): void {
  for (let i = 0; i < gN; i++) {
    const e = getI32(gTaskEnv, i);
    if (e < 0 || e >= gE) abort('graph: task environment out of range');
  }
  for (let e = 0; e < gE; e++) {
    const c = getI32(gEnvCat, e);
    if (c < 0 || c >= gCats) abort('graph: environment category out of range');
  }
  checkCsr(gWOff, gWIdx, gNnzW, 'graph: malformed within lists');
  checkCsr(gCOff, gCIdx, gNnzC, 'graph: malformed cross lists');
  checkCsr(gFOff, gFIdx, gNnzF, 'graph: malformed fullCross lists');

  // tasks by environment (counting sort keeps index order)
  gEnvOff = allocI32(gE + 1);
  gEnvTasks = allocI32(gN);
  for (let i = 0; i < gN; i++) {
    const e = getI32(gTaskEnv, i);
    setI32(gEnvOff, e + 1, getI32(gEnvOff, e + 1) + 1);
  }
  for (let e = 0; e < gE; e++) setI32(gEnvOff, e + 1, getI32(gEnvOff, e + 1) + getI32(gEnvOff, e));
  const fill = allocI32(gE);
  for (let i = 0; i < gN; i++) {
    const e = getI32(gTaskEnv, i);
    setI32(gEnvTasks, getI32(gEnvOff, e) + getI32(fill, e), i);
    setI32(fill, e, getI32(fill, e) + 1);
  }

  gTaskLocal = allocI32(gN);
  for (let e = 0; e < gE; e++) {
    const from = getI32(gEnvOff, e);
    for (let p = from, end = getI32(gEnvOff, e + 1); p < end; p++) setI32(gTaskLocal, getI32(gEnvTasks, p), p - from);
  }
  // SPEC 1: within(i) lists every other task of env(i) (validated by the readers; relied on here)
  for (let i = 0; i < gN; i++) {
    const e = getI32(gTaskEnv, i);
    const size = getI32(gEnvOff, e + 1) - getI32(gEnvOff, e);
    if (getI32(gWOff, i + 1) - getI32(gWOff, i) != size - 1) abort('graph: within(i) must list every other task of the environment');
    for (let p = getI32(gWOff, i), end = getI32(gWOff, i + 1); p < end; p++) {
      if (getI32(gTaskEnv, getI32(gWIdx, p)) != e || getI32(gWIdx, p) == i) abort('graph: within(i) must list every other task of the environment');
    }
  }
  gWMirror = allocI32(gNnzW);
  gWMirrorSim = gNnzW <= WMIRROR_SIM_MAX ? allocF64(gNnzW) : 0;
  for (let i = 0; i < gN; i++) {
    const li = getI32(gTaskLocal, i);
    for (let p = getI32(gWOff, i), end = getI32(gWOff, i + 1); p < end; p++) {
      const j = getI32(gWIdx, p);
      // slot of i among the other tasks of env(j), in env order
      const slot = li - (li > getI32(gTaskLocal, j) ? 1 : 0);
      setI32(gWMirror, getI32(gWOff, j) + slot, p);
      if (gWMirrorSim != 0) setF64(gWMirrorSim, getI32(gWOff, j) + slot, getF64(gWSim, p));
    }
  }
  gCTOff = allocI32(gN + 1);
  gCTIdx = allocI32(gNnzC);
  gCTPos = allocI32(gNnzC);
  transpose(gCOff, gCIdx, gCSim, gNnzC, false, gCTOff, gCTIdx, 0, gCTPos);
  gFTOff = allocI32(gN + 1);
  gFTIdx = allocI32(gNnzF);
  gFTSim = allocF64(gNnzF);
  transpose(gFOff, gFIdx, gFSim, gNnzF, false, gFTOff, gFTIdx, gFTSim);

  // SPEC 1: for a pair across environments, fullCross(i) wins; fullCross(j) is the fallback.
  gFFallback = allocU8(gNnzF);
  // i lists j in fullCross(i) iff i is in the transpose's row j: stamp that row, then look up
  const stamp = allocI32(gN);
  for (let i = 0; i < gN; i++) setI32(stamp, i, -1);
  for (let j = 0; j < gN; j++) {
    for (let q = getI32(gFTOff, j), qEnd = getI32(gFTOff, j + 1); q < qEnd; q++) setI32(stamp, getI32(gFTIdx, q), j);
    const ej = getI32(gTaskEnv, j);
    for (let k = getI32(gFOff, j), end = getI32(gFOff, j + 1); k < end; k++) {
      const i = getI32(gFIdx, k);
      if (getI32(gTaskEnv, i) == ej) continue;
      if (getI32(stamp, i) != j) setU8(gFFallback, k, 1);
    }
  }

  gMinPenalty = 0.0;
  for (let k = 0; k < gNnzW; k++) gMinPenalty = min<f64>(gMinPenalty, getF64(gWSim, k));
  for (let k = 0; k < gNnzF; k++) gMinPenalty = min<f64>(gMinPenalty, getF64(gFSim, k));
  gMaxWithin = 0;
  gMaxCross = 0;
  for (let i = 0; i < gN; i++) {
    gMaxWithin = max<i32>(gMaxWithin, getI32(gWOff, i + 1) - getI32(gWOff, i));
    gMaxCross = max<i32>(gMaxCross, getI32(gCOff, i + 1) - getI32(gCOff, i));
  }
  gReady = true;
}
