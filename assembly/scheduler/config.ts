// The configuration block (SPEC 11 names): f64 slots in linear memory (numbers in ./layout,
// generated from src/engine/wasm/layout.ts), written by the engine before each score. No defaults
// here: SPEC 11's defaults live in src/engine/config.ts only, the engine writes every slot, and
// a score that finds a slot never written aborts instead of running on a guess.
import { CFG_SLOTS, CFG_USED } from './layout';
import { allocF64, getF64, setF64 } from './mem';

export let cfgBlock: usize = 0;

export function configInit(): void {
  cfgBlock = allocF64(CFG_SLOTS);
  for (let slot = 0; slot < CFG_USED; slot++) setF64(cfgBlock, slot, NaN); // "not written yet"
}

/** Aborts unless every used slot holds a number (the engine validates the values themselves). */
export function configCheck(): void {
  for (let slot = 0; slot < CFG_USED; slot++) {
    if (isNaN(getF64(cfgBlock, slot))) abort('config: a configuration slot was not written before sched_score');
  }
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
