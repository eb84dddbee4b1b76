// Edge cases of the reference scheduler (SPEC 2-8): short batches, tiny pools, cold start, gaps,
// filters, tie rules and the cap relaxations.
import { describe, expect, it } from 'vitest';
import {
  chooseBatch,
  explainTask,
  indexHistory,
  isConsecutivelyCapped,
  JS_MATH,
  referenceScore,
  selectionCounts,
  type ScalarMath,
  type BatchInputs,
} from '../src/reference/index.ts';
import type { Config, Observation } from '../src/engine/types.ts';
import { configWith, tinyGraph } from './helpers/reference-graphs.ts';

const obs = (step: number, task: number, rewards: number[], flags?: boolean[]): Observation =>
  flags ? { step, task, rewards, flags } : { step, task, rewards };

/** Batch inputs with every count 0 and nothing filtered, then the given overrides. */
function inputs(
  n: number,
  nEnvs: number,
  over: Partial<BatchInputs> & { c?: number[]; X?: number[]; R?: number[]; capped?: boolean[] } = {},
): BatchInputs {
  return {
    q: over.q ?? Array(n).fill(0.5),
    removed: over.removed ?? Array(n).fill(false),
    progressExcluded: over.progressExcluded ?? Array(n).fill(false),
    counts: {
      c: over.c ?? Array(n).fill(0),
      X: over.X ?? Array(nEnvs).fill(0),
      R: over.R ?? Array(nEnvs).fill(0),
      consecutiveCapped: over.capped ?? Array(n).fill(false),
    },
  };
}

const ids = (batch: { id: string }[]) => batch.map((b) => b.id);

describe('short batches and tiny pools', () => {
  it('ends the batch short when N < B, after reporting every relaxation in order', () => {
    const g = tinyGraph({ envOf: [0, 0, 0] });
    const history = [0, 1, 2].map((i) => obs(0, i, [0.5, 1]));
    const scores = referenceScore(g, history, configWith({ B: 8, rho: 0.5 }));
    expect(scores.step).toBe(1);
    expect(scores.batch).toEqual([
      { id: 't0', phase: 'coverage' },
      { id: 't1', phase: 'coverage' },
      { id: 't2', phase: 'coverage' },
    ]);
    expect(scores.relaxed).toEqual(['C_task', 'C3', 'C1']);
  });

  it('handles environments of a single task (no within neighbours) at cold start and later', () => {
    const g = tinyGraph({ envOf: [0, 1, 2], full: (i, j) => 0.1 * (i + j) });
    const cold = referenceScore(g, [], configWith({ B: 2 }));
    expect(ids(cold.batch)).toEqual(['t0', 't1']); // representatives in env order, at most B
    const coldShort = referenceScore(g, [], configWith({ B: 5 }));
    expect(ids(coldShort.batch)).toEqual(['t0', 't1', 't2']); // N < B: ends short
    const later = referenceScore(g, [obs(0, 0, [1, 0]), obs(0, 1, [0.25, 0.75])], configWith({ B: 2 }));
    for (const t of later.tasks) for (const y of ['v', 'm', 'd', 'u'] as const) expect(Number.isFinite(t.long?.[y])).toBe(true);
    const ex = explainTask(g, [obs(0, 0, [1, 0]), obs(0, 1, [0.25, 0.75])], configWith({ B: 2 }), undefined, 2);
    expect(ex.long?.within).toEqual({ sigma: null, neighbours: [], G: ex.long?.reference });
    expect(ex.long?.cross.neighbours.map((n) => n.index)).toEqual([1, 0]); // cross(2) by similarity: t1 (0.3), t0 (0.2)
  });
});

