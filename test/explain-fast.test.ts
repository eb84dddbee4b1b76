// Explain mode's and the inspector's fast analysis of a step (src/worker/step-analysis.ts: the
// kernels' pool-wide scores, the reference's terms for one task) against the reference's
// whole-pool analysis, the oracle: on random small cases every task's explanation is the same
// object, number for number, and the batch's "why" (picks and every left-out reason) is the same.
import { describe, expect, it } from 'vitest';
import { scorePool } from '../src/engine/pool-scores.ts';
import { analyse, explainFromAnalysis, fullSimilarity } from '../src/reference/index.ts';
import { explainBatch } from '../src/reference/why.ts';
import { analyseStep, explainTaskAt, PreparedHistory } from '../src/worker/step-analysis.ts';
import { randomCase } from './helpers/random-case.ts';
import { wasmOracle } from './helpers/wasm-oracle.ts';

const oracle = wasmOracle();
const CASES = 300;

describe('the fast step analysis', () => {
  it('explains every task and every pick exactly as the reference analysis of the whole pool does', () => {
    let picks = 0;
    let withProgress = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const c = randomCase(seed);
      oracle.load(c.graph, c.observations);
      const prepared = new PreparedHistory(c.observations, c.graph.tasks.length);
      const fast = analyseStep(c.graph, prepared, c.config, scorePool(oracle.scheduler, c.config, c.step), oracle.math);
      const reference = analyse(c.graph, c.observations, c.config, c.step, oracle.math);
      for (let i = 0; i < c.graph.tasks.length; i++) {
        const got = explainTaskAt(c.graph, fast, c.config, oracle.math, i);
        expect(got, `seed ${seed}, task ${i}`).toEqual(explainFromAnalysis(c.graph, reference, i));
        if (got.progress && got.progress.residuals.length > 0) withProgress++;
      }
      const why = explainBatch(c.graph, c.config, fast);
      expect(why, `seed ${seed}`).toEqual(explainBatch(c.graph, c.config, reference));
      // The replay's running similarity maxima are S_full's maxima over the picks before (a cold
      // start's representatives are scored by centrality alone).
      for (const p of why.batch.picks.filter((q) => q.coldStartRule !== 'representative')) {
        const before = why.batch.picks.slice(0, p.position).map((q) => fullSimilarity(c.graph, p.task, q.task));
        expect(p.self.similarity, `seed ${seed}, pick ${p.position}`).toBe(before.length === 0 ? 0 : Math.max(...before));
        picks++;
      }
    }
    // The cases exercise what they claim to: many picks, tasks with progress residuals.
    expect(picks).toBeGreaterThan(CASES);
    expect(withProgress).toBeGreaterThan(10);
  });

  it('refuses to describe a step whose scores are not the scheduler’s', () => {
    const c = randomCase(7);
    oracle.load(c.graph, c.observations);
    const step = c.observations.reduce((m, o) => Math.max(m, o.step), 0) + 1;
    const pool = scorePool(oracle.scheduler, c.config, step);
    pool.longV[0] += 0.01; // not what the kernels computed
    const fast = analyseStep(c.graph, new PreparedHistory(c.observations, c.graph.tasks.length), c.config, pool, oracle.math);
    expect(() => explainTaskAt(c.graph, fast, c.config, oracle.math, 0)).toThrow(/task 0's predicted v \(long half-life\)/);
  });
});
