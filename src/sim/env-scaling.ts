// Random training restricted to the first n environments of the pool: the environment-scaling
// experiment (EnvScaler's Section 5.4: held-out performance versus the number of distinct
// training environments). With every environment allowed it is exactly the random scheduler's
// run (same draws, same fingerprint), without the per-step truth metrics, so the calibration can
// afford many of them.
import type { Config, LoadedGraph } from '../engine/types.ts';
import { groupMeanVariance, mean, median } from './metrics.ts';
import { DEFAULT_SIM_MODEL, type SimModelParams } from './model-params.ts';
import { readSimParams } from './sim-params-read.ts';
import { Simulator } from './simulator.ts';
import type { SimWasmExports } from './wasm.ts';

export interface RandomTrainingResult {
  /** Environments training could draw from (the first `envs` of the pool). */
  envs: number;
  /** Held-out score before training and after every step (index t = after step t). */
  heldoutInitial: number;
  heldout: number[];
  /** Over every group of every step: mean and median realised variance, median group mean reward. */
  meanVariance: number;
  medianVariance: number;
  medianReward: number;
  fingerprint: string;
}

/** `steps` steps of uniform random batches of config.B distinct tasks from the first `envs` environments. */
export function randomTraining(
  wasm: SimWasmExports,
  loaded: LoadedGraph,
  config: Config,
  source: string,
  envs: number,
  steps: number,
  model: SimModelParams = DEFAULT_SIM_MODEL,
): RandomTrainingResult {
  const params = readSimParams(loaded.meta, source);
  const taskEnv = loaded.packed.taskEnv;
  const sim = new Simulator(wasm, loaded.packed.nEnvs, taskEnv, params, config.K, model);
  const allowed: number[] = [];
  for (let i = 0; i < sim.nTasks; i++) if (taskEnv[i] < envs) allowed.push(i);
  if (allowed.length === 0) throw new RangeError(`no task in the first ${envs} environment(s)`);
  const perm = sim.heap.allocI32(allowed.length);
  const out = sim.heap.allocI32(allowed.length);
  sim.heap.i32(perm, allowed.length).set(allowed);
  sim.reset(config.seed);
  const m = Math.min(config.B, allowed.length);
  const K = config.K;
  const heldoutInitial = mean(sim.heldoutScores());
  const heldout: number[] = [];
  const variances: number[] = [];
  const rewards: number[] = [];
  for (let t = 0; t < steps; t++) {
    wasm.base_random_choose(perm, allowed.length, m, out);
    sim.batchView(m).set(sim.heap.i32(out, m));
    const view = sim.rollout(m);
    sim.hashStep(m);
    for (let b = 0; b < m; b++) {
      const g = groupMeanVariance(view.rewards, b * K, K);
      variances.push(g.v);
      rewards.push(g.m);
    }
    sim.learn(m);
    heldout.push(mean(sim.heldoutScores()));
  }
  return {
    envs,
    heldoutInitial,
    heldout,
    meanVariance: mean(variances),
    medianVariance: median(variances),
    medianReward: median(rewards),
    fingerprint: sim.fingerprint(),
  };
}
