// Value sets for the step meter's statistics (src/sim/metrics.ts and its kernel, assembly/sim/meter.ts).

/** Pools shaped like the simulator's: coarse grids (many ties), zeros of both signs, negatives, wide ranges. */
export function sample(next: () => number, n: number, kind: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = next();
    if (kind === 0)
      out[i] = Math.round(u * 16) / 64; // heavy ties in [0, 0.25]
    else if (kind === 1) out[i] = u < 0.2 ? (u < 0.1 ? -0 : 0) : u * 0.25;
    else if (kind === 2) out[i] = (u - 0.5) * Math.pow(10, Math.floor(next() * 40) - 20);
    else if (kind === 3) out[i] = u < 0.5 ? -Math.round(u * 8) : Math.round(u * 8) / 3;
    else if (kind === 4)
      out[i] = 0.1 + Math.floor(u * 1000) * 1e-17; // one high word, low words unordered
    else out[i] = 0.125; // constant
  }
  return out;
}
