// The rollout simulator (SPEC 10; docs/simulator.md): exact expectations, gate blocking, learning,
// determinism and the random scheduler's coverage.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM_MODEL, worldOff, type SimModelParams } from '../src/sim/model-params.ts';
import { readSimParams } from '../src/sim/sim-params-read.ts';
import { Simulator } from '../src/sim/simulator.ts';
import { loadSimWasmNode } from '../src/sim/wasm-node.ts';
import type { LoadedGraph } from '../src/engine/types.ts';
import { isInputError } from '../src/engine/errors.ts';
import { envscalerShaped, gate, handPool, simulate } from './helpers/sim-fixtures.ts';

/** A neutral policy: p = sigmoid(-difficulty) at the start, no exploit unless asked. */
const PLAIN: SimModelParams = { ...worldOff(DEFAULT_SIM_MODEL), competence0: 0, logitScale: 1, exploitRate: 0 };

async function simulatorFor(loaded: LoadedGraph, K: number, model: SimModelParams = PLAIN, seed = 1): Promise<Simulator> {
  const sim = new Simulator(
    await loadSimWasmNode(),
    loaded.packed.nEnvs,
    loaded.packed.taskEnv,
    readSimParams(loaded.meta, 'hand'),
    K,
    model,
  );
  sim.reset(seed);
  return sim;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Exact reward distribution of a chain, enumerated independently of the kernel. */
function chainDistribution(init: number, gates: { difficulty: number; checks: number }[], total: number) {
  const outcomes: { p: number; r: number }[] = [];
  let prefix = 1;
  let checks = init;
  for (const g of gates) {
    const p = sigmoid(-g.difficulty);
    outcomes.push({ p: prefix * (1 - p), r: checks / total });
    prefix *= p;
    checks += g.checks;
  }
  outcomes.push({ p: prefix, r: checks / total });
  const mean = outcomes.reduce((s, o) => s + o.p * o.r, 0);
  const variance = outcomes.reduce((s, o) => s + o.p * (o.r - mean) ** 2, 0);
  return { mean, variance, outcomes };
}

describe('exact expectations', () => {
  const gates = [gate(0, -0.5, 3), gate(1, 0.4, 2), gate(2, 0.1, 4)];
  const loaded = handPool([{ gates, initiallySatisfied: 1, exploitable: false }], [0]);

  it('match the enumerated chain distribution, with (K-1)/K x Var for the within-group variance', async () => {
    const sim = await simulatorFor(loaded, 8);
    const truth = sim.truth();
    const d = chainDistribution(1, gates, 10);
    expect(truth.mean[0]).toBeCloseTo(d.mean, 12);
    expect(truth.variance[0]).toBeCloseTo((7 / 8) * d.variance, 12);
  });

  it('match Monte-Carlo rollouts within sampling error', async () => {
    const K = 8;
    const sim = await simulatorFor(loaded, K);
    const { mean, variance } = sim.truth();
    const expectedMean = mean[0];
    const expectedVar = variance[0];
    const groups = 4000;
    let sumMean = 0;
    let sumVar = 0;
    let sumMean2 = 0;
    for (let rep = 0; rep < 4; rep++) {
      sim.batchView(1).set([0]);
      // one task per call keeps the batch distinct; 1000 calls x 4 reps = 4000 groups
      for (let g = 0; g < groups / 4; g++) {
        const { rewards } = sim.rollout(1);
        let m = 0;
        for (let k = 0; k < K; k++) m += rewards[k];
        m /= K;
        let v = 0;
        for (let k = 0; k < K; k++) v += (rewards[k] - m) ** 2;
        sumMean += m;
        sumMean2 += m * m;
        sumVar += v / K;
      }
    }
    const mcMean = sumMean / groups;
    const se = Math.sqrt((sumMean2 / groups - mcMean ** 2) / groups);
    expect(Math.abs(mcMean - expectedMean)).toBeLessThan(4 * se);
    expect(Math.abs(sumVar / groups - expectedVar)).toBeLessThan(0.06 * expectedVar);
  });

  it('mix the exploit in for training tasks but leave it out of held-out scoring', async () => {
    const exploitable = handPool([{ gates, initiallySatisfied: 1, exploitable: true }], [0], 3, [
      {
        name: 'suite',
        envs: [{ id: 'h0', name: 'H0', category: null }],
        tasks: [{ gates, initiallySatisfied: 1, exploitable: true, env: 0 }],
      },
    ]);
    const sim = await simulatorFor(exploitable, 8, { ...PLAIN, exploitRate: 0.2 });
    const d = chainDistribution(1, gates, 10);
    expect(sim.truth().mean[0]).toBeCloseTo(0.8 * d.mean + 0.2, 12);
    expect(sim.heldoutScores()[0]).toBeCloseTo(100 * d.mean, 10);
  });
});

describe('gate blocking', () => {
  it('a failed gate fails every check behind it and behind later gates', async () => {
    // Gate 0 always passes, gate 1 never does: gate 2's checks can never count even though it is easy.
    const loaded = handPool(
      [{ gates: [gate(0, -60, 2), gate(1, 60, 3), gate(2, -60, 5)], initiallySatisfied: 2, exploitable: false }],
      [0],
    );
    const sim = await simulatorFor(loaded, 8);
    sim.batchView(1).set([0]);
    const { rewards } = sim.rollout(1);
    expect(Array.from(rewards)).toEqual(new Array(8).fill(4 / 12));
    const truth = sim.truth();
    expect(truth.mean[0]).toBeCloseTo(4 / 12, 12);
    expect(truth.variance[0]).toBeCloseTo(0, 12);
  });
});

describe('learning', () => {
  const tasks = [
    { gates: [gate(0, 0, 2), gate(1, 0, 2)], initiallySatisfied: 0, exploitable: false },
    { gates: [gate(2, 0, 3)], initiallySatisfied: 1, exploitable: false },
  ];
  const loaded = handPool(tasks, [0, 1]);
  const model: SimModelParams = { ...PLAIN, etaCompetence: 0.1, etaFamiliarity: 0.1, etaMemo: 0.1, familiarityDecay: 0.5 };

  it('a group with equal rewards teaches nothing', async () => {
    const sim = await simulatorFor(loaded, 4, model);
    const before = sim.policy();
    sim.batchView(1).set([0]);
    sim.rolloutView(1).rewards.set([0.5, 0.5, 0.5, 0.5]);
    sim.learn(1);
    const after = sim.policy();
    expect(after.competence).toEqual(before.competence);
    expect(after.memo).toEqual(before.memo);
    expect(after.familiarity[0]).toBe(before.familiarity[0]);
  });

  it('a group with spread raises competence of its chain families, its env familiarity and its memorisation', async () => {
    const sim = await simulatorFor(loaded, 4, model);
    sim.batchView(1).set([0]);
    sim.rolloutView(1).rewards.set([0, 1, 0, 1]); // spread s = 0.5
    sim.learn(1);
    const p = sim.policy();
    // each family of task 0's two gates gets credit 0.5 / 2 = 0.25 -> 0.1 * 0.25 / (1 + 0.25 / 4)
    expect(p.competence[0]).toBeCloseTo((0.1 * 0.25) / (1 + 0.25 / 4), 12);
    expect(p.competence[1]).toBeCloseTo(p.competence[0], 12);
    expect(p.competence[2]).toBe(0); // task 1's family: not in the batch
    expect(p.familiarity[0]).toBeCloseTo(0.05, 12);
    expect(p.memo[0]).toBeCloseTo(0.05, 12);
    expect(p.memo[1]).toBe(0);
    expect(sim.truth().mean[0]).toBeGreaterThan(sigmoid(0) * (0.5 + 0.5 * sigmoid(0)));
  });

  it('familiarity fades for an environment left out of the batch', async () => {
    const sim = await simulatorFor(loaded, 4, model);
    sim.batchView(2).set([0, 1]);
    sim.rolloutView(2).rewards.set([0, 1, 0, 1, 0.25, 1, 1, 1]);
    sim.learn(2);
    const env1 = sim.policy().familiarity[1];
    expect(env1).toBeGreaterThan(0);
    sim.batchView(1).set([0]);
    sim.rolloutView(1).rewards.set([0, 1, 0, 1]);
    sim.learn(1);
    expect(sim.policy().familiarity[1]).toBeCloseTo(env1 * 0.5, 12);
  });
});

describe('runs', () => {
  const pool = envscalerShaped();

  it('random batches cover environments as the analytic expectation for uniform distinct tasks (36.87 on 51 x 50, B = 64)', async () => {
    const N = pool.packed.nTasks;
    const B = 64;
    const sizes = new Map<number, number>();
    for (const e of pool.packed.taskEnv) sizes.set(e, (sizes.get(e) ?? 0) + 1);
    let expected = 0;
    for (const n of sizes.values()) {
      let ratio = 1; // C(N - n, B) / C(N, B)
      for (let k = 0; k < B; k++) ratio *= (N - n - k) / (N - k);
      expected += 1 - ratio;
    }
    expect(expected).toBeCloseTo(36.87, 2);
    // One 1,000-step run: the per-run standard deviation of the mean is ~0.07 (0.17 over 200 steps).
    const run = await simulate(pool, 'random', { seed: 3, T: 1000 });
    expect(Math.abs(run.summary.envsPerBatch - expected)).toBeLessThan(0.3);
    expect(run.steps.every((s) => s.batchSize === B)).toBe(true);
  });

  it('the same seed gives the same fingerprint; another seed a different one', async () => {
    for (const scheduler of ['random', 'dps', 'mopps', 'dapo'] as const) {
      const a = await simulate(pool, scheduler, { seed: 11 }, { steps: 30 });
      const b = await simulate(pool, scheduler, { seed: 11 }, { steps: 30 });
      const c = await simulate(pool, scheduler, { seed: 12 }, { steps: 30 });
      expect(a.fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(b.fingerprint).toBe(a.fingerprint);
      expect(b.steps).toEqual(a.steps);
      expect(c.fingerprint).not.toBe(a.fingerprint);
    }
  });

  it('the identifier filter removes exploited tasks for EnvSched, which then never picks them again', async () => {
    const run = await simulate(pool, 'envsched', { seed: 2 }, { steps: 25 });
    expect(run.summary.removed).toBeGreaterThan(0);
    expect(run.steps.at(-1)!.removedTotal).toBe(run.summary.removed);
    for (const step of run.steps) {
      for (const task of step.removedTasks) {
        expect(run.steps.filter((s) => s.step > step.step && s.batch.includes(task))).toEqual([]);
      }
    }
    const again = await simulate(pool, 'envsched', { seed: 2 }, { steps: 25 });
    expect(again.fingerprint).toBe(run.fingerprint);
  });

  it('refuses a graph without simulator parameters with an input error naming the field', async () => {
    const { sim: _unused, ...meta } = pool.meta;
    const error = await simulate({ meta, packed: pool.packed }, 'random', {}, { steps: 1 }).catch((e: unknown) => e);
    expect(isInputError(error)).toBe(true);
    expect((error as Error).message).toMatch(/test pool:sim:/);
  });
});
