// `build-graph`: release files (+ optional topology, categories and simulator sidecar) -> Graph.
// SPEC 9 (views, S_full, S_abs), SPEC 1 (lists), SPEC 12 (file shape).
import { InputError } from '../engine/errors.ts';
import { isPlainObject } from '../engine/json-text.ts';
import type { SimParams, SimTask } from '../engine/sim-params.ts';
import type { Graph } from '../engine/types.ts';
import { DEFAULT_CONFIG } from '../engine/config.ts';
import { charNGrams, codeTokens, contextTokens, wordUniBigrams } from './features.ts';
import { readRecords, readSingleObject } from './records.ts';
import {
  expandVariants,
  orderRelease,
  parseEnvMetadata,
  parseScenarios,
  type Release,
  type SkippedScenario,
  type Variant,
} from './release.ts';
import { neighbourLists } from './similarity.ts';
import { fitTfidf, type SparseRows } from './tfidf.ts';
import { deriveTopology, describeAbstract, describeConcrete, parseTopologyFile, topologyTools, type TaskTopology } from './topology.ts';

export interface TextFile {
  text: string;
  /** The name used in error messages (the path as the user gave it). */
  source: string;
}

export interface BuildInput {
  envMetadata: TextFile;
  scenarios: TextFile;
  topology?: TextFile;
  sim?: TextFile;
  categories?: TextFile;
  name: string;
  /** Leave out scenarios without verifier functions (and list them) instead of refusing them. */
  skipUnverifiable?: boolean;
  /** One task per scenario and variant (ids `<task_id>-<variant>`). */
  variants?: readonly Variant[];
  mCross?: number;
  pCross?: number;
  /** Phase name and fraction done (0..1), for progress display. */
  onProgress?: (phase: string, fraction: number) => void;
}

export interface BuildResult {
  graph: Graph;
  /** Per task: the topology used (from the file or derived). */
  topologies: TaskTopology[];
  derivedTopologies: number;
  droppedEnvs: number;
  /** Features kept per view (6 views then the abstract one). */
  features: number[];
  /** Scenarios read from the file (before skipping and variants). */
  scenarios: number;
  skipped: SkippedScenario[];
  variants: Variant[] | null;
  /** Topology entries of `--topology` whose id is neither a task's nor its scenario's, in file order. */
  unknownTopologyIds: string[];
  categories: CategoryUse;
}

/** How `--categories` applied: environments with a category, and those that are their own. */
export interface CategoryUse {
  given: boolean;
  /** Distinct category names used by the pool's environments. */
  names: number;
  categorised: number;
  /** Environments without a category: each is its own (SPEC 12 `category: null`). */
  own: number;
  /** env_ids of the categories file that are not in the pool, in file order. */
  unknownEnvIds: string[];
}

/**
 * `--categories F`: an object `env_id -> category name or null`, or records `{env_id, category}`
 * (a list or JSON Lines).
 */
function readCategories(file: TextFile): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const recordsForm = (v: unknown) => isPlainObject(v) && typeof v.env_id === 'string';
  for (const { place, value, key } of readRecords(file.text, file.source, 'category records', 'env_id')) {
    let id: string;
    let category: unknown;
    if (key !== null && !recordsForm(value)) {
      id = key;
      category = value;
    } else {
      if (!recordsForm(value))
        throw new InputError(
          file.source,
          place,
          'must be a record {"env_id": ..., "category": ...} (or the file an object mapping env_id to a category name)',
        );
      const rec = value as Record<string, unknown>;
      id = rec.env_id as string;
      category = rec.category === undefined ? null : rec.category;
    }
    if (category !== null && typeof category !== 'string')
      throw new InputError(file.source, key ?? `${place}.category`, 'must be a category name or null');
    if (out.has(id)) throw new InputError(file.source, key ?? `${place}.env_id`, `duplicate environment id ${JSON.stringify(id)}`);
    out.set(id, category);
  }
  return out;
}

function useOfCategories(categories: ReadonlyMap<string, string | null>, release: Release, given: boolean): CategoryUse {
  const names = new Set<string>();
  let categorised = 0;
  for (const e of release.envs) {
    const c = categories.get(e.id);
    if (typeof c === 'string') {
      categorised++;
      names.add(c);
    }
  }
  const poolEnvIds = new Set(release.envs.map((e) => e.id));
  const unknownEnvIds = [...categories.keys()].filter((id) => !poolEnvIds.has(id));
  return { given, names: names.size, categorised, own: release.envs.length - categorised, unknownEnvIds };
}