describe('SPEC 7: cold start', () => {
  // One environment of five tasks, S(i,j) = 1 - 0.1 |i - j|: task 2 has the highest mean similarity.
  const line = tinyGraph({ envOf: [0, 0, 0, 0, 0], full: (i, j) => 1 - 0.1 * Math.abs(i - j) });

  it('prints step 0 with an empty reference and no predictions', () => {
    const scores = referenceScore(line, [], configWith({ B: 2 }));
    expect(scores.step).toBe(0);
    expect(scores.reference).toEqual({});
    expect(scores.tasks[0]).toEqual({ id: 't0', progressExcluded: false, removed: false });
    expect(scores.relaxed).toEqual([]);
    expect(scores.batch.every((b) => b.phase === 'cold-start')).toBe(true);
  });

  it('takes the representative, then novelty, and drops the 2-per-environment cap when it leaves no candidate', () => {
    const scores = referenceScore(line, [], configWith({ B: 4 }));
    // rep 2; novelty 1 - S(i,2): 0 and 4 tie, lower index 0; cap (2 in env) leaves none -> dropped;
    // then novelty = 1 - max(S(i,2), S(i,0)): task 4 (0.2) beats 1 and 3 (0.1); then 1 beats 3 on the tie.
    expect(ids(scores.batch)).toEqual(['t2', 't0', 't4', 't1']);
  });

  it('keeps the cap while it leaves candidates', () => {
    // env 0 = tasks 0..2, env 1 = tasks 3, 4. Same-env similarity 0.9, cross 0.
    const g = tinyGraph({ envOf: [0, 0, 0, 1, 1], full: (i, j) => (i < 3 === j < 3 ? 0.9 : 0) });
    const scores = referenceScore(g, [], configWith({ B: 4 }));
    // reps t0, t3; then one more per env (novelty ties -> lower index): t1, t4; never a third of env 0
    expect(ids(scores.batch)).toEqual(['t0', 't3', 't1', 't4']);
  });

  it('ignores the history at or after an explicit step 0', () => {
    const history = [obs(0, 1, [1]), obs(1, 2, [0])];
    expect(referenceScore(line, history, configWith({ B: 3 }), 0)).toEqual(referenceScore(line, [], configWith({ B: 3 })));
  });
});

describe('SPEC 3 and 6: histories with gaps', () => {
  it('leaves steps without observations out of B_t', () => {
    const g = tinyGraph({ envOf: [0, 1] });
    const history = [obs(0, 0, [0.2]), obs(3, 1, [0.8])];
    const scores = referenceScore(g, history, configWith({ h_long: 8, h_short: 2 }));
    expect(scores.step).toBe(4);
    const w0 = 2 ** (-4 / 8);
    const w3 = 2 ** (-1 / 8);
    expect(scores.reference.long?.m).toBeCloseTo((w0 * 0.2 + w3 * 0.8) / (w0 + w3), 15);
    const s0 = 2 ** (-4 / 2);
    const s3 = 2 ** (-1 / 2);
    expect(scores.reference.short?.m).toBeCloseTo((s0 * 0.2 + s3 * 0.8) / (s0 + s3), 15);
  });

  it('counts R_e over steps t-1 and t-2 only, and X_e, c_i over the whole history', () => {
    const g = tinyGraph({ envOf: [0, 0, 1] });
    const history = indexHistory([obs(0, 0, [1]), obs(1, 0, [1]), obs(1, 2, [1]), obs(2, 1, [1]), obs(3, 2, [1])], 3, 4);
    const counts = selectionCounts(g, history, 2);
    expect(counts.c).toEqual([2, 1, 2]);
    expect(counts.X).toEqual([3, 2]);
    expect(counts.R).toEqual([1, 1]); // steps 2 and 3: task 1 (env 0) at 2, task 2 (env 1) at 3
  });
});

describe('SPEC 6 rule 4: the consecutive-selection limit', () => {
  const history = indexHistory([obs(3, 0, [1]), obs(2, 0, [1]), obs(3, 1, [1]), obs(1, 1, [1]), obs(2, 2, [1])], 3, 4);

  it('binds only when the task was selected at every one of the steps t-1 .. t-C_task', () => {
    expect(isConsecutivelyCapped(history, 0, 2)).toBe(true); // steps 3 and 2
    expect(isConsecutivelyCapped(history, 1, 2)).toBe(false); // 3 and 1, not 2
    expect(isConsecutivelyCapped(history, 2, 2)).toBe(false); // 2 only
    expect(isConsecutivelyCapped(history, 1, 1)).toBe(true); // C_task = 1: step 3
    expect(isConsecutivelyCapped(history, 0, 3)).toBe(false); // not at step 1
  });

  it('cannot bind while t < C_task (steps before 0 hold no selection)', () => {
    const early = indexHistory([obs(0, 0, [1])], 1, 1);
    expect(isConsecutivelyCapped(early, 0, 2)).toBe(false);
    expect(isConsecutivelyCapped(early, 0, 1)).toBe(true);
  });

  it('keeps a capped task out of the batch while others are eligible', () => {
    const g = tinyGraph({ envOf: [0, 1] });
    // task 0 observed at steps 0 and 1 with a spread (high q); task 1 once at step 0 with none
    const h = [obs(0, 0, [0, 1]), obs(1, 0, [0, 1]), obs(0, 1, [1, 1])];
    const scores = referenceScore(g, h, configWith({ B: 1, rho: 0, C_task: 2 }));
    expect(scores.tasks[0].q).toBeGreaterThan(scores.tasks[1].q!);
    expect(ids(scores.batch)).toEqual(['t1']);
    expect(scores.relaxed).toEqual([]);
  });
});

