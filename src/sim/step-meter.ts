// The one place a simulated step is measured (docs/simulator.md, "Metrics per step"): realised
// variances and rewards of the kept groups, coverage (environments, (environment, tool) pairs,
// operation families), the hit rate against the exact truth and the rank correlation of the
// scheduler's prediction; and the run's totals the summary is made of. The pool-wide ranks run in
// the simulator's WASM instance (assembly/sim/meter.ts); the TypeScript of metrics.ts is their
// oracle and takes the inputs the kernel declines.
import type { LoadedGraph, Phase } from '../engine/types.ts';
import { averageRanks, DistinctCounter, groupMeanVariance, mean, median, pearsonOfRanks, ranksAndQuantile } from './metrics.ts';
import type { WasmHeap } from './wasm.ts';

/** What the meter measures of one step (the run adds held-out scores, removals and diagnostics). */
export interface StepMeasure {
  meanVariance: number;
  medianVariance: number;
  meanReward: number;
  medianReward: number;
  envs: number;
  tools: number;
  families: number;
  exploitationPicks: number;
  exploitationHits: number;
  rankCorrelation: number | null;
}

/**
 * Per-task lists of ids in one flat array: task i's are ids[offsets[i] .. offsets[i + 1]). The
 * meter reads 64 tasks' lists a step, and as 2,550 small typed arrays spread over the JS heap
 * each read cost a cache miss or two (most of measure()'s time in a run).
 */
interface IdLists {
  offsets: Int32Array;
  ids: Int32Array;
}

function flatten(lists: readonly ArrayLike<number>[]): IdLists {
  const offsets = new Int32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) offsets[i + 1] = offsets[i] + lists[i].length;
  const ids = new Int32Array(offsets[lists.length]);
  for (let i = 0; i < lists.length; i++) ids.set(lists[i], offsets[i]);
  return { offsets, ids };
}

/** Per task, ids of its distinct (environment, tool) pairs, and how many pairs the pool has. */
interface ToolPairs {
  lists: IdLists;
  count: number;
}

/** Computed once per loaded graph (a run starts in milliseconds: the slider-to-chart latency). */
const toolPairsOf = new WeakMap<LoadedGraph, ToolPairs>();
/** The simulator's per-task families (one array per parameter set), flattened once. */
const familyListsOf = new WeakMap<readonly Int32Array[], IdLists>();

function toolPairs(loaded: LoadedGraph): ToolPairs {
  let pairs = toolPairsOf.get(loaded);
  if (pairs) return pairs;
  const pairIndex = new Map<string, number>();
  const ids = loaded.meta.tasks.map((t) =>
    Int32Array.from(new Set(t.tools), (name) => {
      const key = `${t.env}\u0000${name}`;
      let id = pairIndex.get(key);
      if (id === undefined) pairIndex.set(key, (id = pairIndex.size));
      return id;
    }),
  );
  toolPairsOf.set(loaded, (pairs = { lists: flatten(ids), count: pairIndex.size }));
  return pairs;
}

export class StepMeter {
  private readonly taskEnv: Int32Array;
  /** Per task, ids of its distinct (environment, tool) pairs: tools of different environments are different tools. */
  private readonly toolIds: IdLists;
  /** Per task, its distinct operation families. */
  private readonly familyIds: IdLists;
  private readonly envCounter: DistinctCounter;
  private readonly toolCounter: DistinctCounter;
  private readonly familyCounter: DistinctCounter;
  private readonly trueRanks: Float64Array;
  private readonly predictedRanks: Float64Array;
  /** The kernel's buffers in the simulator's memory: inputs, ranks, results. */
  private readonly ptr: { truth: number; predicted: number; trueRanks: number; predictedRanks: number; out: number };
  readonly allVariance: number[] = [];
  readonly allReward: number[] = [];
  picksTotal = 0;
  hitsTotal = 0;

