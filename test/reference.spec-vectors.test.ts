// The reference scheduler against the seven independent worked cases of SPEC 2-8 and 12
// (test/fixtures/spec-vectors): every number to 1e-9 relative, the batch task for task.
import { describe, expect, it } from 'vitest';
import { explainFromAnalysis, analyse, referenceScore, scoresOf } from '../src/reference/index.ts';
import type { Scores } from '../src/engine/types.ts';
import { expectSpecVectorScores, loadSpecVector, SPEC_VECTOR_NAMES } from './helpers/spec-vectors.ts';

const HALF_LIVES = ['long', 'short'] as const;

describe('reference scheduler on the SPEC vectors', () => {
  it('finds all seven cases', () => {
    expect(SPEC_VECTOR_NAMES).toEqual([
      'cold-start',
      'coverage-only',
      'cross-only-removals',
      'envsched-basic',
      'envsched-relaxed-and-excluded',
      'short-batch',
      'within-only',
    ]);
  });

  for (const name of SPEC_VECTOR_NAMES) {
    describe(name, () => {
      const vector = loadSpecVector(name);
      const actual = referenceScore(vector.graph, vector.observations, vector.config, vector.step);

      it('scores the same step, with the default step one past the last observation', () => {
        expect(actual.step).toBe(vector.expected.step);
        expect(referenceScore(vector.graph, vector.observations, vector.config).step).toBe(vector.expected.step);
      });

      expectSpecVectorScores(vector, () => actual);

      it('explains every task with exactly the numbers the scores object prints', () => {
        const analysis = analyse(vector.graph, vector.observations, vector.config, vector.step);
        const scores = scoresOf(vector.graph, analysis);
        scores.tasks.forEach((row, i) => {
          const ex = explainFromAnalysis(vector.graph, analysis, i);
          expect(ex.id).toBe(row.id);
          expect(ex.removed).toBe(row.removed);
          expect(ex.progressExcluded).toBe(row.progressExcluded);
          expect(ex.u ?? undefined).toBe(row.u);
          expect(ex.q ?? undefined).toBe(row.q);
          for (const hl of HALF_LIVES) {
            const h = ex[hl];
            if (!h) {
              expect(row[hl]).toBeUndefined();
              continue;
            }
            expect({ ...h.predicted, u: h.u }).toEqual(row[hl]);
            expect(h.reference).toEqual(scores.reference[hl]);
          }
          const batchPos = scores.batch.findIndex((b) => b.id === row.id);
          expect(ex.batch?.position ?? -1).toBe(batchPos);
        });
      });
    });
  }
});
