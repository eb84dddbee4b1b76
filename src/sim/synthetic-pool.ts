// A deterministic synthetic pool with the shape of envscaler-rl (51 environments x 50 tasks, a
// median of ~14 checks, ~15% of checks initially satisfied), hidden parameters included. It stands
// in for the real dataset in tests, the benchmark and calibration until the pool generator's
// `envscaler-rl` graph exists (docs/simulator.md, "Calibration"). Not a batch decision: its
// generator is a local mulberry32, never Math.random.
import type { SimParams, SimTask } from '../engine/sim-params.ts';
import type { Graph, GraphEnv, GraphTask, Neighbour } from '../engine/types.ts';
import { mulberry32 } from '../util/mulberry32.ts';

export interface SyntheticPoolOptions {
  envs: number;
  tasksPerEnv: number;
  families: number;
  /** Cross-environment list lengths (SPEC 1 M_cross, P_cross). */
  mCross: number;
  pCross: number;
  /** Held-out suites, each with `heldoutEnvs` environments of `heldoutTasksPerEnv` tasks. */
  heldoutSuites: number;
  heldoutEnvs: number;
  heldoutTasksPerEnv: number;
  exploitableRate: number;
  seed: number;
}

export const ENVSCALER_SHAPE: Readonly<SyntheticPoolOptions> = Object.freeze({
  envs: 51,
  tasksPerEnv: 50,
  families: 10,
  mCross: 256,
  pCross: 32,
  heldoutSuites: 2,
  heldoutEnvs: 6,
  heldoutTasksPerEnv: 20,
  exploitableRate: 0.02,
  seed: 7,
});

const FAMILY_NAMES = [
  'lookup',
  'create',
  'update',
  'delete',
  'authorise',
  'search',
  'transfer',
  'schedule',
  'validate',
  'notify',
  'aggregate',
  'link',
];
const GATE_TYPES = ['identifier-resolution', 'state-precondition', 'authorisation', 'write-effect'];
const CATEGORIES = ['finance', 'health', 'logistics', 'education', 'retail', 'travel', 'community', 'operations'];

interface EnvProfile {
  families: number[];
  base: number; // environment difficulty offset
}

function makeTask(rand: () => number, env: EnvProfile, familyBase: number[]): SimTask {
  const nGates = 2 + Math.floor(rand() * 4); // 2..5
  const gates = [];
  for (let k = 0; k < nGates; k++) {
    const family = env.families[Math.floor(rand() * env.families.length)];
    const type = k === 0 ? 0 : 1 + Math.floor(rand() * 3);
    const checks = 1 + Math.floor(rand() * 5); // 1..5
    // Difficulty: a function of visible structure (family, gate type, checks, environment) plus noise (SPEC 10).
    const difficulty = env.base + familyBase[family] + 0.25 * type + 0.08 * checks + 0.6 * (rand() - 0.5) * 2;
    gates.push({ family, type, difficulty, checks });
  }
  const gateChecks = gates.reduce((s, g) => s + g.checks, 0);
  const initiallySatisfied = Math.round(gateChecks * (0.1 + 0.12 * rand()));
  return { gates, initiallySatisfied, exploitable: false };
}

function familyVector(task: SimTask, nFamilies: number): Float64Array {
  const v = new Float64Array(nFamilies + GATE_TYPES.length);
  for (const g of task.gates) {
    v[g.family] += g.checks;
    v[nFamilies + g.type] += 0.5;
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < v.length; k++) v[k] /= norm;
  return v;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}

/** Rounds a similarity to 6 digits (what a graph file would carry) and keeps it in [0, 1]. */
function round6(x: number): number {
  return Math.round(Math.min(1, Math.max(0, x)) * 1e6) / 1e6;
}

function byScore(a: Neighbour, b: Neighbour): number {
  return b[1] - a[1] || a[0] - b[0];
}

