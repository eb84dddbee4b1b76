// PCG32 (O'Neill 2014, XSH-RR over a 64-bit LCG): a TypeScript port of assembly/common/rng.ts for
// offline generation. Same seeding, same outputs, bit for bit (test/pool-rng.test.ts checks it
// against a BigInt reference), so a pool is a pure function of its seed on every machine.
// 64-bit state is held as two uint32 halves; no BigInt on the hot path.

const MUL_HI = 0x5851f42d; // 6364136223846793005 = 0x5851F42D_4C957F2D
const MUL_LO = 0x4c957f2d;

/** High 32 bits of the 64-bit product of two uint32 values (exact, via 16-bit limbs). */
function mulHigh32(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  return (p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16)) >>> 0;
}

export class Pcg32 {
  private hi = 0x853c49e6;
  private lo = 0x748fea9b;
  private incHi = 0xda3e39cb;
  private incLo = 0x94b95bdb;

  /** Same seeding as `rng_seed(seed, stream)` of the WASM module. */
  constructor(seed: number, stream = 0) {
    this.hi = 0;
    this.lo = 0;
    this.incHi = (stream >>> 31) >>> 0;
    this.incLo = ((stream << 1) | 1) >>> 0;
    this.nextU32();
    const lo = this.lo + (seed >>> 0);
    this.hi = (this.hi + (lo > 0xffffffff ? 1 : 0)) >>> 0;
    this.lo = lo >>> 0;
    this.nextU32();
  }

  nextU32(): number {
    const oh = this.hi;
    const ol = this.lo;
    // state = old * MULTIPLIER + increment (mod 2^64)
    const pl = Math.imul(ol, MUL_LO) >>> 0;
    const ph = (mulHigh32(ol, MUL_LO) + Math.imul(oh, MUL_LO) + Math.imul(ol, MUL_HI)) >>> 0;
    const sl = pl + this.incLo;
    this.lo = sl >>> 0;
    this.hi = (ph + this.incHi + (sl > 0xffffffff ? 1 : 0)) >>> 0;
    // output: rotr32(u32(((old >> 18) ^ old) >> 27), old >> 59)
    const xh = (oh ^ (oh >>> 18)) >>> 0;
    const xl = (ol ^ ((ol >>> 18) | (oh << 14))) >>> 0;
    const xorshifted = ((xl >>> 27) | (xh << 5)) >>> 0;
    const rot = oh >>> 27;
    return ((xorshifted >>> rot) | (xorshifted << ((32 - rot) & 31))) >>> 0;
  }

  /** Uniform double in [0, 1) with 53 random bits (as rngNextF64). */
  nextF64(): number {
    const hi = this.nextU32() >>> 5;
    const lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, bound), unbiased (Lemire), as rngNextBelow. */
  below(bound: number): number {
    let x = this.nextU32();
    let low = Math.imul(x, bound) >>> 0;
    if (low < bound) {
      const threshold = ((0x100000000 - bound) % bound) >>> 0;
      while (low < threshold) {
        x = this.nextU32();
        low = Math.imul(x, bound) >>> 0;
      }
    }
    return mulHigh32(x, bound);
  }

  // Conveniences for the generator (all built on the primitives above).
  int(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }
  chance(p: number): boolean {
    return this.nextF64() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)];
  }
  /** Standard normal by Box-Muller (one value per call; deterministic given the stream). */
  normal(): number {
    const u = 1 - this.nextF64();
    const v = this.nextF64();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  /** Fisher-Yates shuffle of a copy. */
  shuffled<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
  /** `k` distinct items in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    return this.shuffled(items).slice(0, Math.min(k, items.length));
  }
}
