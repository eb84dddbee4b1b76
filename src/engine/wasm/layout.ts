// Slot numbers shared with assembly/scheduler (index.ts `sched_ptr`, config.ts, state.ts).
// Keep in step with those files and with docs/wasm-layout.md.
import type { CapRule, Phase } from '../types.ts';

/** Arguments of `sched_ptr(slot)`: where each buffer lives in linear memory. */
export const PTR = {
  taskEnv: 0, // i32[N]
  envCategory: 1, // i32[E]
  withinOffsets: 2, // i32[N+1]
  withinIndex: 3, // i32[nnz]
  withinSim: 4, // f64[nnz]
  crossOffsets: 5,
  crossIndex: 6,
  crossSim: 7,
  fullCrossOffsets: 8,
  fullCrossIndex: 9,
  fullCrossSim: 10,
  config: 11, // f64[24], CFG slots
  rewards: 12, // f64[reward capacity]: staging of one group's rewards
  rewardFlags: 13, // u8[reward capacity]
  longV: 14, // f64[N] predictions (yhat) and u per half-life
  longM: 15,
  longD: 16,
  longU: 17,
  shortV: 18,
  shortM: 19,
  shortD: 20,
  shortU: 21,
  u: 22, // f64[N] decline-adjusted u
  q: 23, // f64[N] priority
  removed: 24, // u8[N] identifier filter
  excluded: 25, // u8[N] progress filter
  reference: 26, // f64[6] B_t: long v, m, d, short v, m, d
  batchTask: 27, // i32[B] in pick order
  batchPhase: 28, // u8[B] PHASES codes
  info: 29, // i32[8] INFO slots
  obsStep: 30, // i32[obs] stored history (step ascending, task ascending within a step)
  obsTask: 31,
  obsM: 32, // f64[obs]
  obsV: 33,
  obsD: 34,
  obsRemoves: 35, // u8[obs]
} as const;

/** f64 slots of the configuration block (SPEC 11 names). */
export const CFG = {
  B: 0,
  rho: 1, // effective rho (SPEC 12 ablations applied)
  K_within: 2,
  K_cross: 3,
  w_in: 4,
  w_cross: 5,
  lambda_g: 6,
  lambda_s: 7,
  h_long: 8,
  h_short: 9,
  eta_decline: 10,
  c0: 11,
  lambda_sim: 12,
  C1: 13,
  C3: 14,
  C_task: 15,
  lambda_ridge: 16,
  kappa: 17,
  prior: 18, // PRIOR codes
} as const;
export const CFG_SLOTS = 24;

export const PRIOR = { fused: 0, withinOnly: 1, crossOnly: 2 } as const;

/** i32 slots of the info block. */
export const INFO = {
  batchLength: 0,
  relaxedCount: 1,
  relaxed0: 2, // .. relaxed0 + 2: RELAXED codes in order
  coldStart: 5, // 1 when nothing was observed before t (SPEC 7)
  observationsUsed: 6, // observations with s < t
  stepsUsed: 7, // distinct observed steps s < t
} as const;
export const INFO_SLOTS = 8;

/** Phase codes of `batchPhase`, index = code. */
export const PHASES: readonly Phase[] = ['cold-start', 'coverage', 'exploitation', 'random'];
/** Relaxation codes, index = code (SPEC 6 order). */
export const RELAXED: readonly CapRule[] = ['C_task', 'C3', 'C1'];
