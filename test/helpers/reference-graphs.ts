// Tiny hand-made graphs for the reference scheduler's tests (SPEC 1 list rules applied to
// similarity functions given in the test).
import type { Graph, Neighbour } from '../../src/engine/types.ts';
import { DEFAULT_CONFIG } from '../../src/engine/config.ts';
import type { Config } from '../../src/engine/types.ts';

export interface TinyGraphSpec {
  /** env(i) for every task. */
  envOf: number[];
  /** S_full(i,j), symmetric. Default: 0.5. */
  full?: (i: number, j: number) => number;
  /** S_abs(i,j), symmetric. Default: same as full. */
  abs?: (i: number, j: number) => number;
  /** Category per environment (default: null = own category). */
  categories?: (string | null)[];
  /** Keep only this many fullCross entries per task (SPEC 1 P_cross). Default: all. */
  pCross?: number;
}

function sortedList(i: number, others: number[], s: (i: number, j: number) => number): Neighbour[] {
  return others.map((j): Neighbour => [j, s(i, j)]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
}

/** Builds a Graph whose within / cross / fullCross lists follow SPEC 1 for the given similarities. */
export function tinyGraph(spec: TinyGraphSpec): Graph {
  const full = spec.full ?? (() => 0.5);
  const abs = spec.abs ?? full;
  const nEnvs = Math.max(...spec.envOf) + 1;
  const n = spec.envOf.length;
  const all = [...Array(n).keys()];
  return {
    format: 'envsched-graph',
    version: 1,
    name: 'tiny',
    envs: [...Array(nEnvs).keys()].map((e) => ({ id: `env_${e}`, name: `Env${e}`, category: spec.categories?.[e] ?? null, tools: [] })),
    tasks: spec.envOf.map((env, i) => ({ id: `t${i}`, env, tools: [], checks: 1, text: `task ${i}` })),
    within: all.map((i) =>
      sortedList(
        i,
        all.filter((j) => j !== i && spec.envOf[j] === spec.envOf[i]),
        full,
      ),
    ),
    cross: all.map((i) =>
      sortedList(
        i,
        all.filter((j) => spec.envOf[j] !== spec.envOf[i]),
        abs,
      ),
    ),
    fullCross: all.map((i) =>
      sortedList(
        i,
        all.filter((j) => spec.envOf[j] !== spec.envOf[i]),
        full,
      ).slice(0, spec.pCross ?? n),
    ),
  };
}

/** DEFAULT_CONFIG with overrides. */
export function configWith(overrides: Partial<Config>): Config {
  return { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'], ...overrides };
}
