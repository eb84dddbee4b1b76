// The observation history (SPEC 2), stored for incremental use: observations are appended one step
// at a time (steps strictly ascending, tasks ascending within a step), so the observations of the
// steps s < t are always a prefix of the arrays and scoring step t never repacks anything.
// Buffers grow by doubling (the stub allocator never frees; the waste is bounded by the final size).
import { gN, gReady } from './graph';
import { allocF64, allocI32, allocU8, getF64, getI32, getU8, setF64, setI32, setU8 } from './mem';

// Per observation (capacity hObsCap).
export let hObsCap: i32 = 0;
export let hObsCount: i32 = 0;
export let hObsStep: usize = 0; // i32: step s
export let hObsTask: usize = 0; // i32: task index
export let hObsM: usize = 0; // f64: m (SPEC 2)
export let hObsV: usize = 0; // f64: v
export let hObsD: usize = 0; // f64: d
export let hObsRemoves: usize = 0; // u8: 1 when a flagged rollout has reward >= 0.5 (SPEC 8 identifier filter)
export let hObsPrev: usize = 0; // i32: the task's previous observation (-1 if none): a transition (SPEC 8)
export let hObsNth: usize = 0; // i32: the task's observation count up to and including this one
export let hObsStepIdx: usize = 0; // i32: index of its step in the distinct-step table

// Per distinct observed step (capacity hStepCap), ascending.
export let hStepCap: i32 = 0;
export let hStepCount: i32 = 0;
export let hStepValue: usize = 0; // i32: the step number s
export let hStepFirst: usize = 0; // i32: first observation of the step
export let hStepSize: usize = 0; // i32: observations in the step
export let hStepSumV: usize = 0; // f64: sums in task order, for the step references b_s (SPEC 3)
export let hStepSumM: usize = 0;
export let hStepSumD: usize = 0;

// Per task: the latest observation, and how many (over the whole stored history).
export let hTaskLast: usize = 0; // i32[N]
export let hTaskCount: usize = 0; // i32[N]
/** i32[N]: the task's row among observed tasks, by order of first observation (-1: never observed).
 *  Stable while the history grows, so per-task history rows stay compact (predict.ts). */
export let hTaskSlot: usize = 0;
export let hSlotCount: i32 = 0;

// Staging of the step being appended (at most one observation per task).
export let hStageCount: i32 = 0;
export let hStageTask: usize = 0; // i32[N]
export let hStageM: usize = 0; // f64[N]
export let hStageV: usize = 0;
export let hStageD: usize = 0;
export let hStageRemoves: usize = 0; // u8[N]
export let hStageOrder: usize = 0; // i32[N] scratch for sorting by task
export let hStageSeen: usize = 0; // u8[N] duplicate guard

// Reward staging for groups passed from JS.
export let hRewardCap: i32 = 0;
export let hRewards: usize = 0; // f64[cap]
export let hRewardFlags: usize = 0; // u8[cap]

/** Bumped on every change so cached derived data (progress residuals) knows to extend. */
export let hLastStep: i32 = -1;

export function historyInitForGraph(): void {
  hObsCap = 0;
  hStepCap = 0;
  hObsCount = 0;
  hStepCount = 0;
  hLastStep = -1;
  growObs(max<i32>(1024, gN));
  growSteps(64);
  hTaskLast = allocI32(gN);
  hTaskCount = allocI32(gN);
  hTaskSlot = allocI32(gN);
  hStageTask = allocI32(gN);
  hStageM = allocF64(gN);
  hStageV = allocF64(gN);
  hStageD = allocF64(gN);
  hStageRemoves = allocU8(gN);
  hStageOrder = allocI32(gN);
  hStageSeen = allocU8(gN);
  hRewardCap = 0;
  ensureRewardCapacity(64);
  historyClear();
}

/** Bumped by every clear: caches over a prefix of the observations (predict.ts) start again. */
export let hGen: i32 = 0;