describe('SPEC 6: picks, ties and relaxations', () => {
  const base = (over: Partial<Config>) => configWith({ lambda_sim: 0, ...over });

  it('restricts coverage to the smallest n_e, then X_e, then c_i, before the argmax', () => {
    const g = tinyGraph({ envOf: [0, 0, 1, 1, 2] });
    const inp = inputs(5, 3, { X: [5, 3, 3], c: [0, 0, 2, 1, 1], q: [0.9, 0.9, 0.9, 0.2, 0.2] });
    const pick = (B: number) => chooseBatch(g, base({ B, scheduler: 'coverage-only' }), inp).batch.map((p) => p.task);
    // 1st: X_e = 3 (envs 1, 2) -> c_i = 1 (tasks 3, 4) -> q tie -> lower index 3 (not the high-q task 0)
    expect(pick(1)).toEqual([3]);
    // 2nd: n_e = 0 in envs 0 and 2 -> X_e: env 2 -> task 4
    expect(pick(2)).toEqual([3, 4]);
    // 3rd: n_e = 0 only in env 0 -> tasks 0, 1 tie -> 0
    expect(pick(3)).toEqual([3, 4, 0]);
  });

  it('applies the similarity penalty only once the batch is non-empty', () => {
    // t0 and t1 are near-duplicates (0.95); t2 is dissimilar to both (0.05).
    const g = tinyGraph({ envOf: [0, 0, 0], full: (i, j) => (i + j === 1 ? 0.95 : 0.05) });
    const inp = inputs(3, 1, { q: [0.9, 0.85, 0.5] });
    const withPenalty = chooseBatch(g, configWith({ B: 2, rho: 0, lambda_sim: 0.5 }), inp);
    expect(withPenalty.batch.map((p) => p.task)).toEqual([0, 2]); // 0.85 - 0.475 < 0.5 - 0.025
    const noPenalty = chooseBatch(g, configWith({ B: 2, rho: 0, lambda_sim: 0 }), inp);
    expect(noPenalty.batch.map((p) => p.task)).toEqual([0, 1]);
  });

  it('discounts exploitation by the exposure factor omega', () => {
    const g = tinyGraph({ envOf: [0, 1] });
    const inp = inputs(2, 2, { q: [0.8, 0.6], c: [48, 0] });
    // 0.8 * (1 + 48/16)^(-1/2) = 0.4 < 0.6
    expect(chooseBatch(g, base({ B: 1, rho: 0, c0: 16 }), inp).batch).toEqual([{ task: 1, phase: 'exploitation' }]);
    expect(chooseBatch(g, base({ B: 1, rho: 0, c0: 1e9 }), inp).batch).toEqual([{ task: 0, phase: 'exploitation' }]);
  });

  it('breaks exploitation ties by the lower task index', () => {
    const g = tinyGraph({ envOf: [0, 1, 2] });
    const batch = chooseBatch(g, base({ B: 3, rho: 0 }), inputs(3, 3, { q: [0.2, 0.7, 0.7] })).batch;
    expect(batch.map((p) => p.task)).toEqual([1, 2, 0]);
  });

  it('relaxes C_task, then C3, then C1, each only when a pick finds nothing', () => {
    const g = tinyGraph({ envOf: [0, 0] });
    const result = chooseBatch(g, base({ B: 2, rho: 1, C1: 1 }), inputs(2, 1));
    expect(result.batch.map((p) => p.task)).toEqual([0, 1]);
    expect(result.relaxed).toEqual(['C_task', 'C3', 'C1']);
    const room = chooseBatch(g, base({ B: 2, rho: 1, C1: 2 }), inputs(2, 1));
    expect(room.relaxed).toEqual([]);
  });

  it('keeps each relaxation for the rest of the step', () => {
    // t0: env 0, capped, q .9; t1: env 1, capped, q .8; t2: env 2, not capped, q .1.
    // R_e = 1 in envs 0 and 2 with C3 = 1, so rule 3 blocks t0 and t2.
    const g = tinyGraph({ envOf: [0, 1, 2] });
    const inp = inputs(3, 3, { q: [0.9, 0.8, 0.1], capped: [true, true, false], R: [1, 0, 1] });
    const result = chooseBatch(g, base({ B: 3, rho: 0, C3: 1 }), inp);
    // pick 1: nothing -> relax C_task -> t1. pick 2: nothing -> relax C3 -> t0 and t2 eligible,
    // and t0 wins only because C_task stays relaxed. pick 3: t2.
    expect(result.batch.map((p) => p.task)).toEqual([1, 0, 2]);
    expect(result.relaxed).toEqual(['C_task', 'C3']);
  });

  it('keeps a coverage-phase relaxation in the exploitation phase', () => {
    const g = tinyGraph({ envOf: [0, 1] });
    const inp = inputs(2, 2, { q: [0.9, 0.1], capped: [true, true] });
    const result = chooseBatch(g, base({ B: 2, rho: 0.5 }), inp);
    expect(result.batch).toEqual([
      { task: 0, phase: 'coverage' },
      { task: 1, phase: 'exploitation' },
    ]);
    expect(result.relaxed).toEqual(['C_task']);
  });
});

