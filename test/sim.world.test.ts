// The world mechanisms (docs/simulator.md, "World mechanisms"): each does what its knob says, the
// exact expectations stay exact with them on, and the world never learns which scheduler chose a
// batch.
import { describe, expect, it } from 'vitest';
import type { LoadedGraph } from '../src/engine/types.ts';
import { DEFAULT_SIM_MODEL, parseWorldText, worldOff, type SimModelParams } from '../src/sim/model-params.ts';
import { randomTraining } from '../src/sim/env-scaling.ts';
import { readSimParams } from '../src/sim/sim-params-read.ts';
import { Simulator } from '../src/sim/simulator.ts';
import { loadRunWasmNode, loadSimWasmNode } from '../src/sim/wasm-node.ts';
import { SimulationRun } from '../src/sim/run.ts';
import { config, envscalerShaped, gate, handPool, simulate } from './helpers/sim-fixtures.ts';

const PLAIN: SimModelParams = { ...worldOff(DEFAULT_SIM_MODEL), competence0: 0, logitScale: 1, exploitRate: 0 };
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

async function simulatorFor(loaded: LoadedGraph, K: number, model: SimModelParams, seed = 1): Promise<Simulator> {
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

/** Exact reward distribution with partial credit, enumerated check by check (independently of the kernel). */
function partialDistribution(init: number, gates: { difficulty: number; checks: number }[], q: number) {
  const total = gates.reduce((s, g) => s + g.checks, init);
  // distribution over the number of checks passed
  let dist = new Map<number, number>([[init, 1]]);
  const outcomes = new Map<number, number>();
  for (const g of gates) {
    const p = sigmoid(-g.difficulty);
    const pi = 1 - q * (1 - p);
    // stop here with probability 1 - p
    for (const [c, w] of dist) outcomes.set(c, (outcomes.get(c) ?? 0) + w * (1 - p));
    const next = new Map<number, number>();
    for (const [c, w] of dist) {
      for (let k = 0; k <= g.checks; k++) {
        let binom = 1;
        for (let j = 0; j < k; j++) binom = (binom * (g.checks - j)) / (j + 1);
        const pk = binom * pi ** k * (1 - pi) ** (g.checks - k);
        next.set(c + k, (next.get(c + k) ?? 0) + w * p * pk);
      }
    }
    dist = next;
  }
  for (const [c, w] of dist) outcomes.set(c, (outcomes.get(c) ?? 0) + w);
  let mean = 0;
  for (const [c, w] of outcomes) mean += (w * c) / total;
  let variance = 0;
  for (const [c, w] of outcomes) variance += w * (c / total - mean) ** 2;
  return { mean, variance };
}

describe('partial credit', () => {
  const gates = [gate(0, -0.5, 3), gate(1, 0.4, 2), gate(2, 0.1, 4)];
  const loaded = handPool([{ gates, initiallySatisfied: 1, exploitable: false }], [0]);

  it('keeps the expectation exact: mean and variance equal a check-by-check enumeration', async () => {
    for (const q of [0.2, 0.7, 1]) {
      const sim = await simulatorFor(loaded, 8, { ...PLAIN, partialCredit: q });
      const truth = sim.truth();
      const d = partialDistribution(1, gates, q);
      expect(truth.mean[0]).toBeCloseTo(d.mean, 12);
      expect(truth.variance[0]).toBeCloseTo((7 / 8) * d.variance, 12);
    }
  });

  it('rollouts match the exact expectation (Monte-Carlo) and give rewards between the all-or-nothing levels', async () => {
    const K = 8;
    const sim = await simulatorFor(loaded, K, { ...PLAIN, partialCredit: 0.6 });
    const { mean, variance } = sim.truth();
    const expectedMean = mean[0];
    const expectedVar = variance[0];
    sim.batchView(1).set([0]);
    let sumMean = 0;
    let sumVar = 0;
    const levels = new Set<number>();
    const groups = 4000;
    for (let g = 0; g < groups; g++) {
      const { rewards } = sim.rollout(1);
      let m = 0;
      for (let k = 0; k < K; k++) {
        m += rewards[k];
        levels.add(Math.round(rewards[k] * 10));
      }
      m /= K;
      let v = 0;
      for (let k = 0; k < K; k++) v += (rewards[k] - m) ** 2;
      sumMean += m;
      sumVar += v / K;
    }
    expect(Math.abs(sumMean / groups - expectedMean)).toBeLessThan(0.005);
    expect(Math.abs(sumVar / groups - expectedVar)).toBeLessThan(0.06 * expectedVar);
    // all-or-nothing chains can only score 1, 4, 6 or 10 checks of 10; partial credit reaches the others
    expect([...levels].some((c) => ![1, 4, 6, 10].includes(c))).toBe(true);
  });
});

describe('learning mechanisms', () => {
  // Four tasks in two environments, one family each chain, so credit is easy to follow.
  const tasks = [0, 1, 2, 3].map(() => ({ gates: [gate(0, 0, 2)], initiallySatisfied: 0, exploitable: false }));
  const loaded = handPool(tasks, [0, 0, 1, 1], 1);
  const base: SimModelParams = { ...PLAIN, etaCompetence: 0.1, competenceSaturation: Infinity };
  const learnFrom = async (model: SimModelParams, batch: number[], rewards: number[], times = 1) => {
    const sim = await simulatorFor(loaded, 2, model);
    for (let t = 0; t < times; t++) {
      sim.batchView(batch.length).set(batch);
      sim.rolloutView(batch.length).rewards.set(rewards);
      sim.learn(batch.length);
    }
    return sim.policy().competence[0];
  };
  const spread = [0, 1, 0, 1]; // two groups, sigma = 0.5 each
  /** One simulator whose every call learns from tasks 0 and 2 with the given rewards, and returns the family's competence. */
  const stepper = async (model: SimModelParams) => {
    const sim = await simulatorFor(loaded, 2, model);
    return (rewards: number[]) => {
      sim.batchView(2).set([0, 2]);
      sim.rolloutView(2).rewards.set(rewards);
      sim.learn(2);
      return sim.policy().competence[0];
    };
  };

  it('signal exponent: a group teaches sigma^gamma (GRPO-normalised at 1, unnormalised at 2)', async () => {
    expect(await learnFrom(base, [0, 2], spread)).toBeCloseTo(0.1 * 2 * 0.5, 12);
    expect(await learnFrom({ ...base, signalExponent: 0 }, [0, 2], spread)).toBeCloseTo(0.1 * 2 * 1, 12);
    expect(await learnFrom({ ...base, signalExponent: 0.5 }, [0, 2], spread)).toBeCloseTo(0.1 * 2 * Math.sqrt(0.5), 12);
    expect(await learnFrom({ ...base, signalExponent: 2 }, [0, 2], spread)).toBeCloseTo(0.1 * 2 * 0.25, 12);
    expect(await learnFrom({ ...base, signalExponent: 0 }, [0, 2], [0.5, 0.5, 0, 1])).toBeCloseTo(0.1 * 1, 12); // equal rewards still teach nothing
  });

  it('breadth: two groups of one environment transfer less than two groups of two environments', async () => {
    const world = { ...base, breadth: 1 };
    const sameEnv = await learnFrom(world, [0, 1], spread);
    const twoEnvs = await learnFrom(world, [0, 2], spread);
    expect(twoEnvs).toBeCloseTo(0.1 * 1, 12);
    expect(sameEnv).toBeCloseTo(0.1 * 0.5, 12); // each group's transfer divided by n_e = 2
    expect(await learnFrom(base, [0, 1], spread)).toBeCloseTo(twoEnvs, 12); // off: no difference
  });

  it("forgetting: each update relaxes competence toward its start by phi x the step's mean signal; no update, no drift", async () => {
    const world = { ...base, forgetting: 0.1 };
    const step = await stepper(world);
    const learned = step(spread); // from the start: nothing to forget
    expect(learned).toBeCloseTo(0.1, 12);
    expect(step([1, 1, 1, 1])).toBe(learned); // no signal: the policy does not move
    expect(step(spread)).toBeCloseTo((1 - 0.1 * 0.5) * learned + 0.1, 12); // mean signal 0.5
  });

  it('normalised drift: forgetting follows the share of groups with spread, not their summed signal', async () => {
    const world = { ...base, forgetting: 0.1, normalisedDrift: 1 };
    const step = await stepper(world);
    const learned = step(spread);
    expect(step([1, 1, 1, 1])).toBe(learned); // no group with spread: no update, no drift
    // both groups have spread: drift 0.1 x 1 (with lambda 0 it would be 0.1 x the mean signal 0.5)
    const both = step(spread);
    expect(both).toBeCloseTo((1 - 0.1) * learned + 0.1, 12);
    // one group with spread of two: drift 0.1 x 1/2 whatever the size of its spread
    expect(step([0, 0.2, 1, 1])).toBeCloseTo((1 - 0.1 * 0.5) * both + 0.1 * 0.1, 12);
  });

  it('drift exponent: at 1/2 the pushes of the groups with spread add in quadrature, so the drift grows with sqrt(N) while the lessons add up', async () => {
    const world = { ...base, forgetting: 0.1, normalisedDrift: 1, driftExponent: 0.5 };
    const step = await stepper(world);
    const learned = step(spread);
    expect(step([1, 1, 1, 1])).toBe(learned); // no group with spread: no drift
    const both = step(spread); // two groups with spread of two: drift 0.1 x sqrt(2) / 2
    expect(both).toBeCloseTo((1 - (0.1 * Math.SQRT2) / 2) * learned + 0.1, 12);
    expect(step([0, 0.2, 1, 1])).toBeCloseTo((1 - 0.1 * 0.5) * both + 0.1 * 0.1, 12); // one of two: 0.1 x 1 / 2
    // at 1 (off) the drift of two groups with spread is 0.1 x 2 / 2, the normalised drift's own rule
    const linear = await stepper({ ...world, driftExponent: 1 });
    const first = linear(spread);
    expect(linear(spread)).toBeCloseTo((1 - 0.1) * first + 0.1, 12);
  });

  it("familiarity drift: every update disturbs every environment's own skill, in the batch or not; a step without one leaves it", async () => {
    const world = { ...base, etaFamiliarity: 0.1, familiarityDecay: 0.5, familiarityMax: 10, familiarityDrift: 0.2 };
    const familiarity = async (model: SimModelParams) => {
      const sim = await simulatorFor(loaded, 2, model);
      const seen: number[][] = [];
      for (const [task, rewards] of [
        [0, [0, 1]], // environment 0 practised: mean signal 0.5
        [2, [0, 1]], // environment 1 practised, environment 0 left out
        [2, [1, 1]], // no spread: no update
      ] as const) {
        sim.batchView(1).set([task]);
        sim.rolloutView(1).rewards.set(rewards);
        sim.learn(1);
        seen.push([...sim.policy().familiarity.slice(0, 2)]);
      }
      return seen;
    };
    const [drifting, plain] = [await familiarity(world), await familiarity({ ...world, familiarityDrift: 0 })];
    expect(drifting[0][0]).toBeCloseTo(0.05, 12); // nothing to lose yet, then practice adds 0.1 x 0.5
    expect(plain[1][0]).toBeCloseTo(0.05 * 0.5, 12); // left out: the absence decay alone
    expect(drifting[1][0]).toBeCloseTo(0.05 * (1 - 0.2 * 0.5) * 0.5, 12); // and the update's drift as well
    expect(drifting[2][1]).toBe(drifting[1][1]); // no update: environment 1, in the batch, keeps its familiarity
    expect(drifting[2][0]).toBeCloseTo(drifting[1][0] * 0.5, 12); // environment 0, left out again, only decays
  });

  it("the familiarity cap bounds how much an environment's own practice can make its tasks easy; it is a world constant set by name", async () => {
    const world = { ...base, etaFamiliarity: 0.1, familiarityDecay: 0, familiarityMax: 0.12 };
    const sim = await simulatorFor(loaded, 2, world);
    const seen: number[] = [];
    for (let k = 0; k < 4; k++) {
      sim.batchView(1).set([0]);
      sim.rolloutView(1).rewards.set([0, 1]); // signal 0.5: 0.05 of familiarity a step
      sim.learn(1);
      seen.push(sim.policy().familiarity[0]);
    }
    expect(seen[0]).toBeCloseTo(0.05, 12);
    expect(seen[1]).toBeCloseTo(0.1, 12);
    expect(seen.slice(2)).toEqual([0.12, 0.12]); // at the cap, practice adds nothing more
    expect(parseWorldText('familiarityMax=0.5', 'command line', '--world')).toEqual({ familiarityMax: 0.5 });
    expect(() => parseWorldText('familiarityMax=11', 'command line', '--world')).toThrow(/familiarityMax must be a number in \[0, 10\]/);
  });

  it("memorisation: a task's own practice raises its own logit by the memorisation rate times its signal, up to the cap; the rate is set by name", async () => {
    const sim = await simulatorFor(loaded, 2, { ...base, etaMemo: 0.2, memoMax: 0.25 });
    const seen: number[] = [];
    for (const rewards of [
      [0, 1],
      [1, 1],
      [0, 1],
      [0, 1],
    ]) {
      sim.batchView(1).set([0]);
      sim.rolloutView(1).rewards.set(rewards);
      sim.learn(1);
      seen.push(sim.policy().memo[0]);
    }
    expect(seen[0]).toBeCloseTo(0.1, 12); // signal 0.5
    expect(seen[1]).toBe(seen[0]); // equal rewards teach nothing
    expect(seen[2]).toBeCloseTo(0.2, 12);
    expect(seen[3]).toBe(0.25); // at the cap
    expect(sim.policy().memo[2]).toBe(0); // another task of the same environment: no memorisation
    expect(parseWorldText('etaMemo=0.3', 'command line', '--world')).toEqual({ etaMemo: 0.3 });
  });

  it("gradient noise: a step has a fixed length, set by the learning rate, and the batch's signal-to-noise ratio decides how much of it teaches", async () => {
    const world = { ...base, gradientNoise: 1 };
    // credit 2 x 0.5 = 1 on the one family, two groups with spread: |g| = sqrt(1 + 1^2 x 2)
    expect(await learnFrom(world, [0, 2], spread)).toBeCloseTo(0.1 / Math.sqrt(3), 12);
    // one informative group of two: credit 0.5, one group of noise: |g| = sqrt(0.25 + 1)
    expect(await learnFrom(world, [0, 2], [0, 1, 1, 1])).toBeCloseTo((0.1 * 0.5) / Math.sqrt(1.25), 12);
    // the same group with a tiny spread teaches far less, although it pushes as hard
    expect(await learnFrom(world, [0, 2], [0, 0.1, 1, 1])).toBeCloseTo((0.1 * 0.05) / Math.sqrt(0.0025 + 1), 12);
    // almost no noise: the step's length is the learning rate, however large or small the spread
    const clean = { ...base, gradientNoise: 1e-9 };
    expect(await learnFrom(clean, [0, 2], spread)).toBeCloseTo(0.1, 9);
    expect(await learnFrom(clean, [0, 2], [0, 0.1, 1, 1])).toBeCloseTo(0.1, 9);
    expect(await learnFrom(world, [0, 2], [1, 1, 0, 0])).toBe(0); // no group with spread: no step
  });

  it("gradient noise: forgetting follows the noise's share of the step, and normalised drift no longer matters", async () => {
    const world = { ...base, gradientNoise: 1, forgetting: 0.1 };
    const step = await stepper(world);
    const learned = step(spread);
    expect(step([1, 1, 1, 1])).toBe(learned); // no step, no drift
    const keep = 1 - (0.1 * Math.sqrt(2)) / Math.sqrt(3); // noise sqrt(2) of |g| = sqrt(3)
    expect(step(spread)).toBeCloseTo(keep * learned + 0.1 / Math.sqrt(3), 12);
    const [plain, drifting] = [await stepper(world), await stepper({ ...world, normalisedDrift: 1 })];
    for (const rewards of [spread, [0, 0.2, 1, 1], spread]) expect(drifting(rewards)).toBe(plain(rewards));
  });

  it('repeat discount: practising the same task again transfers less than a fresh one', async () => {
    const world = { ...base, repeatDiscount: 1 };
    const repeated = await learnFrom(world, [0], [0, 1], 2);
    expect(repeated).toBeCloseTo(0.1 * 0.5 * (1 + 1 / 2), 12);
    const sim = await simulatorFor(loaded, 2, world);
    for (const task of [0, 1]) {
      sim.batchView(1).set([task]);
      sim.rolloutView(1).rewards.set([0, 1]);
      sim.learn(1);
    }
    expect(sim.policy().competence[0]).toBeCloseTo(0.1 * 0.5 * 2, 12);
    expect(sim.policy().memo[0]).toBeCloseTo(sim.policy().memo[1], 12); // memorisation itself is not discounted
  });
});

describe('gradient credit', () => {
  // One task whose chain has a gate of each family, so each family's competence shows its gate's share.
  const gates = [gate(0, -0.5, 3), gate(1, 0.4, 2), gate(2, 0.1, 4)];
  const loaded = handPool([{ gates, initiallySatisfied: 1, exploitable: false }], [0]);
  const world = { ...PLAIN, etaCompetence: 0.1, competenceSaturation: Infinity };
  /** Each family's competence after one group of task 0 (by default rewards [0, 1], sigma 0.5: a lesson of 0.1 x 0.5 in all). */
  const learned = async (model: SimModelParams, pool = loaded, rewards = [0, 1]) => {
    const sim = await simulatorFor(pool, 2, model);
    sim.batchView(1).set([0]);
    sim.rolloutView(1).rewards.set(rewards);
    sim.learn(1);
    return [...sim.policy().competence];
  };
  /** d(expected reward)/d(gate k's logit), by central differences of the check-by-check enumeration. */
  const enumeratedGradient = (q: number) =>
    gates.map((_, k) => {
      const h = 1e-5;
      const at = (dz: number) =>
        partialDistribution(
          1,
          gates.map((g, j) => (j === k ? { ...g, difficulty: g.difficulty - dz } : g)),
          q,
        ).mean;
      return (at(h) - at(-h)) / (2 * h);
    });

  it('at 1 splits a group’s lesson over its gates as the gradient of the expected reward does (partial credit on or off)', async () => {
    for (const q of [0, 0.7]) {
      const gradient = enumeratedGradient(q);
      const total = gradient.reduce((a, b) => a + b, 0);
      const competence = await learned({ ...world, partialCredit: q, gradientCredit: 1 });
      gradient.forEach((g, f) => expect(competence[f]).toBeCloseTo((0.05 * g) / total, 8));
    }
  });

  it('at 0 splits it evenly (the earlier rule), and in between mixes the two', async () => {
    const even = await learned({ ...world, partialCredit: 0.7 });
    for (const c of even) expect(c).toBeCloseTo(0.05 / 3, 12);
    const along = await learned({ ...world, partialCredit: 0.7, gradientCredit: 1 });
    const half = await learned({ ...world, partialCredit: 0.7, gradientCredit: 0.5 });
    half.forEach((c, f) => expect(c).toBeCloseTo((even[f] + along[f]) / 2, 12));
  });

  it('a step every rollout already passes learns almost nothing; the frontier takes the lesson', async () => {
    const chain = handPool([{ gates: [gate(0, -8, 2), gate(1, 0, 2)], initiallySatisfied: 0, exploitable: false }], [0]);
    const [mastered, frontier] = await learned({ ...world, gradientCredit: 1 }, chain, [0.5, 1]);
    expect(mastered).toBeLessThan(0.01 * frontier);
    expect(mastered + frontier).toBeCloseTo(0.1 * 0.25, 12); // the lesson's size is unchanged
  });
});

describe('structure-determined difficulty', () => {
  it('scales only the hidden part of each gate difficulty (1 = as generated, 0 = all visible)', async () => {
    const hidden = { family: 0, type: 0, difficulty: 1, checks: 1, noise: 0.8 };
    const loaded = handPool([{ gates: [hidden], initiallySatisfied: 0, exploitable: false }], [0]);
    const at = async (hiddenNoise: number) => (await simulatorFor(loaded, 2, { ...PLAIN, hiddenNoise })).truth().mean[0];
    expect(await at(1)).toBeCloseTo(sigmoid(-1), 12);
    expect(await at(0)).toBeCloseTo(sigmoid(-0.2), 12);
    expect(await at(0.5)).toBeCloseTo(sigmoid(-0.6), 12);
  });
});

describe('the world is blind to the scheduler', () => {
  const pool = envscalerShaped();

  it('the same batches under different scheduler names give identical fingerprints', async () => {
    // Run EnvSched, record its batches, then replay exactly those batches with every other name.
    const source = new SimulationRun(await loadRunWasmNode(), pool, config({ scheduler: 'envsched', seed: 4 }), 'test pool', { steps: 12 });
    const batches: Int32Array[] = [];
    for (let t = 0; t < 12; t++) batches.push(Int32Array.from(source.step().metrics.batch));
    const fingerprint = source.result().fingerprint;
    for (const name of ['random', 'mopps', 'dps', 'coverage-only', 'exploitation-only'] as const) {
      const run = new SimulationRun(await loadRunWasmNode(), pool, config({ scheduler: name, seed: 4 }), 'test pool', { steps: 12 });
      let t = 0;
      // the scripted scheduler: the recorded batches, whatever the name says
      Object.assign(run.scheduler, {
        choose: () => ({ tasks: batches[t++], phases: null, relaxed: [], progressExcluded: 0 }),
        predicted: () => null,
      });
      run.run();
      expect(run.result().fingerprint, name).toBe(fingerprint);
    }
  });

  it('random training on every environment is the random scheduler run, draw for draw', async () => {
    const run = await simulate(pool, 'random', { seed: 9 }, { steps: 20 });
    const training = randomTraining(
      await loadSimWasmNode(),
      pool,
      config({ scheduler: 'random', seed: 9 }),
      'test pool',
      pool.packed.nEnvs,
      20,
    );
    expect(training.fingerprint).toBe(run.fingerprint);
    expect(training.heldout).toEqual(run.steps.map((s) => s.heldoutOverall));
  });
});
