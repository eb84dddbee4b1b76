// The summary `build-graph` ends with (stderr, and JSON with --report F): what went in, what was
// left out and why, where each task's topology came from, feature counts per view, and the
// neighbour quality measures of `graph-report`. Deterministic: no timings, no paths.
import type { SimParams } from '../engine/sim-params.ts';
import { isPlainObject } from '../engine/json-text.ts';
import type { BuildResult, CategoryUse } from './build.ts';
import { qualityReport } from './report.ts';
import type { SkippedScenario } from './release.ts';

/** The seven TF-IDF encoders, in SPEC 9 table order then the abstract one. */
export const VIEW_NAMES = [
  'instruction words',
  'instruction characters',
  'check texts',
  'check code',
  'initial context',
  'operation description',
  'abstract description',
] as const;

export interface BuildReport {
  name: string;
  environments: number;
  tasks: number;
  scenariosRead: number;
  /** Environments of the metadata left out because no scenario uses them. */
  environmentsWithoutScenarios: number;
  skipped: { count: number; reason: string; scenarios: SkippedScenario[] };
  variants: string[] | null;
  categories: CategoryUse;
  topology: { imported: number; derived: number; unknownIds: string[] };
  features: { view: string; features: number }[];
  quality: {
    k: number;
    jaccardNeighbours: number;
    jaccardRandom: number;
    jaccardRatio: number;
    corrWithin: number | null;
    corrCross: number | null;
  };
}

export function buildReport(result: BuildResult): BuildReport {
  const g = result.graph;
  const sim = isPlainObject(g.sim) ? (g.sim as unknown as SimParams) : null;
  const q = qualityReport(g, sim);
  return {
    name: g.name,
    environments: g.envs.length,
    tasks: g.tasks.length,
    scenariosRead: result.scenarios,
    environmentsWithoutScenarios: result.droppedEnvs,
    skipped: { count: result.skipped.length, reason: 'no verifier functions (--skip-unverifiable)', scenarios: result.skipped },
    variants: result.variants,
    categories: result.categories,
    topology: {
      imported: g.tasks.length - result.derivedTopologies,
      derived: result.derivedTopologies,
      unknownIds: result.unknownTopologyIds,
    },
    features: VIEW_NAMES.map((view, k) => ({ view, features: result.features[k] })),
    quality: {
      k: q.k,
      jaccardNeighbours: q.jaccardNeighbours,
      jaccardRandom: q.jaccardRandom,
      jaccardRatio: q.jaccardRatio,
      corrWithin: q.corrWithin,
      corrCross: q.corrCross,
    },
  };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** At most `max` ids, then how many more. */
function someIds(ids: readonly string[], max = 10): string {
  const shown = ids.slice(0, max).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more` : shown;
}

/** The report as text: one line per item, `warning:` lines for what the user may not expect. */
export function formatBuildReport(r: BuildReport): string {
  const lines = [`# build-graph report: ${r.name}`];
  lines.push(`pool: ${plural(r.environments, 'environment')}, ${plural(r.tasks, 'task')} (${plural(r.scenariosRead, 'scenario')} read)`);
  const out: string[] = [];
  if (r.skipped.count > 0)
    out.push(
      `${plural(r.skipped.count, 'scenario')} without verifier functions (--skip-unverifiable): ${someIds(r.skipped.scenarios.map((s) => s.id))}`,
    );
  out.push(`${plural(r.environmentsWithoutScenarios, 'environment')} without scenarios`);
  lines.push(`left out: ${out.join('; ')}`);
  lines.push(
    r.variants
      ? `variants: ${r.variants.join(', ')} (one task per scenario and variant, ids <task_id>-<variant>, same environment)`
      : 'variants: none (one task per scenario)',
  );
  const c = r.categories;
  if (!c.given)
    lines.push(`categories: none given (--categories): each of the ${plural(r.environments, 'environment')} is its own category`);
  else if (c.own === 0) lines.push(`categories: ${plural(c.categorised, 'environment')} in ${plural(c.names, 'category', 'categories')}`);
  else
    lines.push(
      `categories: ${plural(c.categorised, 'environment')} in ${plural(c.names, 'category', 'categories')}; ${plural(c.own, 'environment')} without one, each its own category`,
    );
  lines.push(`topology: ${r.topology.imported} imported (--topology), ${r.topology.derived} derived from checks and instruction`);
  lines.push(`features per view: ${r.features.map((f) => `${f.view} ${f.features}`).join('; ')}`);
  const q = r.quality;
  const corr = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
  lines.push(
    `neighbour quality: tool Jaccard ${q.jaccardNeighbours.toFixed(3)} with the ${q.k} nearest within-environment neighbours vs ${q.jaccardRandom.toFixed(3)} with random same-environment tasks (${q.jaccardRatio.toFixed(2)}x); ` +
      (q.corrWithin === null && q.corrCross === null
        ? 'difficulty correlation n/a (no sim parameters)'
        : `difficulty correlation within ${corr(q.corrWithin)}, cross ${corr(q.corrCross)}`),
  );
  if (r.topology.unknownIds.length > 0)
    lines.push(
      `warning: the topology file has ${plural(r.topology.unknownIds.length, 'entry', 'entries')} for task ids not in the pool (ignored): ${someIds(r.topology.unknownIds)}`,
    );
  if (c.unknownEnvIds.length > 0)
    lines.push(
      `warning: the categories file names ${plural(c.unknownEnvIds.length, 'environment')} not in the pool (ignored): ${someIds(c.unknownEnvIds)}`,
    );
  return `${lines.join('\n')}\n`;
}
