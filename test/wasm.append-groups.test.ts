// WasmScheduler.appendGroups (the simulator's fast path: a step's groups straight from typed
// arrays, in batch order) must store exactly what appendStep stores for the same observations:
// two instances, one fed each way, give the same scores after every step.
import { beforeAll, describe, expect, it } from 'vitest';
import { packGraph } from '../src/engine/pack.ts';
import { serializeScores } from '../src/engine/scores-json.ts';
import type { Observation } from '../src/engine/types.ts';
import { loadEnvschedWasmNode } from '../src/engine/wasm/loader-node.ts';
import type { EnvschedWasm } from '../src/engine/wasm/loader.ts';
import { WasmScheduler } from '../src/engine/wasm/scheduler.ts';
import { randomCase, testRng } from './helpers/random-case.ts';

let wasmA: EnvschedWasm;
let wasmB: EnvschedWasm;

beforeAll(async () => {
  wasmA = await loadEnvschedWasmNode();
  wasmB = await loadEnvschedWasmNode();
});

describe('appendGroups', () => {
  it('stores what appendStep stores (groups in any order, flags only where a rollout is flagged)', () => {
    let compared = 0;
    let flaggedGroups = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const c = randomCase(seed);
      const packed = packGraph(c.graph);
      const ids = c.graph.tasks.map((t) => t.id);
      const viaObjects = new WasmScheduler(wasmA);
      const viaArrays = new WasmScheduler(wasmB);
      viaObjects.loadGraph(packed, ids);
      viaArrays.loadGraph(packed, ids);
      const rng = testRng(seed + 1000);
      const steps = [...new Set(c.observations.map((o) => o.step))].sort((a, b) => a - b);
      for (const step of steps) {
        const obs = c.observations.filter((o) => o.step === step);
        const K = obs[0].rewards.length;
        // batch order: shuffled, as the simulator's batches are in pick order
        const order: Observation[] = [...obs];
        for (let a = order.length - 1; a > 0; a--) {
          const b = rng.int(0, a);
          [order[a], order[b]] = [order[b], order[a]];
        }
        const tasks = Int32Array.from(order, (o) => o.task);
        const rewards = new Float64Array(order.length * K);
        const flags = new Int32Array(order.length * K);
        order.forEach((o, b) => {
          rewards.set(o.rewards, b * K);
          o.flags?.forEach((f, r) => (flags[b * K + r] = f ? 1 : 0));
          if (o.flags?.some((f) => f)) flaggedGroups++;
        });
        viaObjects.appendStep(step, obs);
        viaArrays.appendGroups(step, tasks, K, rewards, flags);
        expect(viaArrays.lastStoredStep).toBe(step);
        const a = serializeScores(viaObjects.score(c.config, step + 1));
        const b = serializeScores(viaArrays.score(c.config, step + 1));
        expect(b).toBe(a);
        compared++;
      }
      // a step not after the last stored one is refused, and stores nothing
      if (steps.length > 0) {
        expect(() => viaArrays.appendGroups(steps[steps.length - 1], Int32Array.of(0), 1, Float64Array.of(1), Int32Array.of(0))).toThrow(
          /not after/,
        );
      }
    }
    expect(compared).toBeGreaterThan(200);
    expect(flaggedGroups).toBeGreaterThan(20);
  });
});