export function historyClear(): void {
  hGen++;
  hObsCount = 0;
  hStepCount = 0;
  hStageCount = 0;
  hLastStep = -1;
  for (let i = 0; i < gN; i++) {
    setI32(hTaskLast, i, -1);
    setI32(hTaskCount, i, 0);
    setI32(hTaskSlot, i, -1);
    setU8(hStageSeen, i, 0);
  }
  hSlotCount = 0;
}

function copyGrow(old: usize, count: i32, shift: i32, newCap: i32): usize {
  const bytes = <usize>newCap << shift;
  const ptr = heap.alloc(bytes);
  memory.fill(ptr, 0, bytes);
  if (old != 0 && count > 0) memory.copy(ptr, old, <usize>count << shift);
  return ptr;
}

function growObs(needed: i32): void {
  if (needed <= hObsCap) return;
  const cap = max<i32>(needed, hObsCap * 2);
  const n = hObsCount;
  hObsStep = copyGrow(hObsStep, n, 2, cap);
  hObsTask = copyGrow(hObsTask, n, 2, cap);
  hObsM = copyGrow(hObsM, n, 3, cap);
  hObsV = copyGrow(hObsV, n, 3, cap);
  hObsD = copyGrow(hObsD, n, 3, cap);
  hObsRemoves = copyGrow(hObsRemoves, n, 0, cap);
  hObsPrev = copyGrow(hObsPrev, n, 2, cap);
  hObsNth = copyGrow(hObsNth, n, 2, cap);
  hObsStepIdx = copyGrow(hObsStepIdx, n, 2, cap);
  hObsCap = cap;
}

function growSteps(needed: i32): void {
  if (needed <= hStepCap) return;
  const cap = max<i32>(needed, hStepCap * 2);
  const n = hStepCount;
  hStepValue = copyGrow(hStepValue, n, 2, cap);
  hStepFirst = copyGrow(hStepFirst, n, 2, cap);
  hStepSize = copyGrow(hStepSize, n, 2, cap);
  hStepSumV = copyGrow(hStepSumV, n, 3, cap);
  hStepSumM = copyGrow(hStepSumM, n, 3, cap);
  hStepSumD = copyGrow(hStepSumD, n, 3, cap);
  hStepCap = cap;
}

/** Reserves room for `obs` observations over `steps` distinct steps (optional; avoids regrowth). */
export function historyReserve(obs: i32, steps: i32): void {
  growObs(obs);
  growSteps(steps);
}

export function ensureRewardCapacity(k: i32): void {
  if (k <= hRewardCap) return;
  const cap = max<i32>(k, hRewardCap * 2);
  hRewards = allocF64(cap);
  hRewardFlags = allocU8(cap);
  hRewardCap = cap;
}

/** Stages the statistics of one group for the step being appended. */
export function stageStats(task: i32, m: f64, v: f64, d: f64, removes: bool): void {
  if (!gReady) abort('history: no graph loaded');
  if (task < 0 || task >= gN) abort('history: task index out of range');
  if (getU8(hStageSeen, task) != 0) abort('history: a task may be observed at most once per step');
  setU8(hStageSeen, task, 1);
  const k = hStageCount;
  setI32(hStageTask, k, task);
  setF64(hStageM, k, m);
  setF64(hStageV, k, v);
  setF64(hStageD, k, d);
  setU8(hStageRemoves, k, removes ? 1 : 0);
  hStageCount = k + 1;
}

/**
 * SPEC 2: m, v (population variance) and d of a group of `k` rewards at `rewardsPtr` (f64), and the
 * identifier-filter flag (SPEC 8): some rollout flagged (u8 at `flagsPtr`, 0 = no flags) with
 * reward >= 0.5. Stages the result.
 */
