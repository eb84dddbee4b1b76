// The configuration block (SPEC 11 names): f64 slots in linear memory, written by the engine
// before each score. Slot numbers are mirrored in src/engine/wasm/layout.ts.
import { allocF64, getF64, setF64 } from './mem';

export const CFG_B = 0;
export const CFG_RHO = 1; // effective rho (coverage-only / exploitation-only already applied, SPEC 12)
export const CFG_K_WITHIN = 2;
export const CFG_K_CROSS = 3;
export const CFG_W_IN = 4;
export const CFG_W_CROSS = 5;
export const CFG_LAMBDA_G = 6;
export const CFG_LAMBDA_S = 7;
export const CFG_H_LONG = 8;
export const CFG_H_SHORT = 9;
export const CFG_ETA_DECLINE = 10;
export const CFG_C0 = 11;
export const CFG_LAMBDA_SIM = 12;
export const CFG_C1 = 13;
export const CFG_C3 = 14;
export const CFG_C_TASK = 15;
export const CFG_LAMBDA_RIDGE = 16;
export const CFG_KAPPA = 17;
export const CFG_PRIOR = 18; // 0 = fused (envsched), 1 = within only, 2 = cross only (SPEC 5 ablations)
export const CFG_SLOTS = 24;

export const PRIOR_FUSED = 0;
export const PRIOR_WITHIN = 1;
export const PRIOR_CROSS = 2;

export let cfgBlock: usize = 0;

export function configInit(): void {
  cfgBlock = allocF64(CFG_SLOTS);
  // SPEC 11 defaults, so a kernel caller that sets nothing gets EnvSched as published
  setF64(cfgBlock, CFG_B, 64);
  setF64(cfgBlock, CFG_RHO, 0.5);
  setF64(cfgBlock, CFG_K_WITHIN, 6);
  setF64(cfgBlock, CFG_K_CROSS, 12);
  setF64(cfgBlock, CFG_W_IN, 0.5);
  setF64(cfgBlock, CFG_W_CROSS, 0.5);
  setF64(cfgBlock, CFG_LAMBDA_G, 2);
  setF64(cfgBlock, CFG_LAMBDA_S, 2);
  setF64(cfgBlock, CFG_H_LONG, 8);
  setF64(cfgBlock, CFG_H_SHORT, 2);
  setF64(cfgBlock, CFG_ETA_DECLINE, 0.5);
  setF64(cfgBlock, CFG_C0, 16);
  setF64(cfgBlock, CFG_LAMBDA_SIM, 0.08);
  setF64(cfgBlock, CFG_C1, 4);
  setF64(cfgBlock, CFG_C3, 11);
  setF64(cfgBlock, CFG_C_TASK, 2);
  setF64(cfgBlock, CFG_LAMBDA_RIDGE, 1);
  setF64(cfgBlock, CFG_KAPPA, 2);
  setF64(cfgBlock, CFG_PRIOR, PRIOR_FUSED);
}

// @ts-ignore: decorator
@inline export function cfg(slot: i32): f64 {
  return getF64(cfgBlock, slot);
}

// @ts-ignore: decorator
@inline export function cfgInt(slot: i32): i32 {
  return <i32>getF64(cfgBlock, slot);
}

export function configSet(slot: i32, value: f64): void {
  if (slot < 0 || slot >= CFG_SLOTS) abort('config: slot out of range');
  setF64(cfgBlock, slot, value);
}
