// Scheduler kernels (SPEC 2-8), exported to JS with the `sched_` prefix. Data goes through linear
// memory: the engine asks for buffer pointers with sched_ptr(slot) (slots below, mirrored in
// src/engine/wasm/layout.ts) and views them as typed arrays. See docs/wasm-layout.md.
//
// AssemblyScript callers (the simulator) can use the same functions directly:
// stageGroup / commitStep (./history) to append a step, scoreStep(t) (./score) to choose the next batch.
import { configInit, configSet, cfgBlock } from './config';
import {
  gCIdx, gCOff, gCSim, gEnvCat, gFIdx, gFOff, gFSim, gN, gReady, gTaskEnv, gWIdx, gWOff, gWSim, graphInit, graphReady,
} from './graph';
import {
  commitStep, ensureRewardCapacity, historyClear, historyInitForGraph, historyReserve, hObsCount, hObsD, hObsM,
  hObsStep, hObsTask, hObsV, hLastStep, hRewardFlags, hRewards, stageDiscard, stageGroup, stageStats, hObsRemoves,
} from './history';
import { invalidateNeighbours, neighboursInitForGraph } from './neighbours';
import { progressInitForGraph, progressReset } from './progress';
import { rankInitForGraph, setRadixBits, setSortBudget, sortByKey, sortedIdx } from './rank';
import { scoreStep } from './score';
import { setLargeGroup } from './batch';
import { nbLastRebuilt } from './neighbours';
import {
  oBatchPhase, oBatchTask, oExcluded, oInfo, oLongD, oLongM, oLongU, oLongV, oQ, oReference, oRemoved, oShortD,
  oShortM, oShortU, oShortV, oU, stateInitForGraph,
} from './state';


/** Allocates the graph buffers (call mem_reset first when replacing a graph). */
export function sched_graph_init(nTasks: i32, nEnvs: i32, nCats: i32, nnzWithin: i32, nnzCross: i32, nnzFull: i32): void {
  graphInit(nTasks, nEnvs, nCats, nnzWithin, nnzCross, nnzFull);
  configInit();
}

/** Validates the graph buffers written by the engine and allocates everything per graph. */
export function sched_graph_ready(): void {
  graphReady();
  rankInitForGraph();
  stateInitForGraph();
  historyInitForGraph();
  progressInitForGraph();
  neighboursInitForGraph();
}

export function sched_history_clear(): void {
  historyClear();
  progressReset();
  invalidateNeighbours();
}

export function sched_history_reserve(observations: i32, steps: i32): void {
  historyReserve(observations, steps);
}

/** Makes the reward staging buffer hold k rewards; read its pointer with sched_ptr afterwards. */
export function sched_reward_buffer(k: i32): void {
  ensureRewardCapacity(k);
}

/** Stages the group of k rewards in the reward buffer (flags buffer used when hasFlags). */
export function sched_stage_group(task: i32, k: i32, hasFlags: bool): void {
  stageGroup(task, hRewards, hasFlags ? hRewardFlags : 0, k);
}

/** Stages precomputed statistics (m, v, d of SPEC 2) for one group. */
export function sched_stage_stats(task: i32, m: f64, v: f64, d: f64, removes: bool): void {
  stageStats(task, m, v, d, removes);
}

export function sched_stage_discard(): void {
  stageDiscard();
}

export function sched_commit_step(step: i32): void {
  commitStep(step);
}

export function sched_obs_count(): i32 {
  return hObsCount;
}

export function sched_last_step(): i32 {
  return hLastStep;
}

export function sched_config_set(slot: i32, value: f64): void {
  configSet(slot, value);
}

/** Scores step t with the configuration block; returns the batch length. */
export function sched_score(t: i32): i32 {
  return scoreStep(t);
}

// Slots of sched_ptr (mirrored in src/engine/wasm/layout.ts).
export function sched_ptr(slot: i32): usize {
  switch (slot) {
    case 0: return gTaskEnv;
    case 1: return gEnvCat;
    case 2: return gWOff;
    case 3: return gWIdx;
    case 4: return gWSim;
    case 5: return gCOff;
    case 6: return gCIdx;
    case 7: return gCSim;
    case 8: return gFOff;
    case 9: return gFIdx;
    case 10: return gFSim;
    case 11: return cfgBlock;
    case 12: return hRewards;
    case 13: return hRewardFlags;
    case 14: return oLongV;
    case 15: return oLongM;
    case 16: return oLongD;
    case 17: return oLongU;
    case 18: return oShortV;
    case 19: return oShortM;
    case 20: return oShortD;
    case 21: return oShortU;
    case 22: return oU;
    case 23: return oQ;
    case 24: return oRemoved;
    case 25: return oExcluded;
    case 26: return oReference;
    case 27: return oBatchTask;
    case 28: return oBatchPhase;
    case 29: return oInfo;
    case 30: return hObsStep;
    case 31: return hObsTask;
    case 32: return hObsM;
    case 33: return hObsV;
    case 34: return hObsD;
    case 35: return hObsRemoves;
    default: return 0;
  }
}

// The transcendental functions the kernels use (AssemblyScript's NativeMath, compiled into this
// module). Exported so the TypeScript reference can run on the very same functions in property
// tests and the two implementations agree to the bit, ties included.
export function sched_math_exp(x: f64): f64 {
  return Math.exp(x);
}

export function sched_math_pow(x: f64, y: f64): f64 {
  return Math.pow(x, y);
}

export function sched_math_log(x: f64): f64 {
  return Math.log(x);
}

/** Test hook: coverage groups of more than n tasks are searched in q order (default 4096). */
export function sched_set_large_group(n: i32): void {
  setLargeGroup(n);
}

/** Diagnostics: how many tasks had their neighbour lists rebuilt by the latest score. */
export function sched_neighbours_rebuilt(): i32 {
  return nbLastRebuilt;
}

/** FNV-1a 32-bit of `len` bytes at `ptr`, continuing from `hash` (binary graph checksum, read in chunks). */
export function sched_fnv1a(ptr: usize, len: usize, hash: u32): u32 {
  let h = hash;
  const end = ptr + len;
  for (let p = ptr; p < end; p++) {
    h ^= <u32>load<u8>(p);
    h *= 0x01000193;
  }
  return h;
}

/** Test hook: radix digit width (8 or 16, 0 = by pool size) for graphs loaded afterwards. */
export function sched_set_radix_bits(bits: i32): void {
  setRadixBits(bits);
}

/** Test hook: move budget of the sort's high-word fix-up (-1 = pool size; 0 = full passes whenever a run needs a move). */
export function sched_set_sort_budget(budget: i32): void {
  setSortBudget(budget);
}

/** Test hook: sorts n <= N f64 keys at keysPtr (SPEC 5 order: ascending, ties by index); returns the i32 order's pointer. */
export function sched_sort_keys(keysPtr: usize, n: i32): usize {
  if (!gReady || n < 0 || n > gN) abort('sort: n must be within the loaded pool size');
  sortByKey(keysPtr, n);
  return sortedIdx;
}
