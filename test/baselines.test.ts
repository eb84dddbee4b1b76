// The baselines (docs/baselines.md): random, DAPO, MoPPS and DPS behave as specified.
import { describe, expect, it } from 'vitest';
import { readSimParams } from '../src/sim/sim-params-read.ts';
import { Simulator } from '../src/sim/simulator.ts';
import { BASELINE_CONSTANTS, DpsScheduler, MoppsScheduler, RandomScheduler } from '../src/sim/schedulers/baselines.ts';
import { loadSimWasmNode } from '../src/sim/wasm-node.ts';
import type { StepGroups } from '../src/sim/scheduler.ts';
import { envscalerShaped, simulate } from './helpers/sim-fixtures.ts';

const pool = envscalerShaped();

async function poolSimulator(K = 8): Promise<Simulator> {
  const sim = new Simulator(await loadSimWasmNode(), pool.packed.nEnvs, pool.packed.taskEnv, readSimParams(pool.meta, 'pool'), K);
  sim.reset(5);
  return sim;
}

/** Writes a step's groups into the simulator buffers (as the run loop does) and returns them. */
function groups(sim: Simulator, tasks: number[], rewards: number[]): StepGroups {
  sim.batchView(tasks.length).set(tasks);
  sim.rolloutView(tasks.length).rewards.set(rewards);
  const view = sim.rolloutView(tasks.length);
  return {
    tasks: Int32Array.from(tasks),
    K: sim.K,
    rewards: view.rewards,
    flags: new Int32Array(rewards.length),
    batchPtr: sim.pointers.batch,
    rewardsPtr: sim.pointers.rewards,
  };
}

describe('random', () => {
  it('draws B distinct tasks each step', async () => {
    const sim = await poolSimulator();
    const random = new RandomScheduler(sim, 64);
    for (let t = 0; t < 20; t++) {
      const { tasks } = random.choose();
      expect(tasks.length).toBe(64);
      expect(new Set(tasks).size).toBe(64);
      expect(Math.min(...tasks)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...tasks)).toBeLessThan(pool.packed.nTasks);
    }
  });
});

describe('dapo', () => {
  it('keeps only groups with unequal rewards and counts every extra rollout spent', async () => {
    const run = await simulate(pool, 'dapo', { seed: 4 }, { steps: 40 });
    const K = 8;
    let previous = 0;
    for (const step of run.steps) {
      expect(step.batchSize).toBe(64);
      expect(step.medianVariance).toBeGreaterThan(0);
      expect(step.rollouts - previous).toBeGreaterThanOrEqual(64 * K);
      expect((step.rollouts - previous) % K).toBe(0);
      previous = step.rollouts;
    }
    // Some groups are equal (all solved / all blocked), so DAPO spends more than B * K per step.
    expect(run.summary.rollouts).toBeGreaterThan(40 * 64 * K);
    const random = await simulate(pool, 'random', { seed: 4 }, { steps: 40 });
    expect(random.summary.rollouts).toBe(40 * 64 * K);
    expect(run.summary.meanVariance).toBeGreaterThan(random.summary.meanVariance);
  });
});

describe('mopps', () => {
  it('updates the Beta posterior of each selected task: alpha <- lambda alpha + (1 - lambda) alpha0 + sum r', async () => {
    const sim = await poolSimulator(4);
    const mopps = new MoppsScheduler(sim, 64);
    const c = BASELINE_CONSTANTS;
    mopps.observe(0, groups(sim, [7, 100], [1, 1, 0, 0.5, 0, 0, 0, 0.25]));
    let p = mopps.posterior();
    expect(p.alpha[7]).toBeCloseTo(c.moppsLambda * 1 + (1 - c.moppsLambda) * 1 + 2.5, 12);
    expect(p.beta[7]).toBeCloseTo(c.moppsLambda * 1 + (1 - c.moppsLambda) * 1 + 1.5, 12);
    expect(p.alpha[100]).toBeCloseTo(1 + 0.25, 12);
    expect(p.beta[100]).toBeCloseTo(1 + 3.75, 12);
    expect(p.alpha[8]).toBe(1);
    mopps.observe(1, groups(sim, [7], [1, 1, 1, 1]));
    p = mopps.posterior();
    expect(p.alpha[7]).toBeCloseTo(c.moppsLambda * 3.5 + (1 - c.moppsLambda) + 4, 12);
    expect(p.beta[7]).toBeCloseTo(c.moppsLambda * 2.5 + (1 - c.moppsLambda) + 0, 12);
  });

  it('prefers tasks whose success rate is near 0.5', async () => {
    const sim = await poolSimulator(8);
    const mopps = new MoppsScheduler(sim, 64);
    const all = Array.from({ length: 300 }, (_, i) => i);
    // tasks 0..99 always solved, 100..199 always failed, 200..299 half solved: a strong posterior each.
    const rewards = all.flatMap((i) => (i < 100 ? new Array(8).fill(1) : i < 200 ? new Array(8).fill(0) : [1, 0, 1, 0, 1, 0, 1, 0]));
    for (let t = 0; t < 6; t++) mopps.observe(t, groups(sim, all, rewards));
    const { tasks } = mopps.choose();
    const picked = Array.from(tasks);
    expect(picked.filter((i) => i < 200)).toEqual([]);
  });
});

describe('dps', () => {
  it('classifies groups as unsolved (mean 0), solved (mean 1) or partially solved, and counts transitions', async () => {
    const sim = await poolSimulator(4);
    const dps = new DpsScheduler(sim, 64);
    dps.observe(0, groups(sim, [1, 2, 3], [0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0]));
    let s = dps.state();
    expect(Array.from(s.last.subarray(0, 4))).toEqual([-1, 0, 2, 1]);
    expect(Array.from(s.belief.subarray(9, 12))).toEqual([0, 1, 0]); // task 3: partial
    expect(s.counts.subarray(27, 36).every((x) => x === 0)).toBe(true); // first observation: no transition yet
    dps.observe(1, groups(sim, [3], [1, 1, 1, 1]));
    s = dps.state();
    expect(s.last[3]).toBe(2);
    expect(s.counts[27 + 1 * 3 + 2]).toBe(1); // partial -> solved
    dps.observe(2, groups(sim, [3], [0.5, 1, 1, 1]));
    s = dps.state();
    expect(s.counts[27 + 1 * 3 + 2]).toBeCloseTo(BASELINE_CONSTANTS.dpsDecay, 12); // decayed
    expect(s.counts[27 + 2 * 3 + 1]).toBe(1); // solved -> partial
  });

  it('ranks a task that keeps being partially solved above one that stays solved', async () => {
    const sim = await poolSimulator(4);
    const dps = new DpsScheduler(sim, 64);
    for (let t = 0; t < 5; t++) dps.observe(t, groups(sim, [10, 20], [0, 1, 0, 1, 1, 1, 1, 1]));
    dps.choose();
    const predicted = dps.predicted();
    expect(predicted[10]).toBeGreaterThan(0.6);
    expect(predicted[20]).toBeLessThan(0.25);
    expect(predicted[30]).toBeCloseTo(1 / 3, 12); // never observed: uniform belief through the uniform prior
  });

  it('chooses B distinct tasks from its candidate pool and is deterministic per seed', async () => {
    const a = await simulate(pool, 'dps', { seed: 9 }, { steps: 20 });
    for (const step of a.steps) expect(new Set(step.batch).size).toBe(64);
    expect(a.summary.meanRankCorrelation).not.toBeNull();
  });
});