/** Reads the simulator sidecar and puts its tasks in graph order; checks that checks add up. */
function readSim(file: TextFile, graph: Graph): SimParams {
  const root = readSingleObject(file.text, file.source, 'SimParams');
  const src = file.source;
  if (root.version !== 1) throw new InputError(src, 'version', 'must be 1');
  for (const key of ['families', 'gateTypes', 'tasks', 'heldout'] as const)
    if (!Array.isArray(root[key])) throw new InputError(src, key, 'must be a list');
  const sim = root as unknown as SimParams;
  const n = graph.tasks.length;
  let tasks: SimTask[];
  if (sim.taskIds !== undefined) {
    if (!Array.isArray(sim.taskIds) || sim.taskIds.length !== sim.tasks.length)
      throw new InputError(src, 'taskIds', 'must list one task id per entry of tasks');
    const byId = new Map<string, SimTask>();
    sim.taskIds.forEach((id, k) => byId.set(id, sim.tasks[k]));
    tasks = graph.tasks.map((t, i) => {
      const s = byId.get(t.id);
      if (!s) throw new InputError(src, 'taskIds', `has no entry for task ${JSON.stringify(t.id)} (graph task ${i})`);
      return s;
    });
  } else {
    if (sim.tasks.length !== n) throw new InputError(src, 'tasks', `has ${sim.tasks.length} entries, the pool has ${n} tasks`);
    tasks = sim.tasks;
  }
  tasks.forEach((t, i) => {
    const place = `tasks[${sim.taskIds ? sim.taskIds.indexOf(graph.tasks[i].id) : i}]`;
    if (!isPlainObject(t) || !Array.isArray(t.gates) || typeof t.initiallySatisfied !== 'number')
      throw new InputError(src, place, 'must have gates and initiallySatisfied');
    const sum = t.gates.reduce((a, g) => a + (isPlainObject(g) && typeof g.checks === 'number' ? g.checks : NaN), 0) + t.initiallySatisfied;
    if (sum !== graph.tasks[i].checks)
      throw new InputError(src, place, `checks add up to ${sum}, but task ${graph.tasks[i].id} has ${graph.tasks[i].checks}`);
  });
  return { version: 1, families: sim.families, gateTypes: sim.gateTypes, tasks, heldout: sim.heldout };
}

function viewDocs(release: Release, topologies: TaskTopology[]) {
  const t = release.tasks;
  return [
    () => t.map((x) => wordUniBigrams([x.text])),
    () => t.map((x) => charNGrams(x.text)),
    () => t.map((x) => wordUniBigrams(x.checks.map((c) => c.item))),
    () => t.map((x) => codeTokens(x.checks.map((c) => c.func))),
    () => t.map((x) => contextTokens(x.initConfig)),
    () => topologies.map((tp) => wordUniBigrams([describeConcrete(tp)])),
  ];
}

export function buildGraph(input: BuildInput): BuildResult {
  const progress = input.onProgress ?? (() => {});
  progress('reading', 0);
  const envs = parseEnvMetadata(input.envMetadata.text, input.envMetadata.source);
  const read = parseScenarios(input.scenarios.text, input.scenarios.source, envs, { skipUnverifiable: input.skipUnverifiable });
  const variants = input.variants && input.variants.length > 0 ? [...input.variants] : null;
  const rawTasks = variants ? expandVariants(read.tasks, variants, input.scenarios.source) : read.tasks;
  const release = orderRelease(envs, rawTasks);
  const given = input.topology ? parseTopologyFile(input.topology.text, input.topology.source) : new Map<string, TaskTopology>();
  let derived = 0;
  // A task's own entry first, then its scenario's (one answer serves every variant of a scenario).
  const topologies = release.tasks.map((t) => {
    const tp = given.get(t.id) ?? given.get(t.scenario);
    if (tp) return tp;
    derived++;
    return deriveTopology(t, release.envs[t.env]);
  });
  const known = new Set(release.tasks.flatMap((t) => [t.id, t.scenario]));
  const unknownTopologyIds = [...given.keys()].filter((id) => !known.has(id));
  const categories = input.categories ? readCategories(input.categories) : new Map<string, string | null>();
  const categoryUse = useOfCategories(categories, release, input.categories !== undefined);
  const graph: Graph = {
    format: 'envsched-graph',
    version: 1,
    name: input.name,
    envs: release.envs.map((e) => ({ id: e.id, name: e.name, category: categories.get(e.id) ?? null, tools: e.tools.map((t) => t.name) })),
    tasks: release.tasks.map((t, i) => ({
      id: t.id,
      env: t.env,
      tools: topologyTools(topologies[i]),
      checks: t.checks.length,
      text: t.text,
    })),
    within: [],
    cross: [],
    fullCross: [],
  };
  if (input.sim) graph.sim = readSim(input.sim, graph);

  const views: SparseRows[] = [];
  const makers = viewDocs(release, topologies);
  makers.forEach((make, a) => {
    progress(`TF-IDF view ${a + 1}/6`, a / 7);
    views.push(fitTfidf(make()));
  });
  progress('TF-IDF abstract view', 6 / 7);
  const abstract = fitTfidf(topologies.map((tp) => wordUniBigrams([describeAbstract(tp)])));
  const taskEnv = Int32Array.from(release.tasks.map((t) => t.env));
  const lists = neighbourLists({
    views,
    alpha: DEFAULT_CONFIG.alpha,
    abstract,
    taskEnv,
    mCross: input.mCross ?? DEFAULT_CONFIG.M_cross,
    pCross: input.pCross ?? DEFAULT_CONFIG.P_cross,
    onProgress: (done, total) => progress('similarities', done / total),
  });
  graph.within = lists.within;
  graph.cross = lists.cross;
  graph.fullCross = lists.fullCross;
  progress('done', 1);
  return {
    graph,
    topologies,
    derivedTopologies: derived,
    droppedEnvs: envs.length - release.envs.length,
    features: [...views.map((v) => v.nFeatures), abstract.nFeatures],
    scenarios: read.tasks.length + read.skipped.length,
    skipped: read.skipped,
    variants,
    unknownTopologyIds,
    categories: categoryUse,
  };
}
