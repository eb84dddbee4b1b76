// The step meter's kernel (assembly/sim/meter.ts) ranks the pool's true variances and the
// scheduler's prediction every simulated step. Its hit threshold and rank correlation must be
// exactly those of the TypeScript definitions in src/sim/metrics.ts, bit for bit, and it must hand
// back to them the inputs it does not take (NaN anywhere, -0 in the truth).
import { beforeAll, describe, expect, it } from 'vitest';
import { averageRanks, pearsonOfRanks, ranksAndQuantile } from '../src/sim/metrics.ts';
import { loadSimWasmNode } from '../src/sim/wasm-node.ts';
import { WasmHeap, type SimWasmExports } from '../src/sim/wasm.ts';
import { mulberry32 } from '../src/util/mulberry32.ts';
import { sample } from './helpers/metric-samples.ts';

const CAPACITY = 3000;
let wasm: SimWasmExports;
let heap: WasmHeap;
let ptr: { truth: number; predicted: number; trueRanks: number; predictedRanks: number; out: number };

beforeAll(async () => {
  wasm = await loadSimWasmNode();
  heap = new WasmHeap(wasm);
  ptr = {
    truth: heap.allocF64(CAPACITY),
    predicted: heap.allocF64(CAPACITY),
    trueRanks: heap.allocF64(CAPACITY),
    predictedRanks: heap.allocF64(CAPACITY),
    out: heap.allocF64(3),
  };
  wasm.meter_reserve(CAPACITY);
});

interface Judged {
  status: number;
  threshold: number;
  rankCorrelation: number | null;
  trueRanks: number[];
}

function judgeInWasm(truth: Float64Array, predicted: Float64Array | null, p: number): Judged {
  const n = truth.length;
  heap.f64(ptr.truth, n).set(truth);
  if (predicted) heap.f64(ptr.predicted, n).set(predicted);
  const status = wasm.meter_judge(ptr.truth, predicted ? ptr.predicted : 0, n, p, ptr.trueRanks, ptr.predictedRanks, ptr.out);
  const out = heap.f64(ptr.out, 3);
  return {
    status,
    threshold: out[0],
    rankCorrelation: predicted && out[2] === 0 ? out[1] : null,
    trueRanks: Array.from(heap.f64(ptr.trueRanks, n)),
  };
}

const hasNaN = (x: Float64Array) => x.some((v) => v !== v);
const hasNegativeZero = (x: Float64Array) => x.some((v) => Object.is(v, -0));

describe('the step meter kernel', () => {
  it('gives the hit threshold, the true ranks and Spearman exactly as metrics.ts', () => {
    const next = mulberry32(11);
    let judged = 0;
    for (let c = 0; c < 400; c++) {
      const n = 1 + Math.floor(next() * (c % 2 === 0 ? 60 : CAPACITY));
      const truth = sample(next, n, c % 6);
      if (c % 3 !== 0) for (let i = 0; i < n; i++) truth[i] += 0; // x + 0: -0 becomes +0, so the kernel takes it
      const predicted = c % 7 === 0 ? null : sample(next, n, (c + 1 + (c >> 2)) % 6); // -0 and +0 tie in ranks
      const p = c % 3 === 1 ? 0.75 : next();
      const got = judgeInWasm(truth, predicted, p);
      if (hasNegativeZero(truth)) {
        expect(got.status).toBe(1);
        continue;
      }
      expect(got.status).toBe(0);
      judged++;
      const want = ranksAndQuantile(truth, p);
      expect(Object.is(got.threshold, want.quantile)).toBe(true);
      expect(got.trueRanks).toEqual(Array.from(want.ranks));
      expect(got.rankCorrelation).toBe(predicted ? pearsonOfRanks(averageRanks(predicted), want.ranks) : null);
    }
    expect(judged).toBeGreaterThan(250);
  });

  it('declines NaN in either input, -0 in the truth and pools beyond its workspace, leaving them to metrics.ts', () => {
    const truth = Float64Array.from({ length: 50 }, (_, i) => i / 200);
    const predicted = Float64Array.from({ length: 50 }, (_, i) => (i * 7) % 50);
    expect(judgeInWasm(truth, predicted, 0.75).status).toBe(0);
    const nanTruth = truth.slice();
    nanTruth[3] = NaN;
    expect(hasNaN(nanTruth) && judgeInWasm(nanTruth, predicted, 0.75).status).toBe(1);
    const nanPredicted = predicted.slice();
    nanPredicted[9] = NaN;
    expect(judgeInWasm(truth, nanPredicted, 0.75).status).toBe(1);
    const negativeZero = truth.slice();
    negativeZero[0] = -0;
    expect(judgeInWasm(negativeZero, predicted, 0.75).status).toBe(1);
    expect(judgeInWasm(new Float64Array(0), null, 0.75).status).toBe(1);
    expect(wasm.meter_judge(ptr.truth, 0, CAPACITY + 1, 0.75, ptr.trueRanks, ptr.predictedRanks, ptr.out)).toBe(1);
  });

  it('calls a constant side uncorrelated (null), as pearsonOfRanks does', () => {
    const truth = Float64Array.from({ length: 80 }, (_, i) => (i % 9) / 40);
    const constant = new Float64Array(80).fill(0.125);
    expect(judgeInWasm(truth, constant, 0.75).rankCorrelation).toBeNull();
    expect(pearsonOfRanks(averageRanks(constant), ranksAndQuantile(truth, 0.75).ranks)).toBeNull();
    expect(judgeInWasm(truth, truth, 0.75).rankCorrelation).toBe(1);
  });
});
