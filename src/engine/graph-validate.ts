// Validation of a graph's content (SPEC 1, 12), shared by the JSON and the binary readers:
// both produce a GraphMeta plus packed lists, and this module checks them once.
import { InputError } from './errors.ts';
import type { CsrList, GraphMeta, PackedGraph } from './types.ts';

/** Numbers categories in order of first appearance over environments 0..E-1; `null` is its own (SPEC 12). */
export function numberCategories(envCategories: readonly (string | null)[]): { envCategory: Int32Array; nCategories: number } {
  const envCategory = new Int32Array(envCategories.length);
  const seen = new Map<string, number>();
  let next = 0;
  envCategories.forEach((category, e) => {
    if (category === null) {
      envCategory[e] = next++;
      return;
    }
    let id = seen.get(category);
    if (id === undefined) {
      id = next++;
      seen.set(category, id);
    }
    envCategory[e] = id;
  });
  return { envCategory, nCategories: next };
}

type ListName = 'within' | 'cross' | 'fullCross';

/**
 * Checks one CSR list against SPEC 1: indices in range and not the task itself; environments equal
 * (within) or different (cross, fullCross); finite similarities; sorted by similarity descending,
 * then index ascending, with no repeated neighbour; `within` lists every other task of the env.
 */
export function validateList(name: ListName, list: CsrList, taskEnv: Int32Array, envSize: Int32Array, source: string): void {
  const n = taskEnv.length;
  const { offsets, index, sim } = list;
  if (offsets.length !== n + 1) throw new InputError(source, name, `has ${offsets.length - 1} lists, expected one per task (${n})`);
  if (offsets[0] !== 0) throw new InputError(source, `${name}`, 'list offsets must start at 0');
  // SPEC 1: a list names each neighbour once. Sorting only puts equal pairs side by side, so a
  // repeat with a different similarity needs its own check: listedBy[j] = 1 + the last list naming j.
  const listedBy = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const start = offsets[i];
    const end = offsets[i + 1];
    if (end < start || end > index.length) throw new InputError(source, `${name}[${i}]`, 'list bounds are out of range');
    for (let k = start; k < end; k++) {
      const place = `${name}[${i}][${k - start}]`;
      const j = index[k];
      const s = sim[k];
      if (!(j >= 0 && j < n)) throw new InputError(source, place, `neighbour index ${j} is out of range [0, ${n - 1}]`);
      if (j === i) throw new InputError(source, place, 'a task cannot be its own neighbour');
      if (listedBy[j] === i + 1) throw new InputError(source, place, `neighbour ${j} is listed twice`);
      listedBy[j] = i + 1;
      if (!Number.isFinite(s)) throw new InputError(source, place, `similarity must be a finite number, got ${s}`);
      const sameEnv = taskEnv[j] === taskEnv[i];
      if (name === 'within' && !sameEnv)
        throw new InputError(source, place, `task ${j} is in another environment (within lists hold same-environment tasks)`);
      if (name !== 'within' && sameEnv)
        throw new InputError(source, place, `task ${j} is in the same environment (${name} lists hold other-environment tasks)`);
      if (k > start) {
        const prevS = sim[k - 1];
        const prevJ = index[k - 1];
        if (s > prevS || (s === prevS && j <= prevJ)) {
          throw new InputError(
            source,
            place,
            j === prevJ ? `neighbour ${j} is listed twice` : 'list is not sorted by similarity descending, then index ascending (SPEC 1)',
          );
        }
      }
    }
    if (name === 'within' && end - start !== envSize[taskEnv[i]] - 1) {
      throw new InputError(
        source,
        `${name}[${i}]`,
        `lists ${end - start} tasks, expected every other task of its environment (${envSize[taskEnv[i]] - 1})`,
      );
    }
  }
  if (offsets[n] !== index.length || index.length !== sim.length) throw new InputError(source, name, 'list lengths do not add up');
}

/** Checks metadata (ids, environments, tools) and every list; builds taskEnv / categories. */
export function validateMeta(meta: GraphMeta, source: string): { taskEnv: Int32Array; envSize: Int32Array } {
  const nEnvs = meta.envs.length;
  const n = meta.tasks.length;
  if (n === 0) throw new InputError(source, 'tasks', 'the pool has no tasks');
  const envIds = new Set<string>();
  meta.envs.forEach((env, e) => {
    if (envIds.has(env.id)) throw new InputError(source, `envs[${e}].id`, `duplicate environment id ${JSON.stringify(env.id)}`);
    envIds.add(env.id);
  });
  const taskIds = new Set<string>();
  const taskEnv = new Int32Array(n);
  const envSize = new Int32Array(nEnvs);
  meta.tasks.forEach((task, i) => {
    if (taskIds.has(task.id)) throw new InputError(source, `tasks[${i}].id`, `duplicate task id ${JSON.stringify(task.id)}`);
    taskIds.add(task.id);
    if (!(Number.isInteger(task.env) && task.env >= 0 && task.env < nEnvs)) {
      throw new InputError(source, `tasks[${i}].env`, `environment index ${task.env} is out of range [0, ${nEnvs - 1}]`);
    }
    taskEnv[i] = task.env;
    envSize[task.env]++;
  });
  return { taskEnv, envSize };
}

export function validatePacked(meta: GraphMeta, lists: Record<ListName, CsrList>, source: string): PackedGraph {
  const { taskEnv, envSize } = validateMeta(meta, source);
  for (const name of ['within', 'cross', 'fullCross'] as const) validateList(name, lists[name], taskEnv, envSize, source);
  const { envCategory, nCategories } = numberCategories(meta.envs.map((e) => e.category));
  return {
    nTasks: meta.tasks.length,
    nEnvs: meta.envs.length,
    nCategories,
    taskEnv,
    envCategory,
    within: lists.within,
    cross: lists.cross,
    fullCross: lists.fullCross,
  };
}
