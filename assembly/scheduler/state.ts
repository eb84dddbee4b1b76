// Per-graph scratch and output arrays of one score (SPEC 3-8). Allocated once per graph
// (stateInitForGraph) or grown on demand when a configuration needs more room (neighbour lists,
// batch size, step table): never per step on the hot path.
import { gE, gMaxCross, gMaxWithin, gN } from './graph';
import { INFO_SLOTS } from './layout';
import { allocF64, allocI32, allocU8 } from './mem';

// ---- outputs (per task, f64 unless marked) ----
export let oLongV: usize = 0;
export let oLongM: usize = 0;
export let oLongD: usize = 0;
export let oLongU: usize = 0;
export let oShortV: usize = 0;
export let oShortM: usize = 0;
export let oShortD: usize = 0;
export let oShortU: usize = 0;
export let oU: usize = 0;
export let oQ: usize = 0;
export let oRemoved: usize = 0; // u8
export let oExcluded: usize = 0; // u8
export let oReference: usize = 0; // f64[6]: long v, m, d, short v, m, d
export let oBatchCap: i32 = 0;
export let oBatchTask: usize = 0; // i32[cap]
export let oBatchPhase: usize = 0; // u8[cap]
/** i32[INFO_SLOTS]: batch length, relaxed count, relaxed codes x3, cold start flag, observations used, steps used. */
export let oInfo: usize = 0;

// ---- per task scratch ----
export let tCount: usize = 0; // i32: c_i(t)
export let tLastStep: usize = 0; // i32: latest observed step < t (-1)
export let tRun: usize = 0; // i32: consecutive observed steps ending at tLastStep
export let tRunRaw: usize = 0; // i32: the same before the t - 1 test (predict.ts, incremental)
export let tF: usize = 0; // f64: f_i (long)
export let tFShort: usize = 0; // f64: f_i (short)
/** f64[8 N]: per observed task's slot [W, ybar v, m, d], long and short interleaved (predict.ts). */
export let tRow: usize = 0;
export let tBlankRow: usize = 0; // f64[8]: the row of a task not observed before t
/** f64[6] scratch: G_in / G_cross of one task, (v, m, d) long then short. */
export let gIn: usize = 0;
export let gCross: usize = 0;
export let tPr1: usize = 0; // f64: percentile ranks
export let tPr2: usize = 0;
export let tSortedV: usize = 0; // f64: vhat ascending (quantile table)
export let tRSum: usize = 0; // f64: sum of scorable residuals (SPEC 8)
export let tRCnt: usize = 0; // i32
export let tROff: usize = 0; // i32[N+1]: first scorable observation of the task (progress-filter.ts chains)
export let tRFill: usize = 0; // i32[N]: last scorable observation of the task
export let tInBatch: usize = 0; // u8
export let tPen: usize = 0; // f64: max listed S_full(i, j) over j in the batch (SPEC 6)
export let tTouched: usize = 0; // i32: how many batch members have a listed S_full(i, j)
export let tPenSame: usize = 0; // f64: the same restricted to env(j) = env(i) (SPEC 7 novelty)
export let tTouchedSame: usize = 0; // i32
export let tOmega: usize = 0; // f64: exposure factor (SPEC 6)
export let tBaseScore: usize = 0; // f64: q_i * omega_i
export let tNegBase: usize = 0; // f64: -q_i * omega_i (sort key)
export let exploitOrder: usize = 0; // i32[N]: tasks by q_i * omega_i descending
export let exploitGroupEnd: usize = 0; // i32[N]: end of the run of equal q * omega starting at each position
export let coverOrder: usize = 0; // i32[N]: tasks by q descending (built only for large coverage groups)
export let coverGroupEnd: usize = 0; // i32[N]
export let tNegQ: usize = 0; // f64: -q (sort key)

// ---- neighbours (SPEC 4): tracked incrementally, see neighbours.ts ----
// Fixed-capacity slots per task: [nbOff[i], nbOff[i] + min(K_within, |within(i)|)) for N_in(i), then
// min(K_cross, |cross(i)|) slots for N_cross(i); nbInCnt / nbCrCnt say how many are filled.
export let nbOff: usize = 0; // i32[N+1]
export let nbInCnt: usize = 0; // i32[N]
export let nbCrCnt: usize = 0; // i32[N]
export let nbCap: i32 = 0;
export let nbIdx: usize = 0; // i32[cap]
export let nbPos: usize = 0; // u16[cap]: position of each neighbour in its list (lists up to 65,536 long, neighbours.ts)
export let nbKer: usize = 0; // f64[cap]: exp(-0.5 (delta/sigma)^2), independent of the half-life
export let nbDirty: usize = 0; // u8[N]
export let nbDirtyList: usize = 0; // i32[N]
export let nbMergeScratch: usize = 0; // i32[max list length]: positions of a list being merged (neighbours.ts)
export let medScratch: usize = 0; // f64[max list length]: median (sorted in place)
export let nbDeltaScratch: usize = 0; // f64[max list length]: deltas of the list being built