export function stageGroup(task: i32, rewardsPtr: usize, flagsPtr: usize, k: i32): void {
  if (k < 1) abort('history: a group needs at least one reward');
  let sum = 0.0;
  let removes = false;
  for (let r = 0; r < k; r++) {
    const x = getF64(rewardsPtr, r);
    if (!(x >= 0.0 && x <= 1.0)) abort('history: rewards must be finite and in [0, 1]');
    sum += x;
    if (flagsPtr != 0 && getU8(flagsPtr, r) != 0 && x >= 0.5) removes = true;
  }
  // sum / K rather than (1/K) * sum: one rounding, and the same bits as the TS reference
  const fk = <f64>k;
  const m = sum / fk;
  let ss = 0.0;
  for (let r = 0; r < k; r++) {
    const dev = getF64(rewardsPtr, r) - m;
    ss += dev * dev;
  }
  const v = ss / fk;
  const d = min<f64>(max<f64>(v / max<f64>(m * (1.0 - m), 0.01), 0.0), 1.0);
  stageStats(task, m, v, d, removes);
}

/**
 * Appends the staged observations as step `step` (strictly after every stored step), in task
 * order. A step with nothing staged is a gap and stores nothing.
 */
export function commitStep(step: i32): void {
  if (step < 0) abort('history: steps must be >= 0');
  if (step <= hLastStep) abort('history: steps must be appended in ascending order');
  const n = hStageCount;
  if (n == 0) return;
  // insertion sort of the staging slots by task (input is usually already sorted or small)
  for (let k = 0; k < n; k++) setI32(hStageOrder, k, k);
  for (let k = 1; k < n; k++) {
    const slot = getI32(hStageOrder, k);
    const task = getI32(hStageTask, slot);
    let p = k - 1;
    while (p >= 0 && getI32(hStageTask, getI32(hStageOrder, p)) > task) {
      setI32(hStageOrder, p + 1, getI32(hStageOrder, p));
      p--;
    }
    setI32(hStageOrder, p + 1, slot);
  }
  growObs(hObsCount + n);
  growSteps(hStepCount + 1);
  const stepIdx = hStepCount;
  const first = hObsCount;
  let sumV = 0.0;
  let sumM = 0.0;
  let sumD = 0.0;
  for (let k = 0; k < n; k++) {
    const slot = getI32(hStageOrder, k);
    const task = getI32(hStageTask, slot);
    const o = first + k;
    const v = getF64(hStageV, slot);
    const m = getF64(hStageM, slot);
    const d = getF64(hStageD, slot);
    setI32(hObsStep, o, step);
    setI32(hObsTask, o, task);
    setF64(hObsM, o, m);
    setF64(hObsV, o, v);
    setF64(hObsD, o, d);
    setU8(hObsRemoves, o, getU8(hStageRemoves, slot));
    setI32(hObsPrev, o, getI32(hTaskLast, task));
    const nth = getI32(hTaskCount, task) + 1;
    if (nth == 1) setI32(hTaskSlot, task, hSlotCount++);
    setI32(hObsNth, o, nth);
    setI32(hObsStepIdx, o, stepIdx);
    setI32(hTaskLast, task, o);
    setI32(hTaskCount, task, nth);
    setU8(hStageSeen, task, 0);
    sumV += v;
    sumM += m;
    sumD += d;
  }
  setI32(hStepValue, stepIdx, step);
  setI32(hStepFirst, stepIdx, first);
  setI32(hStepSize, stepIdx, n);
  setF64(hStepSumV, stepIdx, sumV);
  setF64(hStepSumM, stepIdx, sumM);
  setF64(hStepSumD, stepIdx, sumD);
  hStepCount = stepIdx + 1;
  hObsCount = first + n;
  hStageCount = 0;
  hLastStep = step;
}

/** Drops a staged-but-uncommitted step (used when the engine aborts an append). */
export function stageDiscard(): void {
  for (let k = 0; k < hStageCount; k++) setU8(hStageSeen, getI32(hStageTask, k), 0);
  hStageCount = 0;
}

/** Number of stored steps with value < t (they are a prefix of the step table). */
export function stepsBefore(t: i32): i32 {
  let lo = 0;
  let hi = hStepCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (getI32(hStepValue, mid) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
