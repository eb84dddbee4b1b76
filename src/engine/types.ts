// Shared data types of the scheduler (SPEC sections 0, 2, 12). Everything that crosses a layer
// boundary (engine <-> reference <-> CLI <-> worker) is one of these plain, cloneable shapes.

/** One `[task index, similarity]` pair of a neighbour list (SPEC 1, 12). */
export type Neighbour = [index: number, similarity: number];

export interface GraphEnv {
  id: string;
  name: string;
  /** `null`: the environment is its own category (SPEC 12). */
  category: string | null;
  tools: string[];
}

export interface GraphTask {
  id: string;
  /** Index into `Graph.envs`. */
  env: number;
  tools: string[];
  checks: number;
  text: string;
}

/** A validated graph file (SPEC 12), in the readable form of the JSON interchange format. */
export interface Graph {
  format: 'envsched-graph';
  version: 1;
  name: string;
  envs: GraphEnv[];
  tasks: GraphTask[];
  /** Per task: every other task of its environment, by S_full descending then index ascending (SPEC 1). */
  within: Neighbour[][];
  /** Per task: top M_cross other-environment tasks by S_abs (SPEC 1). */
  cross: Neighbour[][];
  /** Per task: top P_cross other-environment tasks by S_full (SPEC 1). */
  fullCross: Neighbour[][];
  /** The simulator's hidden parameters (SPEC 10); opaque to the scheduler. */
  sim?: unknown;
}

/** Everything of a graph but its neighbour lists: names, ids, tools, texts, hidden parameters. */
export type GraphMeta = Omit<Graph, 'within' | 'cross' | 'fullCross'>;

/**
 * The graph as flat typed arrays: what the WASM kernels and the binary format hold.
 * Neighbour lists are CSR: the list of task i is `index[offsets[i] .. offsets[i+1])`.
 */
export interface CsrList {
  offsets: Int32Array; // length N + 1
  index: Int32Array;
  sim: Float64Array;
}

export interface PackedGraph {
  nTasks: number;
  nEnvs: number;
  /** Number of distinct categories after SPEC 12 numbering (first appearance over envs 0..E-1). */
  nCategories: number;
  taskEnv: Int32Array; // length N
  envCategory: Int32Array; // length E
  within: CsrList;
  cross: CsrList;
  fullCross: CsrList;
}

/** A validated graph in the form the engine uses: metadata plus packed lists (the binary format's content). */
export interface LoadedGraph {
  meta: GraphMeta;
  packed: PackedGraph;
}

/** One rollout group (SPEC 2, 12), with the task id resolved to its index in graph order. */
export interface Observation {
  step: number;
  task: number;
  rewards: number[];
  /** One per rollout; absent means no rollout was flagged. */
  flags?: boolean[];
}

export const SCHEDULERS = [
  'envsched',
  'within-only',
  'cross-only',
  'coverage-only',
  'exploitation-only',
  'random',
  'dps',
  'mopps',
  'dapo',
] as const;
export type SchedulerName = (typeof SCHEDULERS)[number];

/** The schedulers that `score` defines (SPEC 12): EnvSched and its four ablations. */
export const SCORABLE_SCHEDULERS = ['envsched', 'within-only', 'cross-only', 'coverage-only', 'exploitation-only'] as const;
export type ScorableScheduler = (typeof SCORABLE_SCHEDULERS)[number];

/** A configuration (SPEC 11 names, SPEC 12 keys). Every field is filled: missing keys take defaults. */
export interface Config {
  B: number;
  K: number;
  T: number;
  rho: number;
  K_within: number;
  K_cross: number;
  w_in: number;
  w_cross: number;
  lambda_g: number;
  lambda_s: number;
  h_long: number;
  h_short: number;
  eta_decline: number;
  c0: number;
  lambda_sim: number;
  C1: number;
  C3: number;
  C_task: number;
  alpha: [number, number, number, number, number, number];
  M_cross: number;
  P_cross: number;
  lambda_ridge: number;
  kappa: number;
  scheduler: SchedulerName;
  seed: number;
  dataset: string;
}

export type Phase = 'cold-start' | 'coverage' | 'exploitation' | 'random';
export type CapRule = 'C_task' | 'C3' | 'C1';

export interface StatTriple {
  v: number;
  m: number;
  d: number;
}

export interface HalfLifeScores extends StatTriple {
  u: number;
}

/** One task's row of the scores object (SPEC 12). Predictions are absent at step 0. */
export interface TaskScores {
  id: string;
  long?: HalfLifeScores;
  short?: HalfLifeScores;
  u?: number;
  q?: number;
  progressExcluded: boolean;
  removed: boolean;
}

/** The scores object (SPEC 12): output of scoring a history for step `t`. */
export interface Scores {
  step: number;
  /** Empty object at step 0. */
  reference: { long?: StatTriple; short?: StatTriple };
  tasks: TaskScores[];
  batch: { id: string; phase: Phase }[];
  relaxed: CapRule[];
}
