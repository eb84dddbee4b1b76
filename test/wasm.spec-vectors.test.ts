// The WASM scheduler (release build/envsched.wasm) against the seven independent worked cases of
// SPEC 2-8 and 12: every number to 1e-9 relative, the batch task for task, the same relaxations.
import { beforeAll, describe, expect, it } from 'vitest';
import { packGraph } from '../src/engine/pack.ts';
import type { Scores } from '../src/engine/types.ts';
import { loadEnvschedWasmNode } from '../src/engine/wasm/loader-node.ts';
import { WasmScheduler } from '../src/engine/wasm/scheduler.ts';
import { loadSpecVector, scoreMismatches, SPEC_VECTOR_NAMES } from './helpers/spec-vectors.ts';

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
        scheduler.loadGraph(packGraph(vector.graph), vector.graph.tasks.map((t) => t.id));
        scheduler.setHistory(vector.observations);
        actual = scheduler.score(vector.config);
      });

      it('scores one past the last observed step by default', () => {
        expect(actual.step).toBe(vector.expected.step);
      });

      it('matches every number to 1e-9 relative', () => {
        expect(actual.tasks.map((t) => t.id)).toEqual(vector.expected.tasks.map((t) => t.id));
        expect(scoreMismatches(actual, vector.expected)).toEqual([]);
      });

      it('has exactly the fields of the expected scores object', () => {
        expect(Object.keys(actual).sort()).toEqual(Object.keys(vector.expected).sort());
        expect(actual.tasks.map((t) => Object.keys(t).sort())).toEqual(vector.expected.tasks.map((t) => Object.keys(t).sort()));
        expect(Object.keys(actual.reference).sort()).toEqual(Object.keys(vector.expected.reference).sort());
      });

      it('flags the same removed and progress-excluded tasks', () => {
        expect(actual.tasks.map((t) => t.removed)).toEqual(vector.expected.tasks.map((t) => t.removed));
        expect(actual.tasks.map((t) => t.progressExcluded)).toEqual(vector.expected.tasks.map((t) => t.progressExcluded));
      });

      it('picks the same batch in the same order with the same phases', () => {
        expect(actual.batch).toEqual(vector.expected.batch);
      });

      it('reports the same relaxations in order', () => {
        expect(actual.relaxed).toEqual(vector.expected.relaxed);
      });

      it('gives the same scores when the history is appended step by step', () => {
        scheduler.loadGraph(packGraph(vector.graph), vector.graph.tasks.map((t) => t.id));
        const steps = [...new Set(vector.observations.map((o) => o.step))].sort((a, b) => a - b);
        for (const s of steps) {
          scheduler.appendStep(s, vector.observations.filter((o) => o.step === s));
          scheduler.score(vector.config, s + 1); // interleaved scoring must not disturb later steps
        }
        expect(scheduler.score(vector.config, vector.step)).toEqual(actual);
      });
    });
  }
});
