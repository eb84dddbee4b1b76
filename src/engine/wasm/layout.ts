// The WASM interface's numbers, in one place: pointer slots, the configuration block, the info
// block and the codes of phases, relaxations and priors. scripts/gen-wasm-layout.mjs writes the
// AssemblyScript side (assembly/scheduler/layout.ts) from this file before every build:wasm, and
// test/wasm-layout.test.ts fails when that file or docs/wasm-layout.md disagrees with it.
// Plain data with type-only imports: the generator loads this file by itself.
import type { CapRule, Phase } from '../types.ts';

function slotsOf<const T extends readonly string[]>(names: T): { readonly [K in T[number]]: number } {
  return Object.freeze(Object.fromEntries(names.map((name, slot) => [name, slot]))) as { readonly [K in T[number]]: number };
}

/** Buffers of `sched_ptr(slot)` in slot order (types and lengths in docs/wasm-layout.md). */
export const POINTER_NAMES = [
  'taskEnv', // i32[N]
  'envCategory', // i32[E]
  'withinOffsets', // i32[N+1]
  'withinIndex', // i32[nnz]
  'withinSim', // f64[nnz]
  'crossOffsets',
  'crossIndex',
  'crossSim',
  'fullCrossOffsets',
  'fullCrossIndex',
  'fullCrossSim',
  'config', // f64[CFG_SLOTS]
  'rewards', // f64[reward capacity]: staging of one group's rewards
  'rewardFlags', // u8[reward capacity]
  'longV', // f64[N] predictions (yhat) and u per half-life
  'longM',
  'longD',
  'longU',
  'shortV',
  'shortM',
  'shortD',
  'shortU',
  'u', // f64[N] decline-adjusted u
  'q', // f64[N] priority
  'removed', // u8[N] identifier filter
  'excluded', // u8[N] progress filter
  'reference', // f64[6] B_t: long v, m, d, short v, m, d
  'batchTask', // i32[B] in pick order
  'batchPhase', // u8[B] PHASES codes
  'info', // i32[INFO_SLOTS]
  'obsStep', // i32[obs] stored history (step ascending, task ascending within a step)
  'obsTask',
  'obsM', // f64[obs]
  'obsV',
  'obsD',
  'obsRemoves', // u8[obs]
] as const;
export const PTR = slotsOf(POINTER_NAMES);

/**
 * f64 slots of the configuration block in slot order: SPEC 11 names, except that `rho` holds the
 * effective rho (SPEC 12 ablations applied) and `prior` a PRIOR code. The engine writes every one
 * of them before a score; their defaults are SPEC 11's, in src/engine/config.ts only.
 */
export const CONFIG_NAMES = [
  'B',
  'rho',
  'K_within',
  'K_cross',
  'w_in',
  'w_cross',
  'lambda_g',
  'lambda_s',
  'h_long',
  'h_short',
  'eta_decline',
  'c0',
  'lambda_sim',
  'C1',
  'C3',
  'C_task',
  'lambda_ridge',
  'kappa',
  'prior',
] as const;
export const CFG = slotsOf(CONFIG_NAMES);
/** Length of the configuration block (room for new keys without moving a buffer). */
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
