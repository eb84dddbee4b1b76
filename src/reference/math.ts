// The three transcendental functions of the scheduler (SPEC 3 half-life weights, SPEC 4 kernel
// weights, SPEC 8 ln(1 + n1)), passed to the reference as a parameter. JS_MATH is the JS engine's;
// the WASM module's own (nativeMathOf in src/engine/wasm) makes the reference agree with the
// kernels to the last bit, so every tie, rank and batch compares exactly (property tests, the
// app's inspector). The JS engine's functions differ from those in the last bit for about 10% of
// arguments and between browsers, so nothing that decides a batch runs on JS_MATH.
export interface ScalarMath {
  exp(x: number): number;
  pow(x: number, y: number): number;
  log(x: number): number;
}

export const JS_MATH: ScalarMath = Object.freeze({ exp: Math.exp, pow: Math.pow, log: Math.log });
