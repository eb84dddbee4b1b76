// The one seeded generator of the project (PCG32, O'Neill 2014: XSH-RR output over a 64-bit LCG).
// Every random decision (simulated rollouts, random baselines, random cold starts) draws from it,
// so one seed gives the same run in every browser and in Node (SPEC 10).

const MULTIPLIER: u64 = 6364136223846793005;

let state: u64 = 0x853c49e6748fea9b;
let increment: u64 = 0xda3e39cb94b95bdb;

/** Re-seeds the generator (u32 arguments so JS passes plain numbers). `stream` selects an independent sequence. */
export function rng_seed(seed: u32, stream: u32): void {
  state = 0;
  increment = (<u64>stream << 1) | 1;
  rngNextU32();
  state += <u64>seed;
  rngNextU32();
}

/** Saves the generator state into two u64 slots at `ptr` (for checkpoints / cancellation). */
export function rng_save(ptr: usize): void {
  store<u64>(ptr, state);
  store<u64>(ptr, increment, 8);
}

export function rng_restore(ptr: usize): void {
  state = load<u64>(ptr);
  increment = load<u64>(ptr, 8);
}

// @ts-ignore: decorator
@inline
export function rngNextU32(): u32 {
  const old = state;
  state = old * MULTIPLIER + increment;
  const xorshifted = <u32>(((old >> 18) ^ old) >> 27);
  const rot = <u32>(old >> 59);
  return rotr<u32>(xorshifted, rot);
}

/** Uniform double in [0, 1) with 53 random bits. */
export function rngNextF64(): f64 {
  const hi = <u64>(rngNextU32() >> 5); // 27 bits
  const lo = <u64>(rngNextU32() >> 6); // 26 bits
  return <f64>((hi << 26) | lo) * (1.0 / 9007199254740992.0);
}

/** Uniform integer in [0, bound), unbiased (Lemire's multiply-and-reject). `bound` must be >= 1. */
export function rngNextBelow(bound: u32): u32 {
  let product = <u64>rngNextU32() * <u64>bound;
  let low = <u32>product;
  if (low < bound) {
    const threshold: u32 = (<u32>0 - bound) % bound;
    while (low < threshold) {
      product = <u64>rngNextU32() * <u64>bound;
      low = <u32>product;
    }
  }
  return <u32>(product >> 32);
}

/** Exported for tests: the next raw 32-bit output. */
export function rng_next_u32(): u32 {
  return rngNextU32();
}

export function rng_next_f64(): f64 {
  return rngNextF64();
}

export function rng_next_below(bound: u32): u32 {
  return rngNextBelow(bound);
}