describe('SPEC 8 filters and every task filtered', () => {
  it('removes a task for a flagged rollout with reward >= 0.5, only when observed before the step', () => {
    const g = tinyGraph({ envOf: [0, 0, 1, 1, 2] });
    const history = [
      obs(0, 0, [0.4, 1], [true, false]), // flagged rollout has reward 0.4: kept
      obs(0, 1, [0.5, 0], [true, false]), // flagged 0.5: removed
      obs(0, 2, [1, 1]), // no flags: kept
      obs(1, 3, [0.2, 0.3]),
      obs(2, 3, [0.9, 0.1], [true, false]), // flagged 0.9 at step 2
      obs(2, 1, [0.5, 0.5]), // a later clean group does not bring task 1 back
    ];
    const at2 = referenceScore(g, history, configWith({ B: 5 }), 2);
    expect(at2.tasks.map((t) => t.removed)).toEqual([false, true, false, false, false]);
    const at3 = referenceScore(g, history, configWith({ B: 5 }));
    expect(at3.tasks.map((t) => t.removed)).toEqual([false, true, false, true, false]);
    expect(ids(at3.batch).sort()).toEqual(['t0', 't2', 't4']);
    expect(at3.relaxed).toEqual(['C_task', 'C3', 'C1']);
    const ex = explainTask(g, history, configWith({ B: 5 }), undefined, 3);
    expect(ex.removedAt).toEqual({ step: 2, rollout: 0 });
  });

  it('computes p_i from own residuals, the environment mean and the N_in + N_cross mean (pooled)', () => {
    // env 0 = tasks 0..3, env 1 = tasks 4..5, all observed at steps 0..4 (12 transitions by s2 = 3).
    const g = tinyGraph({ envOf: [0, 0, 0, 0, 1, 1], full: (i, j) => 0.5 + 0.01 * (i + j), categories: ['a', 'b'] });
    const history: Observation[] = [];
    for (let s = 0; s <= 4; s++) {
      for (let i = 0; i < 6; i++) history.push(obs(s, i, [((s * 7 + i * 3) % 11) / 10, ((s * 5 + i * 2) % 9) / 10]));
    }
    const config = configWith({ B: 2, K_within: 2, K_cross: 1, kappa: 2 });
    const explain = (i: number) => explainTask(g, history, config, undefined, i);
    const all = [0, 1, 2, 3, 4, 5].map(explain);
    const ex = all[0];
    const nb = [...ex.long!.within.neighbours, ...ex.long!.cross.neighbours].map((n) => n.index);
    expect(nb).toEqual([3, 2, 5]); // within(0) by similarity, then cross(0)'s best
    const pooled = (tasks: number[]) => {
      const r = tasks.flatMap((j) => all[j].progress!.residuals);
      return r.reduce((a, b) => a + b, 0) / r.length;
    };
    const own = ex.progress!.residuals;
    expect(own.length).toBe(2); // s2 = 3 and 4 (>= 8 earlier transitions: 12 and 18)
    expect(ex.progress!.refEnv).toBeCloseTo(pooled([0, 1, 2, 3]), 15);
    expect(ex.progress!.refNb).toBeCloseTo(pooled(nb), 15);
    const p = (own[0] + own[1] + 2 * (0.5 * ex.progress!.refEnv + 0.5 * ex.progress!.refNb)) / (2 + 2);
    expect(ex.progress!.p).toBeCloseTo(p, 15);
    expect(ex.progressExcluded).toBe(false); // |R_i| = 2 < 3 whatever p_i
  });

  it('picks nothing when every task is removed, after relaxing every cap', () => {
    const g = tinyGraph({ envOf: [0, 1] });
    const history = [obs(0, 0, [1], [true]), obs(0, 1, [0.75], [true])];
    const scores = referenceScore(g, history, configWith({ B: 4 }));
    expect(scores.tasks.every((t) => t.removed)).toBe(true);
    expect(scores.batch).toEqual([]);
    expect(scores.relaxed).toEqual(['C_task', 'C3', 'C1']);
  });

  it('lets excluded tasks into coverage but never into exploitation (rule 6)', () => {
    const g = tinyGraph({ envOf: [0, 0, 1, 1, 2, 2] });
    const inp = inputs(6, 3, { progressExcluded: Array(6).fill(true), q: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6] });
    const mixed = chooseBatch(g, configWith({ B: 4, rho: 0.5 }), inp);
    expect(mixed.batch.map((p) => p.phase)).toEqual(['coverage', 'coverage']);
    expect(mixed.relaxed).toEqual(['C_task', 'C3', 'C1']);
    const exploitOnly = chooseBatch(g, configWith({ B: 4, rho: 0.5, scheduler: 'exploitation-only' }), inp);
    expect(exploitOnly.batch).toEqual([]);
    const someExcluded = chooseBatch(
      g,
      configWith({ B: 3, rho: 0.9, scheduler: 'exploitation-only', lambda_sim: 0 }),
      inputs(6, 3, { progressExcluded: [false, true, false, true, false, true], q: [0.1, 0.9, 0.2, 0.8, 0.3, 0.7] }),
    );
    expect(someExcluded.batch).toEqual([
      { task: 4, phase: 'exploitation' },
      { task: 2, phase: 'exploitation' },
      { task: 0, phase: 'exploitation' },
    ]);
    const coverageOnly = chooseBatch(g, configWith({ B: 3, rho: 0, scheduler: 'coverage-only' }), inp);
    expect(coverageOnly.batch.map((p) => p.phase)).toEqual(['coverage', 'coverage', 'coverage']);
  });
});

