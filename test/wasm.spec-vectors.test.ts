// The WASM scheduler (release build/envsched.wasm) against the seven independent worked cases of
// SPEC 2-8 and 12: every number to 1e-9 relative, the batch task for task, the same relaxations.
import { beforeAll, describe, expect, it } from 'vitest';
import { packGraph } from '../src/engine/pack.ts';
import type { Scores } from '../src/engine/types.ts';
import { loadEnvschedWasmNode } from '../src/engine/wasm/loader-node.ts';
import { WasmScheduler } from '../src/engine/wasm/scheduler.ts';
import { expectSpecVectorScores, loadSpecVector, SPEC_VECTOR_NAMES } from './helpers/spec-vectors.ts';

let scheduler: WasmScheduler;
beforeAll(async () => {
  scheduler = new WasmScheduler(await loadEnvschedWasmNode());
});

describe('WASM scheduler on the SPEC vectors', () => {
  it('finds all seven cases', () => {
    expect(SPEC_VECTOR_NAMES).toHaveLength(7);
  });

  for (const name of SPEC_VECTOR_NAMES) {
    describe(name, () => {
      const vector = loadSpecVector(name);
      let actual: Scores;
      beforeAll(() => {
        scheduler.loadGraph(
          packGraph(vector.graph),
          vector.graph.tasks.map((t) => t.id),
        );
        scheduler.setHistory(vector.observations);
        actual = scheduler.score(vector.config);
      });

      it('scores one past the last observed step by default', () => {
        expect(actual.step).toBe(vector.expected.step);
      });

      expectSpecVectorScores(vector, () => actual);

      it('gives the same scores when the history is appended step by step', () => {
        scheduler.loadGraph(
          packGraph(vector.graph),
          vector.graph.tasks.map((t) => t.id),
        );
        const steps = [...new Set(vector.observations.map((o) => o.step))].sort((a, b) => a - b);
        for (const s of steps) {
          scheduler.appendStep(
            s,
            vector.observations.filter((o) => o.step === s),
          );
          scheduler.score(vector.config, s + 1); // interleaved scoring must not disturb later steps
        }
        expect(scheduler.score(vector.config, vector.step)).toEqual(actual);
      });
    });
  }
});
