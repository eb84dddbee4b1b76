// Scheduler kernels (SPEC 2-8), exported to JS with the `sched_` prefix. Data goes through linear
// memory: the engine asks for buffer pointers with sched_ptr(slot) (slot numbers in ./layout,
// generated from src/engine/wasm/layout.ts) and views them as typed arrays. See
// docs/wasm-layout.md. Test hooks are in ./test-hooks, exported by the test build only.
//
// AssemblyScript callers (the simulator) can use the same functions directly:
// stageGroup / commitStep (./history) to append a step, scoreStep(t) (./score) to choose the next batch.
import { configInit, configSet, cfgBlock } from './config';
import {
  PTR_TASK_ENV, PTR_ENV_CATEGORY, PTR_WITHIN_OFFSETS, PTR_WITHIN_INDEX, PTR_WITHIN_SIM, PTR_CROSS_OFFSETS,
  PTR_CROSS_INDEX, PTR_CROSS_SIM, PTR_FULL_CROSS_OFFSETS, PTR_FULL_CROSS_INDEX, PTR_FULL_CROSS_SIM,
  PTR_CONFIG, PTR_REWARDS, PTR_REWARD_FLAGS, PTR_LONG_V, PTR_LONG_M, PTR_LONG_D, PTR_LONG_U, PTR_SHORT_V,
  PTR_SHORT_M, PTR_SHORT_D, PTR_SHORT_U, PTR_U, PTR_Q, PTR_REMOVED, PTR_EXCLUDED, PTR_REFERENCE,
  PTR_BATCH_TASK, PTR_BATCH_PHASE, PTR_INFO, PTR_OBS_STEP, PTR_OBS_TASK, PTR_OBS_M, PTR_OBS_V, PTR_OBS_D,
  PTR_OBS_REMOVES,
} from './layout';
import {
  gCIdx, gCOff, gCSim, gEnvCat, gFIdx, gFOff, gFSim, gTaskEnv, gWIdx, gWOff, gWSim, graphInit, graphReady,
} from './graph';
import {
  commitStep, ensureRewardCapacity, historyClear, historyInitForGraph, historyReserve, hObsCount, hObsD, hObsM,
  hObsStep, hObsTask, hObsV, hLastStep, hRewardFlags, hRewards, stageDiscard, stageGroup, stageStats, hObsRemoves,
} from './history';
import { invalidateNeighbours, neighboursInitForGraph } from './neighbours';
import { progressInitForGraph, progressReset } from './progress-filter';
import { rankInitForGraph } from './rank';
import { scoreStep } from './score';
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

// Buffers by slot (the numbers are in ./layout, generated from src/engine/wasm/layout.ts).
export function sched_ptr(slot: i32): usize {
  switch (slot) {
    case PTR_TASK_ENV: return gTaskEnv;
    case PTR_ENV_CATEGORY: return gEnvCat;
    case PTR_WITHIN_OFFSETS: return gWOff;
    case PTR_WITHIN_INDEX: return gWIdx;
    case PTR_WITHIN_SIM: return gWSim;
    case PTR_CROSS_OFFSETS: return gCOff;
    case PTR_CROSS_INDEX: return gCIdx;
    case PTR_CROSS_SIM: return gCSim;
    case PTR_FULL_CROSS_OFFSETS: return gFOff;
    case PTR_FULL_CROSS_INDEX: return gFIdx;
    case PTR_FULL_CROSS_SIM: return gFSim;
    case PTR_CONFIG: return cfgBlock;
    case PTR_REWARDS: return hRewards;
    case PTR_REWARD_FLAGS: return hRewardFlags;
    case PTR_LONG_V: return oLongV;
    case PTR_LONG_M: return oLongM;
    case PTR_LONG_D: return oLongD;
    case PTR_LONG_U: return oLongU;
    case PTR_SHORT_V: return oShortV;
    case PTR_SHORT_M: return oShortM;
    case PTR_SHORT_D: return oShortD;
    case PTR_SHORT_U: return oShortU;
    case PTR_U: return oU;
    case PTR_Q: return oQ;
    case PTR_REMOVED: return oRemoved;
    case PTR_EXCLUDED: return oExcluded;
    case PTR_REFERENCE: return oReference;
    case PTR_BATCH_TASK: return oBatchTask;
    case PTR_BATCH_PHASE: return oBatchPhase;
    case PTR_INFO: return oInfo;
    case PTR_OBS_STEP: return hObsStep;
    case PTR_OBS_TASK: return hObsTask;
    case PTR_OBS_M: return hObsM;
    case PTR_OBS_V: return hObsV;
    case PTR_OBS_D: return hObsD;
    case PTR_OBS_REMOVES: return hObsRemoves;
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
