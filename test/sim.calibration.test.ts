// The simulator's calibration on the bundled envscaler-rl pool (docs/simulator.md): random
// scheduling over 200 steps lands in the bands, the held-out score is still rising at
// step 200, and EnvSched moves the figures the way the paper says it should.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/engine/config.ts';
import type { LoadedGraph } from '../src/engine/types.ts';
import { loadDataset } from '../src/sim/dataset-node.ts';
import { runSimulation, type RunResult } from '../src/sim/run.ts';
import { loadRunWasmNode } from '../src/sim/wasm-node.ts';

let loaded: LoadedGraph;
const run = async (scheduler: string, seed: number): Promise<RunResult> =>
  runSimulation(await loadRunWasmNode(), loaded, parseConfig({ scheduler, seed }, 'test'), 'envscaler-rl');

beforeAll(async () => {
  loaded = (await loadDataset('envscaler-rl')).loaded;
});

describe('simulator calibration on envscaler-rl (200 steps)', () => {
  it('random scheduling: mean selected variance in [0.02, 0.045], median reward in [0.5, 0.7], held-out still rising', async () => {
    const r = await run('random', 0);
    expect(r.summary.meanVariance).toBeGreaterThan(0.02);
    expect(r.summary.meanVariance).toBeLessThan(0.045);
    expect(r.summary.medianReward).toBeGreaterThan(0.5);
    expect(r.summary.medianReward).toBeLessThan(0.7);
    const heldout = r.steps.map((s) => s.heldoutOverall);
    expect(heldout[199]).toBeGreaterThan(heldout[179]);
    expect(heldout[199]).toBeGreaterThan(heldout[0] + 3);
  });

  it('EnvSched selects higher-variance groups and covers more environments than random', async () => {
    const [random, envsched] = [await run('random', 1), await run('envsched', 1)];
    expect(envsched.summary.meanVariance).toBeGreaterThan(random.summary.meanVariance);
    expect(envsched.summary.envsPerBatch).toBeGreaterThan(random.summary.envsPerBatch + 5);
  });
});
