// Random small scheduling cases (graph + history + configuration + step) for property tests.
// Values are drawn from coarse grids on purpose: equal similarities, equal rewards and equal
// scores make every tie rule of the spec fire often.
import { DEFAULT_CONFIG } from '../../src/engine/config.ts';
import { mulberry32 } from '../../src/util/mulberry32.ts';
import type { Config, Graph, Neighbour, Observation, ScorableScheduler } from '../../src/engine/types.ts';

/** Test data from mulberry32 (never the app's generator), with a few drawing helpers. */
export function testRng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
  };
}
export type TestRng = ReturnType<typeof testRng>;

function sortedNeighbours(pairs: Neighbour[]): Neighbour[] {
  return pairs.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}

/** A graph obeying SPEC 1: complete within lists, top-M cross by S_abs, top-P fullCross by S_full, symmetric values. */
export function randomGraph(rng: TestRng, opts: { maxEnvs?: number; maxTasksPerEnv?: number } = {}): Graph {
  const nEnvs = rng.int(1, opts.maxEnvs ?? 6);
  const sizes = Array.from({ length: nEnvs }, () => rng.int(1, opts.maxTasksPerEnv ?? 6));
  const taskEnv = sizes.flatMap((size, e) => Array<number>(size).fill(e));
  const n = taskEnv.length;
  const grid = rng.pick([0.25, 0.1, 0.01, 0]); // 0: continuous values
  const draw = () => (grid === 0 ? Math.round(rng.next() * 1e6) / 1e6 : Math.round(rng.next() / grid) * grid);
  const full: number[][] = Array.from({ length: n }, () => Array<number>(n).fill(0));
  const abs: number[][] = Array.from({ length: n }, () => Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      full[i][j] = full[j][i] = draw();
      abs[i][j] = abs[j][i] = draw();
    }
  }
  const mCross = rng.int(0, n);
  const pCross = rng.int(0, n);
  const others = (i: number, sameEnv: boolean) => [...Array(n).keys()].filter((j) => j !== i && (taskEnv[j] === taskEnv[i]) === sameEnv);
  const categories = ['alpha', 'beta', null] as const;
  return {
    format: 'envsched-graph',
    version: 1,
    name: 'random',
    envs: sizes.map((_, e) => ({ id: `env_${e}_rl`, name: `Env${e}`, category: rng.pick(categories), tools: [`tool_${e}`] })),
    tasks: taskEnv.map((env, i) => ({
      id: `env_${env}_rl-task_${i}`,
      env,
      tools: [`tool_${env}`],
      checks: rng.int(2, 20),
      text: `task ${i}`,
    })),
    within: taskEnv.map((_, i) => sortedNeighbours(others(i, true).map((j): Neighbour => [j, full[i][j]]))),
    cross: taskEnv.map((_, i) => sortedNeighbours(others(i, false).map((j): Neighbour => [j, abs[i][j]])).slice(0, mCross)),
    fullCross: taskEnv.map((_, i) => sortedNeighbours(others(i, false).map((j): Neighbour => [j, full[i][j]])).slice(0, pCross)),
  };
}

/** A history over steps 0..T-1 with gaps (steps nobody was observed), K = 1 groups and flags. */
export function randomHistory(rng: TestRng, graph: Graph): Observation[] {
  const n = graph.tasks.length;
  const steps = rng.pick([0, 1, 2, 4, 8, 14]);
  const k = rng.pick([1, 2, 4, 8]);
  const rewardGrid = rng.pick([1, 0.5, 0.25, 0]);
  const flagRate = rng.pick([0, 0, 0.05, 0.3]);
  const observations: Observation[] = [];
  for (let step = 0; step < steps; step++) {
    if (rng.chance(0.15)) continue; // a gap: no observation at this step
    const share = rng.pick([0.2, 0.5, 1]);
    for (let task = 0; task < n; task++) {
      if (!rng.chance(share)) continue;
      const rewards = Array.from({ length: k }, () => (rewardGrid === 0 ? rng.next() : Math.round(rng.next() / rewardGrid) * rewardGrid));
      const o: Observation = { step, task, rewards };
      if (flagRate > 0 && rng.chance(0.5)) o.flags = rewards.map(() => rng.chance(flagRate));
      observations.push(o);
    }
  }
  return observations;
}

const SCORABLE: ScorableScheduler[] = ['envsched', 'within-only', 'cross-only', 'coverage-only', 'exploitation-only'];

export function randomConfig(rng: TestRng, n: number): Config {
  return {
    ...DEFAULT_CONFIG,
    alpha: [...DEFAULT_CONFIG.alpha],
    scheduler: rng.pick(SCORABLE),
    B: rng.int(1, n + 3),
    rho: rng.pick([0, 0.5, 1, 0.3]),
    K_within: rng.int(0, 6),
    K_cross: rng.int(0, 6),
    lambda_g: rng.pick([0, 0.5, 2]),
    lambda_s: rng.pick([0.5, 2, 5]),
    h_long: rng.pick([8, 4.5, 1]),
    h_short: rng.pick([2, 1, 0.5]),
    eta_decline: rng.pick([0, 0.5, 1]),
    c0: rng.pick([16, 4, 1]),
    lambda_sim: rng.pick([0, 0.08, 0.5]),
    C1: rng.int(1, 4),
    C3: rng.int(1, 8),
    C_task: rng.int(1, 3),
    kappa: rng.pick([0, 2]),
    lambda_ridge: rng.pick([1, 0.5]),
  };
}

export interface RandomCase {
  seed: number;
  graph: Graph;
  observations: Observation[];
  config: Config;
  step: number;
}

export function randomCase(seed: number): RandomCase {
  const rng = testRng(seed);
  const graph = randomGraph(rng);
  const observations = randomHistory(rng, graph);
  const config = randomConfig(rng, graph.tasks.length);
  const last = observations.reduce((m, o) => Math.max(m, o.step), -1);
  const step = rng.chance(0.7) ? last + 1 : rng.int(0, last + 2);
  return { seed, graph, observations, config, step };
}