/** A graph (SPEC 12) with a `sim` field (src/engine/sim-params.ts) of the given shape. */
export function syntheticPool(options: Partial<SyntheticPoolOptions> = {}): Graph {
  const o: SyntheticPoolOptions = { ...ENVSCALER_SHAPE, ...options };
  const rand = mulberry32(o.seed);
  const familyBase = Array.from({ length: o.families }, () => (rand() - 0.5) * 1.6);
  const profile = (): EnvProfile => {
    const count = 3 + Math.floor(rand() * 3);
    const fams = new Set<number>();
    while (fams.size < Math.min(count, o.families)) fams.add(Math.floor(rand() * o.families));
    return { families: [...fams].sort((a, b) => a - b), base: (rand() - 0.5) * 1.4 };
  };
  const envs: GraphEnv[] = [];
  const tasks: GraphTask[] = [];
  const simTasks: SimTask[] = [];
  for (let e = 0; e < o.envs; e++) {
    const prof = profile();
    const tools = Array.from({ length: 12 + Math.floor(rand() * 10) }, (_, k) => `env${e}_tool${k}`);
    envs.push({ id: `env_${e}_rl`, name: `SyntheticEnv${e}`, category: CATEGORIES[e % CATEGORIES.length], tools });
    for (let k = 0; k < o.tasksPerEnv; k++) {
      const t = makeTask(rand, prof, familyBase);
      t.exploitable = rand() < o.exploitableRate;
      const checks = t.gates.reduce((s, g) => s + g.checks, t.initiallySatisfied);
      const nTools = 4 + Math.floor(rand() * 6);
      const taskTools = [...new Set(Array.from({ length: nTools }, () => tools[Math.floor(rand() * tools.length)]))].sort();
      tasks.push({ id: `env_${e}_rl-task_${k}`, env: e, tools: taskTools, checks, text: `synthetic task ${k} of environment ${e}` });
      simTasks.push(t);
    }
  }
  const heldout: SimParams['heldout'] = [];
  for (let s = 0; s < o.heldoutSuites; s++) {
    const suiteEnvs = [];
    const suiteTasks = [];
    for (let e = 0; e < o.heldoutEnvs; e++) {
      const prof = profile();
      suiteEnvs.push({ id: `heldout_${s}_env_${e}`, name: `HeldoutEnv${s}_${e}`, category: null });
      for (let k = 0; k < o.heldoutTasksPerEnv; k++) suiteTasks.push({ ...makeTask(rand, prof, familyBase), env: e });
    }
    heldout.push({ name: `suite-${String.fromCharCode(65 + s)}`, envs: suiteEnvs, tasks: suiteTasks });
  }

  // Similarities: S_abs = cosine of the structure vectors; S_full adds an environment term.
  const n = tasks.length;
  const vec = simTasks.map((t) => familyVector(t, o.families));
  const within: Neighbour[][] = [];
  const cross: Neighbour[][] = [];
  const fullCross: Neighbour[][] = [];
  const crossAll: Neighbour[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const w: Neighbour[] = [];
    let c = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const s = dot(vec[i], vec[j]);
      if (tasks[j].env === tasks[i].env) w.push([j, round6(0.35 + 0.6 * s)]);
      else crossAll[c++] = [j, round6(s)];
    }
    w.sort(byScore);
    within.push(w);
    const others = crossAll.slice(0, c).sort(byScore);
    cross.push(others.slice(0, o.mCross));
    fullCross.push(
      others
        .slice(0, o.pCross)
        .map(([j, s]) => [j, round6(0.6 * s)] as Neighbour)
        .sort(byScore),
    );
  }
  const sim: SimParams = {
    version: 1,
    families: FAMILY_NAMES.slice(0, o.families).concat(
      Array.from({ length: Math.max(0, o.families - FAMILY_NAMES.length) }, (_, k) => `family${k}`),
    ),
    gateTypes: GATE_TYPES,
    tasks: simTasks,
    heldout,
  };
  return { format: 'envsched-graph', version: 1, name: `synthetic-${o.envs}x${o.tasksPerEnv}`, envs, tasks, within, cross, fullCross, sim };
}