// ---- per environment ----
export let eX: usize = 0; // i32: X_e
export let eR: usize = 0; // i32: R_e
export let eN: usize = 0; // i32: n_e (batch)
export let eAvail: usize = 0; // i32: tasks of e passing rules 1, 4, 5
export let eMinC: usize = 0; // i32: smallest c_i over those tasks
export let eRSum: usize = 0; // f64: residual sums (SPEC 8 ref_env)
export let eRCnt: usize = 0; // i32

// ---- per stored step ----
export let sCap: i32 = 0;
export let sW: usize = 0; // f64: w(t, s), long half-life
export let sWShort: usize = 0; // f64: w(t, s), short half-life
export let sBv: usize = 0; // f64: b_s^v
export let sBm: usize = 0;
export let sBd: usize = 0;

export function stateInitForGraph(): void {
  const n = gN;
  oLongV = allocF64(n);
  oLongM = allocF64(n);
  oLongD = allocF64(n);
  oLongU = allocF64(n);
  oShortV = allocF64(n);
  oShortM = allocF64(n);
  oShortD = allocF64(n);
  oShortU = allocF64(n);
  oU = allocF64(n);
  oQ = allocF64(n);
  oRemoved = allocU8(n);
  oExcluded = allocU8(n);
  oReference = allocF64(6);
  oInfo = allocI32(INFO_SLOTS);
  oBatchCap = 0;
  ensureBatchCapacity(64);

  tCount = allocI32(n);
  tLastStep = allocI32(n);
  tRun = allocI32(n);
  tRunRaw = allocI32(n);
  tF = allocF64(n);
  tFShort = allocF64(n);
  tRow = allocF64(8 * n);
  tBlankRow = allocF64(8);
  gIn = allocF64(6); // pairs (long, short) of G^v, G^m, G^d
  gCross = allocF64(6);
  tPr1 = allocF64(n);
  tPr2 = allocF64(n);
  tSortedV = allocF64(n);
  tRSum = allocF64(n);
  tRCnt = allocI32(n);
  tROff = allocI32(n + 1);
  tRFill = allocI32(n);
  tInBatch = allocU8(n);
  tPen = allocF64(n);
  tTouched = allocI32(n);
  tPenSame = allocF64(n);
  tTouchedSame = allocI32(n);
  tOmega = allocF64(n);
  tBaseScore = allocF64(n);
  tNegBase = allocF64(n);
  exploitOrder = allocI32(n);
  exploitGroupEnd = allocI32(n);
  coverOrder = allocI32(n);
  coverGroupEnd = allocI32(n);
  tNegQ = allocF64(n);

  nbOff = allocI32(n + 1);
  nbInCnt = allocI32(n);
  nbCrCnt = allocI32(n);
  nbDirty = allocU8(n);
  nbDirtyList = allocI32(n);
  nbCap = 0;
  medScratch = allocF64(max<i32>(gMaxWithin, gMaxCross) + 1);
  nbMergeScratch = allocI32(max<i32>(gMaxWithin, gMaxCross) + 1);
  nbDeltaScratch = allocF64(max<i32>(gMaxWithin, gMaxCross) + 1);

  eX = allocI32(gE);
  eR = allocI32(gE);
  eN = allocI32(gE);
  eAvail = allocI32(gE);
  eMinC = allocI32(gE);
  eRSum = allocF64(gE);
  eRCnt = allocI32(gE);
  sCap = 0;
}

export function ensureBatchCapacity(b: i32): void {
  if (b <= oBatchCap) return;
  const cap = max<i32>(b, oBatchCap * 2);
  oBatchTask = allocI32(cap);
  oBatchPhase = allocU8(cap);
  oBatchCap = cap;
}

export function ensureNeighbourCapacity(total: i32): void {
  if (total <= nbCap) return;
  const cap = max<i32>(total, nbCap * 2);
  nbIdx = allocI32(cap);
  nbPos = heap.alloc(<usize>cap << 1);
  nbKer = allocF64(cap);
  nbCap = cap;
}

export function ensureStepScratch(steps: i32): void {
  if (steps <= sCap) return;
  const cap = max<i32>(steps, max<i32>(64, sCap * 2));
  sW = allocF64(cap);
  sWShort = allocF64(cap);
  sBv = allocF64(cap);
  sBm = allocF64(cap);
  sBd = allocF64(cap);
  sCap = cap;
}
