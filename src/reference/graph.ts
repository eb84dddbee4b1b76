// Reading the static graph the way SPEC 1 and SPEC 12 describe it (the kernels' counterpart:
// assembly/scheduler/graph.ts).
import type { Graph, Neighbour } from '../engine/types.ts';

/**
 * SPEC 1: S_full(i,j) for the batch penalty: the value in within(i) when the environments match;
 * otherwise the value in fullCross(i), failing that in fullCross(j); otherwise 0.
 */
export function fullSimilarity(graph: Graph, i: number, j: number): number {
  const sameEnv = graph.tasks[i].env === graph.tasks[j].env;
  if (sameEnv) return lookup(graph.within[i], j) ?? 0;
  return lookup(graph.fullCross[i], j) ?? lookup(graph.fullCross[j], i) ?? 0;
}

function lookup(list: readonly Neighbour[], j: number): number | undefined {
  for (const [index, similarity] of list) if (index === j) return similarity;
  return undefined;
}

/**
 * SPEC 12: categories numbered in order of first appearance over environments 0..E-1; a `null`
 * category makes the environment its own category. Returns the category of every environment.
 */
export function environmentCategories(graph: Graph): { envCategory: number[]; nCategories: number } {
  const named = new Map<string, number>();
  const envCategory: number[] = [];
  let next = 0;
  for (const env of graph.envs) {
    if (env.category === null) {
      envCategory.push(next++);
      continue;
    }
    let c = named.get(env.category);
    if (c === undefined) {
      c = next++;
      named.set(env.category, c);
    }
    envCategory.push(c);
  }
  return { envCategory, nCategories: next };
}

/** The task indices of every environment, ascending. */
export function tasksByEnvironment(graph: Graph): number[][] {
  const members: number[][] = graph.envs.map(() => []);
  graph.tasks.forEach((task, i) => members[task.env].push(i));
  return members;
}
