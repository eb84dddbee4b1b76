// The teaching dataset (docs/simulator.md): on `tiny` (6 environments x 8 tasks, small enough to
// read on a projector) with B = 8 and the calibrated world, EnvSched covers more environments than
// random on every seed. Its held-out gain beats random's on most seeds but not on all: in the
// eighth fit's world (the defaults since 2 December 2026) it wins on 7 of seeds 0-9, with gains
// 0.955 to 1.032 times random's (docs/reproduction.md, "What does not"; the fifth fit's world won
// on all ten, the seventh's on nine). The test holds what the world does, so a change that makes
// the teaching effect weaker than that shows here.
import { beforeAll, describe, expect, it } from 'vitest';
import type { LoadedGraph } from '../src/engine/types.ts';
import { loadDataset } from '../src/sim/dataset-node.ts';
import { simulate } from './helpers/sim-fixtures.ts';

let tiny: LoadedGraph;
beforeAll(async () => {
  tiny = (await loadDataset('tiny')).loaded;
});

describe('teaching dataset tiny (B = 8, 200 steps, calibrated world)', () => {
  it('EnvSched covers more environments on each of ten seeds, and gains more than random on most of them, never much less', async () => {
    let wins = 0;
    for (let seed = 0; seed < 10; seed++) {
      const random = await simulate(tiny, 'random', { seed, B: 8 });
      const envsched = await simulate(tiny, 'envsched', { seed, B: 8 });
      const gain = (r: typeof random) => r.summary.heldoutFinal - r.summary.heldoutInitial;
      expect(envsched.summary.envsPerBatch, `seed ${seed}`).toBeGreaterThan(random.summary.envsPerBatch + 0.5);
      expect(gain(envsched) / gain(random), `seed ${seed}`).toBeGreaterThan(0.95);
      if (gain(envsched) > gain(random)) wins++;
    }
    expect(wins).toBeGreaterThanOrEqual(6);
  });
});
