// `generate-pool`: an EnvScaler-shaped pool (release format) plus what the builder and the
// simulator need beside it. Everything is a pure function of (envs, tasksPerEnv, seed).
import { Pcg32 } from './rng.ts';
import { DOMAINS, HELDOUT_SUITES } from './domains.ts';
import { generateEnvironment, FAMILIES, type GeneratedEnv } from './environment.ts';
import { generateTask, GATE_TYPES, type InspectionDraw, type Topology } from './tasks.ts';
import type { SimHeldoutSuite, SimParams, SimTask } from '../engine/sim-params.ts';

/** Bump when the generator's output changes for a given seed (datasets are rebuilt on a change). */
export const GENERATOR_VERSION = 2;

export interface PoolOptions {
  envs: number;
  tasksPerEnv: number;
  seed: number;
  /** Total tasks when not every environment has `tasksPerEnv` (envscaler-full): spread evenly. */
  totalTasks?: number;
  /**
   * Inspection calls (read-only tools used besides the gated operations, so a task uses about as
   * many tools as EnvScaler's); default true. false: the generator before they existed.
   */
  inspectionCalls?: boolean;
  /** How the inspection calls are drawn (default `DEFAULT_INSPECTION` of `tasks.ts`: the bundled pools). */
  inspection?: InspectionDraw;
}

export interface GeneratedPool {
  /** env_metadata.json: the repository variant, an object keyed by env_id. */
  envMetadata: Record<string, Record<string, unknown>>;
  /** rl_scenario_metadata.json: a list of scenarios. */
  scenarios: Record<string, unknown>[];
  /** The Appendix E description of every task, keyed by task_id (what `--topology` reads). */
  topology: Record<string, Topology>;
  /** env_id -> category (domain), for the graph's categories (what `--categories` reads). */
  categories: Record<string, string>;
  /** The simulator's hidden parameters, tasks in the order of `scenarios` (what `--sim` reads). */
  sim: SimParams;
}

// Independent PCG32 streams per purpose keep an environment's content independent of the pool size.
const STREAM_CATALOGUE = 1;
const STREAM_ENV = 1_000;
const STREAM_TASK = 1_000_000;
const STREAM_HELDOUT = 500_000;
const STREAM_INSPECT = 3_000_000;

export const MAX_ENVS = DOMAINS.reduce((a, d) => a + d.subjects.length, 0);

function categoryEffects(seed: number): Map<string, number> {
  const rng = new Pcg32(seed, STREAM_CATALOGUE + 1);
  return new Map(DOMAINS.map((d) => [d.category, Math.round(0.25 * rng.normal() * 1e4) / 1e4]));
}

function tasksFor(e: number, opts: PoolOptions): number {
  if (opts.totalTasks === undefined) return opts.tasksPerEnv;
  const base = Math.floor(opts.totalTasks / opts.envs);
  return base + (e < opts.totalTasks - base * opts.envs ? 1 : 0);
}

export function generatePool(opts: PoolOptions): GeneratedPool {
  if (opts.envs < 1 || opts.envs > MAX_ENVS) throw new RangeError(`envs must be in [1, ${MAX_ENVS}]`);
  const catalogue = new Pcg32(opts.seed, STREAM_CATALOGUE);
  const subjects = catalogue.shuffled(DOMAINS.flatMap((domain) => domain.subjects.map((subject) => ({ domain, subject }))));
  const catEffect = categoryEffects(opts.seed);
  const pool: GeneratedPool = {
    envMetadata: {},
    scenarios: [],
    topology: {},
    categories: {},
    sim: { version: 1, families: [...FAMILIES], gateTypes: [...GATE_TYPES], tasks: [], heldout: [] },
  };
  const taskIds: string[] = [];
  for (let e = 0; e < opts.envs; e++) {
    const { domain, subject } = subjects[e];
    const envRng = new Pcg32(opts.seed, STREAM_ENV + e);
    const envId = `env_${e + 1}_rl`;
    const env = generateEnvironment(envId, domain, subject, envRng);
    const envEffect = catEffect.get(domain.category)! + 0.3 * envRng.normal();
    pool.envMetadata[envId] = env.record;
    pool.categories[envId] = domain.category;
    const n = tasksFor(e, opts);
    for (let t = 0; t < n; t++) {
      const taskId = `${envId}-task_${t + 1}`;
      const inspectRng = opts.inspectionCalls === false ? undefined : new Pcg32(opts.seed, STREAM_INSPECT + e * 1000 + t);
      const rng = new Pcg32(opts.seed, STREAM_TASK + e * 1000 + t);
      const out = generateTask({ env, envIndex: e, envEffect, taskId, rng, inspectRng, inspection: opts.inspection });
      pool.scenarios.push(out.scenario);
      pool.topology[taskId] = out.topology;
      pool.sim.tasks.push(out.sim);
      taskIds.push(taskId);
    }
  }
  pool.sim.taskIds = taskIds;
  pool.sim.heldout = heldoutSuites(opts.seed, catEffect, opts.inspectionCalls !== false, opts.inspection);
  return pool;
}

/** SPEC 10 held-out suites: 3 suites x 4 environments x 10 tasks in environments not in any pool. */
function heldoutSuites(seed: number, catEffect: Map<string, number>, inspect: boolean, inspection?: InspectionDraw): SimHeldoutSuite[] {
  return HELDOUT_SUITES.map((suite, s) => {
    const out: SimHeldoutSuite = { name: suite.name, envs: [], tasks: [] };
    suite.envs.forEach((spec, k) => {
      const rng = new Pcg32(seed, STREAM_HELDOUT + s * 100 + k);
      const domain = DOMAINS.find((d) => d.category === spec.category) ?? DOMAINS[rng.below(DOMAINS.length)];
      const primary = rng.pick(domain.subjects).split('>')[1];
      const env: GeneratedEnv = generateEnvironment(`heldout_${suite.name}_${k + 1}`, domain, `${spec.name}>${primary}`, rng);
      out.envs.push({ id: env.envId, name: spec.name, category: spec.category });
      const envEffect = (catEffect.get(domain.category) ?? 0) + 0.3 * rng.normal();
      for (let t = 0; t < 10; t++) {
        const inspectRng = inspect ? new Pcg32(seed, STREAM_INSPECT + 900_000 + s * 1000 + k * 100 + t) : undefined;
        const task: SimTask = generateTask({
          env,
          envIndex: k,
          envEffect,
          taskId: `${env.envId}-task_${t + 1}`,
          rng: new Pcg32(seed, STREAM_HELDOUT + 50_000 + s * 1000 + k * 100 + t),
          inspectRng,
          inspection,
        }).sim;
        out.tasks.push({ env: k, ...task });
      }
    });
    return out;
  });
}

/** The files of a pool directory, as text (byte-identical for the same options). */
export function poolFiles(pool: GeneratedPool): Record<string, string> {
  return {
    'env_metadata.json': JSON.stringify(pool.envMetadata) + '\n',
    'rl_scenario_metadata.json': JSON.stringify(pool.scenarios) + '\n',
    'topology.json': JSON.stringify(pool.topology) + '\n',
    'categories.json': JSON.stringify(pool.categories, null, 1) + '\n',
    'sim.json': JSON.stringify(pool.sim) + '\n',
  };
}
