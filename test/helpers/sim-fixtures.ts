// Pools for the simulator tests: the envscaler-shaped synthetic pool (src/sim/synthetic-pool.ts,
// built once per test file) and tiny hand-made pools whose expectations can be worked by hand.
import { DEFAULT_CONFIG } from '../../src/engine/config.ts';
import { loadGraph } from '../../src/engine/graph-json.ts';
import type { SimParams, SimTask } from '../../src/engine/sim-params.ts';
import type { Config, Graph, LoadedGraph, SchedulerName } from '../../src/engine/types.ts';
import { syntheticPool, type SyntheticPoolOptions } from '../../src/sim/synthetic-pool.ts';
import { loadRunWasmNode } from '../../src/sim/wasm-node.ts';
import { runSimulation, type RunOptions, type RunResult } from '../../src/sim/run.ts';

const cache = new Map<string, LoadedGraph>();

/** The 51 x 50 envscaler-shaped pool (short cross lists unless asked: the baselines never read them). */
export function envscalerShaped(options: Partial<SyntheticPoolOptions> = {}): LoadedGraph {
  const key = JSON.stringify(options);
  let loaded = cache.get(key);
  if (!loaded) {
    loaded = loadGraph(syntheticPool({ mCross: 16, pCross: 8, ...options }));
    cache.set(key, loaded);
  }
  return loaded;
}

export function config(overrides: Partial<Config> = {}): Config {
  return { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'], ...overrides };
}

export async function simulate(
  loaded: LoadedGraph,
  scheduler: SchedulerName,
  overrides: Partial<Config> = {},
  options: RunOptions = {},
): Promise<RunResult> {
  return runSimulation(await loadRunWasmNode(), loaded, config({ scheduler, ...overrides }), 'test pool', options);
}

/** A graph of hand-made tasks, one environment per entry of `envOf`, lists empty but valid. */
export function handPool(tasks: SimTask[], envOf: number[], families = 3, heldout: SimParams['heldout'] = []): LoadedGraph {
  const nEnvs = Math.max(...envOf) + 1;
  const graph: Graph = {
    format: 'envsched-graph',
    version: 1,
    name: 'hand',
    envs: Array.from({ length: nEnvs }, (_, e) => ({ id: `e${e}`, name: `E${e}`, category: null, tools: [`t${e}`] })),
    tasks: tasks.map((t, i) => ({
      id: `task${i}`,
      env: envOf[i],
      tools: [`t${envOf[i]}`],
      checks: t.gates.reduce((s, g) => s + g.checks, t.initiallySatisfied),
      text: '',
    })),
    within: tasks.map((_, i) => tasks.flatMap((__, j) => (j !== i && envOf[j] === envOf[i] ? [[j, 0.5] as [number, number]] : []))),
    cross: tasks.map(() => []),
    fullCross: tasks.map(() => []),
    sim: {
      version: 1,
      families: Array.from({ length: families }, (_, f) => `f${f}`),
      gateTypes: ['g'],
      tasks,
      heldout,
    } satisfies SimParams,
  };
  return loadGraph(graph);
}

export function gate(family: number, difficulty: number, checks: number) {
  return { family, type: 0, difficulty, checks };
}