describe('degenerate histories', () => {
  it('handles K = 1 groups (v = 0): every prediction of v and d is 0 and q ties at 0.5', () => {
    const g = tinyGraph({ envOf: [0, 0, 1, 1] });
    const history = [obs(0, 0, [1]), obs(0, 2, [0]), obs(1, 1, [0.5])];
    const scores = referenceScore(g, history, configWith({ B: 2, rho: 0, lambda_sim: 0 }));
    for (const t of scores.tasks) {
      expect(t.long?.v).toBe(0);
      expect(t.long?.d).toBe(0);
      expect(t.u).toBe(0);
      expect(t.q).toBe(0.5);
    }
    // all scores tie: exploitation takes the least-exposed first (omega), then the lower index
    expect(ids(scores.batch)).toEqual(['t3', 't0']);
  });

  it('uses only observations with s < step, and defaults to one past the last step', () => {
    const g = tinyGraph({ envOf: [0, 0, 1] });
    const history = [obs(0, 0, [0, 1]), obs(1, 1, [0.5, 1]), obs(2, 2, [0.25, 0.5]), obs(4, 0, [1, 1])];
    expect(referenceScore(g, history, configWith({ B: 2 })).step).toBe(5);
    expect(referenceScore(g, history, configWith({ B: 2 }), 2)).toEqual(
      referenceScore(
        g,
        history.filter((o) => o.step < 2),
        configWith({ B: 2 }),
      ),
    );
  });

  it('refuses schedulers that have no scores', () => {
    const g = tinyGraph({ envOf: [0] });
    for (const scheduler of ['random', 'dps', 'mopps', 'dapo'] as const) {
      expect(() => referenceScore(g, [], configWith({ scheduler }))).toThrow(/not scorable/);
    }
  });

  it('refuses a task observed twice in one step', () => {
    const g = tinyGraph({ envOf: [0] });
    expect(() => referenceScore(g, [obs(0, 0, [1]), obs(0, 0, [0])], configWith({}))).toThrow(/twice at step 0/);
  });
});