  constructor(
    loaded: LoadedGraph,
    taskFamilies: readonly Int32Array[],
    nFamilies: number,
    private readonly heap: WasmHeap,
  ) {
    this.taskEnv = loaded.packed.taskEnv;
    const pairs = toolPairs(loaded);
    this.toolIds = pairs.lists;
    let families = familyListsOf.get(taskFamilies);
    if (!families) familyListsOf.set(taskFamilies, (families = flatten(taskFamilies)));
    this.familyIds = families;
    const n = loaded.meta.tasks.length;
    this.envCounter = new DistinctCounter(loaded.packed.nEnvs);
    this.toolCounter = new DistinctCounter(Math.max(1, pairs.count));
    this.familyCounter = new DistinctCounter(Math.max(1, nFamilies));
    this.trueRanks = new Float64Array(n);
    this.predictedRanks = new Float64Array(n);
    this.ptr = {
      truth: heap.allocF64(n),
      predicted: heap.allocF64(n),
      trueRanks: heap.allocF64(n),
      predictedRanks: heap.allocF64(n),
      out: heap.allocF64(3),
    };
    heap.wasm.meter_reserve(n);
  }

  /**
   * The true-variance threshold of a hit (the pool's Q(0.75), SPEC 5 convention) and the rank
   * correlation of `predicted` with the truth, from one sort of the truth. Call before the
   * rollouts: the truth is the policy's before the step.
   */
  judge(truthVariance: Float64Array, predicted: ArrayLike<number> | null): { threshold: number; rankCorrelation: number | null } {
    const n = truthVariance.length;
    if (n === this.trueRanks.length && (predicted === null || predicted.length === n)) {
      const { heap, ptr } = this;
      heap.f64(ptr.truth, n).set(truthVariance);
      if (predicted) heap.f64(ptr.predicted, n).set(predicted);
      const status = heap.wasm.meter_judge(ptr.truth, predicted ? ptr.predicted : 0, n, 0.75, ptr.trueRanks, ptr.predictedRanks, ptr.out);
      if (status === 0) {
        const out = heap.f64(ptr.out, 3);
        return { threshold: out[0], rankCorrelation: predicted && out[2] === 0 ? out[1] : null };
      }
    }
    return this.judgeInTypeScript(truthVariance, predicted);
  }

  /** judge() by metrics.ts: the kernel's oracle, and the path for what it declines (NaN, -0). */
  judgeInTypeScript(
    truthVariance: Float64Array,
    predicted: ArrayLike<number> | null,
  ): { threshold: number; rankCorrelation: number | null } {
    const stats = ranksAndQuantile(truthVariance, 0.75, this.trueRanks);
    return {
      threshold: stats.quantile,
      rankCorrelation: predicted ? pearsonOfRanks(averageRanks(predicted, this.predictedRanks), stats.ranks) : null,
    };
  }

  /**
   * Measures the n kept groups of `batch` (rewards[b*K + k]). Picks counted for the hit rate:
   * the exploitation picks (EnvSched family) or every pick (phases null: baselines).
   */
  measure(
    batch: Int32Array,
    rewards: Float64Array,
    K: number,
    phases: readonly Phase[] | null,
    trueVariance: Float64Array,
    judged: { threshold: number; rankCorrelation: number | null },
  ): StepMeasure {
    const n = batch.length;
    const variances = new Float64Array(n);
    const groupRewards = new Float64Array(n);
    this.envCounter.begin();
    this.toolCounter.begin();
    this.familyCounter.begin();
    let envs = 0;
    let tools = 0;
    let families = 0;
    let picks = 0;
    let hits = 0;
    const { toolIds, familyIds } = this;
    for (let b = 0; b < n; b++) {
      const i = batch[b];
      const g = groupMeanVariance(rewards, b * K, K);
      variances[b] = g.v;
      groupRewards[b] = g.m;
      this.allVariance.push(g.v);
      this.allReward.push(g.m);
      if (this.envCounter.add(this.taskEnv[i])) envs++;
      for (let k = toolIds.offsets[i], end = toolIds.offsets[i + 1]; k < end; k++) if (this.toolCounter.add(toolIds.ids[k])) tools++;
      for (let k = familyIds.offsets[i], end = familyIds.offsets[i + 1]; k < end; k++)
        if (this.familyCounter.add(familyIds.ids[k])) families++;
      const phase = phases ? phases[b] : null;
      if (phase === null || phase === 'exploitation') {
        picks++;
        if (trueVariance[i] >= judged.threshold) hits++;
      }
    }
    this.picksTotal += picks;
    this.hitsTotal += hits;
    return {
      meanVariance: mean(variances),
      medianVariance: median(variances),
      meanReward: mean(groupRewards),
      medianReward: median(groupRewards),
      envs,
      tools,
      families,
      exploitationPicks: picks,
      exploitationHits: hits,
      rankCorrelation: judged.rankCorrelation,
    };
  }
}
