// Graph quality report: does the graph put similar tasks together in the sense that
// matters to propagation? Tool overlap of within-environment neighbours vs random same-environment
// pairs, and the correlation of hidden difficulty between a task and its neighbours.
import type { SimParams } from '../engine/sim-params.ts';
import type { Graph } from '../engine/types.ts';
import { Pcg32 } from '../pool/rng.ts';

export interface QualityReport {
  tasks: number;
  envs: number;
  k: number;
  jaccardNeighbours: number;
  jaccardRandom: number;
  jaccardRatio: number;
  /** Pearson correlation of task difficulty with the mean difficulty of its neighbours. */
  corrWithin: number | null;
  corrCross: number | null;
  examples: string[];
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  let inter = 0;
  for (const x of sa) if (sb.has(x)) inter++;
  const union = sa.size + sb.size - inter;
  return union === 0 ? 0 : inter / union;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** A task's hidden difficulty: the mean difficulty of its gates, weighted by the checks behind them. */
export function taskDifficulty(sim: SimParams, i: number): number {
  const t = sim.tasks[i];
  let w = 0;
  let s = 0;
  for (const g of t.gates) {
    s += g.difficulty * g.checks;
    w += g.checks;
  }
  return w > 0 ? s / w : 0;
}

function shorten(text: string, n = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > n ? `${flat.slice(0, n - 1)}…` : flat;
}

export function qualityReport(graph: Graph, sim: SimParams | null, k = 6, seed = 1): QualityReport {
  const n = graph.tasks.length;
  const byEnv = new Map<number, number[]>();
  graph.tasks.forEach((t, i) => byEnv.set(t.env, [...(byEnv.get(t.env) ?? []), i]));
  const rng = new Pcg32(seed, 7);
  let jn = 0;
  let jr = 0;
  let pairsN = 0;
  let pairsR = 0;
  for (let i = 0; i < n; i++) {
    const near = graph.within[i].slice(0, k);
    for (const [j] of near) {
      jn += jaccard(graph.tasks[i].tools, graph.tasks[j].tools);
      pairsN++;
    }
    const mates = byEnv.get(graph.tasks[i].env)!.filter((j) => j !== i);
    for (let r = 0; r < near.length; r++) {
      const j = mates[rng.below(mates.length)];
      jr += jaccard(graph.tasks[i].tools, graph.tasks[j].tools);
      pairsR++;
    }
  }
  const jaccardNeighbours = pairsN ? jn / pairsN : 0;
  const jaccardRandom = pairsR ? jr / pairsR : 0;
  let corrWithin: number | null = null;
  let corrCross: number | null = null;
  const examples: string[] = [];
  const diff = sim ? graph.tasks.map((_, i) => taskDifficulty(sim, i)) : null;
  if (diff && sim) {
    const corr = (lists: Graph['within'], m: number) => {
      const x: number[] = [];
      const y: number[] = [];
      for (let i = 0; i < n; i++) {
        const near = lists[i].slice(0, m);
        if (near.length === 0) continue;
        x.push(diff[i]);
        y.push(near.reduce((a, [j]) => a + diff[j], 0) / near.length);
      }
      return x.length > 2 ? pearson(x, y) : null;
    };
    corrWithin = corr(graph.within, k);
    corrCross = corr(graph.cross, 12);
    const chain = (i: number) => sim.tasks[i].gates.map((g) => `${sim.families[g.family]}/${sim.gateTypes[g.type]}`).join(' → ');
    // Two examples: a task of the first environment with its within neighbours (what they share:
    // tools), and one with its cross neighbours (what they share: the abstract gate chain).
    const pick = (offset: number) => {
      let best = 0;
      let bestSim = -1;
      for (let i = offset; i < n; i += 97) {
        const s = graph.within[i][0]?.[1] ?? 0;
        if (s > bestSim && graph.cross[i].length > 0) {
          best = i;
          bestSim = s;
        }
      }
      return best;
    };
    const a = pick(0);
    const lines = [
      `**Task ${graph.tasks[a].id}** (${graph.envs[graph.tasks[a].env].name}; difficulty ${diff[a].toFixed(2)}; chain ${chain(a)}): “${shorten(graph.tasks[a].text)}”`,
      '',
      'Nearest within-environment neighbours:',
    ];
    for (const [j, s] of graph.within[a].slice(0, 3)) {
      const shared = graph.tasks[a].tools.filter((t) => graph.tasks[j].tools.includes(t));
      lines.push(
        `- ${graph.tasks[j].id} (S_full ${s}; difficulty ${diff[j].toFixed(2)}): shares tools ${shared.length ? shared.join(', ') : '(none)'}; “${shorten(graph.tasks[j].text, 110)}”`,
      );
    }
    examples.push(lines.join('\n'));
    const b = pick(41);
    const lines2 = [
      `**Task ${graph.tasks[b].id}** (${graph.envs[graph.tasks[b].env].name}; difficulty ${diff[b].toFixed(2)}; chain ${chain(b)}): “${shorten(graph.tasks[b].text)}”`,
      '',
      'Nearest cross-environment neighbours (S_abs):',
    ];
    for (const [j, s] of graph.cross[b].slice(0, 3)) {
      lines2.push(
        `- ${graph.tasks[j].id} in ${graph.envs[graph.tasks[j].env].name} (S_abs ${s}; difficulty ${diff[j].toFixed(2)}; chain ${chain(j)}): “${shorten(graph.tasks[j].text, 110)}”`,
      );
    }
    examples.push(lines2.join('\n'));
  }
  return {
    tasks: n,
    envs: graph.envs.length,
    k,
    jaccardNeighbours,
    jaccardRandom,
    jaccardRatio: jaccardRandom > 0 ? jaccardNeighbours / jaccardRandom : 0,
    corrWithin,
    corrCross,
    examples,
  };
}

export function formatReport(r: QualityReport, name: string): string {
  const f = (x: number | null) => (x === null ? 'n/a (no sim parameters)' : x.toFixed(3));
  return [
    `# Graph quality: ${name} (${r.envs} environments, ${r.tasks} tasks)`,
    '',
    '| measure | value | target |',
    '| --- | --- | --- |',
    `| tool Jaccard, task vs its ${r.k} nearest within-environment neighbours | ${r.jaccardNeighbours.toFixed(3)} | |`,
    `| tool Jaccard, task vs random same-environment tasks | ${r.jaccardRandom.toFixed(3)} | |`,
    `| ratio | ${r.jaccardRatio.toFixed(2)}x | >= 1.5x |`,
    `| corr(difficulty, mean difficulty of ${r.k} within neighbours) | ${f(r.corrWithin)} | >= 0.3 |`,
    `| corr(difficulty, mean difficulty of 12 cross neighbours) | ${f(r.corrCross)} | >= 0.3 |`,
    '',
    ...r.examples.flatMap((e, k) => [`## Example ${k + 1}`, '', e, '']),
  ].join('\n');
}
