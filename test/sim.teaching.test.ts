// The teaching dataset shows the effect (docs/simulator.md): on `tiny` (6 environments x 8 tasks,
// small enough to read on a projector) with B = 8 and the calibrated world, EnvSched beats random
// on held-out score and on environments per batch, seed by seed.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LoadedGraph } from '../src/engine/types.ts';
import { loadDataset } from '../src/sim/dataset-node.ts';
import { simulate } from './helpers/sim-fixtures.ts';

let tiny: LoadedGraph;
beforeAll(async () => {
  tiny = (await loadDataset('tiny')).loaded;
});

describe('teaching dataset tiny (B = 8, 200 steps, calibrated world)', () => {
  it('EnvSched beats random on held-out gain and coverage on each of five seeds', async () => {
    for (let seed = 0; seed < 5; seed++) {
      const random = await simulate(tiny, 'random', { seed, B: 8 });
      const envsched = await simulate(tiny, 'envsched', { seed, B: 8 });
      const gain = (r: typeof random) => r.summary.heldoutFinal - r.summary.heldoutInitial;
      expect(gain(envsched), `seed ${seed}`).toBeGreaterThan(gain(random));
      expect(envsched.summary.envsPerBatch, `seed ${seed}`).toBeGreaterThan(random.summary.envsPerBatch + 0.5);
    }
  });
});