describe('explainTask', () => {
  it("shows the task's own history and the neighbours actually used", () => {
    const g = tinyGraph({ envOf: [0, 0, 0, 1], full: (i, j) => 0.9 - 0.1 * (i + j) });
    const history = [obs(0, 0, [0, 1]), obs(2, 0, [1, 1]), obs(1, 1, [0.5, 0.5]), obs(2, 3, [0, 0])];
    const config = configWith({ B: 2, K_within: 1 });
    const ex = explainTask(g, history, config, undefined, 2);
    expect(ex.history).toEqual([]);
    // within(2) = [0 (0.7), 1 (0.6)]; K_within = 1 takes t0 only
    expect(ex.long?.within.neighbours.map((n) => [n.index, n.similarity, n.observationCount, n.lastStep])).toEqual([[0, 0.7, 2, 2]]);
    expect(ex.long?.cross.neighbours.map((n) => n.index)).toEqual([3]);
    const own = explainTask(g, history, config, undefined, 0);
    expect(own.history).toEqual([
      { step: 0, rewards: [0, 1], m: 0.5, v: 0.25, d: 1 },
      { step: 2, rewards: [1, 1], m: 1, v: 0, d: 0 },
    ]);
    expect(own.selections).toBe(2);
    const scores = referenceScore(g, history, config);
    expect(own.u).toBe(scores.tasks[0].u);
    expect(own.long?.u).toBe(scores.tasks[0].long?.u);
    expect(own.u).toBeCloseTo(own.long!.u - own.decline!, 15);
  });

  it('has no predictions at the cold start', () => {
    const g = tinyGraph({ envOf: [0, 1] });
    const ex = explainTask(g, [], configWith({ B: 1 }), 0, 1);
    expect(ex.coldStart).toBe(true);
    expect(ex.long).toBeNull();
    expect(ex.q).toBeNull();
    expect(ex.batch).toBeNull();
  });
});

describe('the math is a parameter', () => {
  it('uses the exp / pow / log it is given for that call only', () => {
    const g = tinyGraph({ envOf: [0, 0, 1, 1], full: (i, j) => 0.8 - 0.1 * (i + j) });
    const history = [obs(0, 0, [0, 1]), obs(1, 1, [1, 1]), obs(1, 2, [0.5, 0]), obs(2, 0, [1, 0])];
    const config = configWith({ B: 2 });
    const before = referenceScore(g, history, config);
    const calls = { exp: 0, pow: 0, log: 0 };
    const counting: ScalarMath = {
      exp: (x) => (calls.exp++, Math.exp(x)),
      pow: (x, y) => (calls.pow++, Math.pow(x, y) * 2), // doubled half-life weights cancel in every average but W
      log: (x) => (calls.log++, Math.log(x)),
    };
    const other = referenceScore(g, history, config, undefined, counting);
    expect(calls.exp).toBeGreaterThan(0);
    expect(calls.pow).toBeGreaterThan(0);
    expect(other.tasks.map((t) => t.long?.m)).not.toEqual(before.tasks.map((t) => t.long?.m)); // W doubled: a different shrinkage
    expect(referenceScore(g, history, config)).toEqual(before); // nothing stays installed
    expect(referenceScore(g, history, config, undefined, JS_MATH)).toEqual(before);
  });
});
