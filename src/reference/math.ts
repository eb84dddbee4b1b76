// The three transcendental functions of the scheduler (SPEC 3 half-life weights, SPEC 4 kernel
// weights, SPEC 8 ln(1 + n1)). The reference uses the JS engine's by default; the property tests
// swap in the WASM module's own (sched_math_*) so that reference and kernels agree to the last bit,
// which makes every tie, rank and batch comparable exactly.
export interface ScalarMath {
  exp(x: number): number;
  pow(x: number, y: number): number;
  log(x: number): number;
}

const JS_MATH: ScalarMath = { exp: Math.exp, pow: Math.pow, log: Math.log };

export const scalarMath: ScalarMath = { ...JS_MATH };

/** Replaces the functions the reference uses (null restores the JS engine's). */
export function useScalarMath(math: ScalarMath | null): void {
  Object.assign(scalarMath, math ?? JS_MATH);
}
