// SPEC 4's neighbour sets: N_in(i) and N_cross(i), the first K_within / K_cross observed entries
// of each list at step t (the kernels' counterpart, kept incrementally:
// assembly/scheduler/neighbours.ts). The relation estimates over them are in ./predict.ts.
import type { Config, Graph, Neighbour } from '../engine/types.ts';
import { isObserved, type HistoryIndex } from './history.ts';

/** The relation neighbour sets of SPEC 4, which do not depend on h. */
export interface NeighbourSets {
  within: Neighbour[][];
  cross: Neighbour[][];
}

/** SPEC 4: the first `k` entries of a neighbour list whose task is observed, in list order. */
export function firstObserved(list: readonly Neighbour[], k: number, observed: (j: number) => boolean): Neighbour[] {
  const chosen: Neighbour[] = [];
  for (const entry of list) {
    if (chosen.length >= k) break;
    if (observed(entry[0])) chosen.push(entry);
  }
  return chosen;
}

/** SPEC 4: N_in(i) and N_cross(i), the first K_within / K_cross observed entries of each list. */
export function neighbourSets(graph: Graph, history: HistoryIndex, config: Config): NeighbourSets {
  const observed = (j: number) => isObserved(history, j);
  return {
    within: graph.within.map((list) => firstObserved(list, config.K_within, observed)),
    cross: graph.cross.map((list) => firstObserved(list, config.K_cross, observed)),
  };
}
