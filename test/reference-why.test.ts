// "Why this task" (src/reference/why.ts): the replayed explanation of a batch always describes the
// batch the scheduler chose, and each reason it gives is true of the numbers behind it.
import { describe, expect, it } from 'vitest';
import { analyse } from '../src/reference/index.ts';
import { explainBatch } from '../src/reference/why.ts';
import { randomCase } from './helpers/random-case.ts';

const CASES = 400;

describe('why this task', () => {
  it('explains every pick of the batch, in order, with the phases and relaxations the scheduler used', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const c = randomCase(seed);
      const a = analyse(c.graph, c.observations, c.config, c.step);
      const { batch } = explainBatch(c.graph, c.config, a);
      expect(
        batch.picks.map((p) => [p.task, p.phase]),
        `seed ${seed}`,
      ).toEqual(a.result.batch.map((p) => [p.task, p.phase]));
      expect(batch.relaxed, `seed ${seed}`).toEqual(a.result.relaxed);
      // Relaxations only accumulate: each pick's list extends the one before (a batch that ends
      // short relaxes the rest after its last pick).
      batch.picks.forEach((p, k) => {
        const before = k === 0 ? [] : batch.picks[k - 1].relaxed;
        expect(p.relaxed).toEqual([...before, ...p.newlyRelaxed]);
        expect(a.result.relaxed.slice(0, p.relaxed.length)).toEqual(p.relaxed);
      });
    }
  });

  it('gives true reasons: the runner-up scores no higher, coverage picks come from the least exposed, q ranks and filters hold', () => {
    let penalties = 0;
    let restrictions = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const c = randomCase(seed);
      const a = analyse(c.graph, c.observations, c.config, c.step);
      const { batch, leftOut } = explainBatch(c.graph, c.config, a);
      for (const p of batch.picks) {
        if (p.runnerUp) {
          expect(p.runnerUp.score).toBeLessThanOrEqual(p.self.score);
          if (p.runnerUp.score === p.self.score) expect(p.runnerUp.task).toBeGreaterThan(p.task);
        }
        if (p.phase === 'exploitation') {
          expect(p.self.score).toBe(p.self.q * p.self.omega - c.config.lambda_sim * p.self.similarity);
          expect(p.self.omega).toBe(1 / Math.sqrt(1 + a.counts.c[p.task] / c.config.c0));
          expect(a.progress?.perTask[p.task].excluded).toBe(false);
        }
        if (p.phase === 'coverage') {
          const r = p.restriction!;
          expect(r.eligible).toBeGreaterThanOrEqual(r.afterEnvironment);
          expect(r.afterEnvironment).toBeGreaterThanOrEqual(r.afterExposure);
          expect(r.afterExposure).toBeGreaterThanOrEqual(r.afterObservations);
          expect(r.afterObservations).toBe(p.candidates);
          expect(r.exposure).toBe(a.counts.X[c.graph.tasks[p.task].env]);
          expect(r.observations).toBe(a.counts.c[p.task]);
          if (r.decidedBy !== 'none') restrictions++;
        }
        expect(p.qRank).toBeGreaterThanOrEqual(1);
        expect(p.qRank).toBeLessThanOrEqual(p.candidates);
        expect(a.removedAt[p.task]).toBeNull();
      }
      const picked = new Set(batch.picks.map((p) => p.task));
      leftOut.forEach((reason, i) => {
        expect(reason === null, `seed ${seed} task ${i}`).toBe(picked.has(i));
        if (reason?.kind === 'removed') expect(a.removedAt[i]?.step).toBe(reason.step);
        if (reason?.kind === 'progress') expect(a.progress?.perTask[i].excluded).toBe(true);
        if (reason?.kind === 'penalty') {
          penalties++;
          expect(reason.margin).toBeGreaterThan(0);
          expect(batch.picks[reason.position]).toBeDefined();
        }
        if (reason?.kind === 'rank') expect(reason.rank).toBeGreaterThan(1);
      });
    }
    // The random cases exercise both kinds of reason, so these checks are not vacuous.
    expect(penalties).toBeGreaterThan(0);
    expect(restrictions).toBeGreaterThan(0);
  });
});
