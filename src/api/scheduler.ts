// The library API (docs/serve.md, README "Library"): one scheduler over one graph that keeps its
// history incrementally and answers `next` for any step. It is the single "load graph, keep
// history, score" path: `envsched score`, `envsched serve` and the browser worker all use it.
// No node: imports (the worker runs it); src/api/node.ts adds file loading.
import { parseConfig } from '../engine/config.ts';
import { InputError } from '../engine/errors.ts';
import { checkStep, MAX_STEP, readObservation, showValue } from '../engine/groups.ts';
import { isPlainObject } from '../engine/json-text.ts';
import {
  SCORABLE_SCHEDULERS,
  type CapRule,
  type Config,
  type GraphMeta,
  type Observation,
  type Phase,
  type SchedulerName,
  type TaskScores,
} from '../engine/types.ts';
import { PHASES, type WasmScheduler } from '../engine/wasm/index.ts';
import { BaselineRunner, isBaseline } from './baselines.ts';
import { topByKey } from './top.ts';

/** One rollout group handed to `observe`. */
export interface GroupInput {
  task: string;
  /** K rewards in [0, 1]. */
  rewards: number[];
  /** One per rollout: the rollout's suspicious identifier was confirmed (SPEC 8). */
  flags?: boolean[];
  /** What the group cost (tokens, seconds, dollars: the caller's unit); summed into metrics only. */
  cost?: number;
}

/** One task of a batch (or of the ranked extras). */
export interface BatchPick {
  task: string;
  /** Index in graph order. */
  index: number;
  /** The task's environment id. */
  env: string;
  /** SPEC 6-7 phase; null for the baselines. */
  phase: Phase | null;
  /** SPEC 5 priority; null at the cold start and for the baselines. */
  q: number | null;
  /** Predicted within-group variance (long half-life; MoPPS: its posterior mu(1 - mu)); null when the scheduler has none. */
  predictedVariance: number | null;
}

/** Metrics with `/`-separated keys, ready for an experiment tracker. */
export type Metrics = Record<string, number>;

export interface NextResult {
  step: number;
  scheduler: SchedulerName;
  batch: BatchPick[];
  /** Ranked candidates beyond the batch, for oversampling (dynamic filtering). */
  extras: BatchPick[];
  relaxed: CapRule[];
  metrics: Metrics;
}

export interface ObserveResult {
  step: number;
  groups: number;
  /** The last observed step after this one (= step). */
  lastStep: number;
  metrics: Metrics;
}

/** One observed group of the history, with its task id. */
export interface HistoryEntry {
  step: number;
  task: string;
  rewards: number[];
  flags?: boolean[];
  cost?: number;
}

/** A validated observe request, ready to commit (see prepareObserve). */
export interface PreparedStep {
  step: number;
  observations: Observation[];
  costs: (number | undefined)[];
}

/** A task's row of `scores`: the SPEC 12 fields for the EnvSched family, the prediction for the baselines. */
export type TaskScoreRow = TaskScores | { id: string; predicted: number | null };

export interface ScoresResult {
  step: number;
  scheduler: SchedulerName;
  tasks: TaskScoreRow[];
}

export interface SchedulerState {
  graph: { name: string; tasks: number; envs: number };
  config: Config;
  lastStep: number;
  observedSteps: number;
  groups: number;
  /** FNV-1a of the committed history in canonical form: two schedulers with the same history have the same digest. */
  historyDigest: string;
}

/** Largest number of extras one `next` returns. */
export const MAX_EXTRAS = 100_000;

const GROUP_KEYS = new Set(['task', 'rewards', 'flags', 'cost']);

function fnv1aText(hash: number, text: string): number {
  let h = hash >>> 0;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export class Scheduler {
  readonly taskIds: readonly string[];
  private readonly taskIndex: Map<string, number>;
  private readonly envOf: string[];
  private current: Config;
  private readonly log: HistoryEntry[] = [];
  private readonly observations: Observation[] = [];
  private readonly steps: number[] = [];
  private digest = 0x811c9dc5;
  private lastObserve: Metrics = {};

  /** Use createScheduler (src/api/node.ts) or createSchedulerFromModule: they load the graph first. */
  constructor(
    private readonly wasm: WasmScheduler,
    private readonly baselines: BaselineRunner,
    readonly meta: GraphMeta,
    config: Config,
  ) {
    this.taskIds = meta.tasks.map((t) => t.id);
    this.taskIndex = new Map(this.taskIds.map((id, i) => [id, i]));
    this.envOf = meta.tasks.map((t) => meta.envs[t.env].id);
    this.current = config;
  }

  get config(): Config {
    return { ...this.current, alpha: [...this.current.alpha] as Config['alpha'] };
  }

  /** The last observed step (-1 before any). */
  get lastStep(): number {
    return this.steps.length > 0 ? this.steps[this.steps.length - 1] : -1;
  }

  /** Changes configuration keys (others keep their values); returns the new configuration. */
  setConfig(changes: unknown, source = 'config'): Config {
    if (!isPlainObject(changes)) throw new InputError(source, 'set', 'must be an object of configuration keys');
    this.current = servableConfig(parseConfig({ ...this.current, ...changes }, source), source);
    return this.config;
  }

  /** Checks an observe request without changing anything; `source` names the request in errors. */
  prepareObserve(step: unknown, groups: unknown, source = 'observe'): PreparedStep {
    const t = checkStep(step, source, 'step');
    if (t <= this.lastStep) {
      const why = this.steps.includes(t)
        ? `step ${t} is already observed`
        : `steps are observed in increasing order and step ${this.lastStep} is already observed`;
      throw new InputError(source, 'step', `${why} (a step is committed once, atomically)`);
    }
    if (!Array.isArray(groups) || groups.length === 0)
      throw new InputError(source, 'groups', 'must be a non-empty list of groups {"task", "rewards", "flags"?, "cost"?}');
    if (groups.length > this.taskIds.length)
      throw new InputError(
        source,
        'groups',
        `lists ${groups.length} groups but the graph has ${this.taskIds.length} tasks (a task is observed at most once per step)`,
      );
    const seen = new Map<number, number>();
    const observations: Observation[] = [];
    const costs: (number | undefined)[] = [];
    for (let g = 0; g < groups.length; g++) {
      const raw: unknown = groups[g];
      const at = (field: string) => `groups[${g}].${field}`;
      if (!isPlainObject(raw))
        throw new InputError(source, `groups[${g}]`, `must be an object {"task", "rewards", "flags"?, "cost"?}, got ${showValue(raw)}`);
      for (const key of Object.keys(raw))
        if (!GROUP_KEYS.has(key))
          throw new InputError(source, at(key), 'unknown field (a group has task, rewards and optional flags, cost)');
      const o = readObservation(t, raw, this.taskIndex, source, at);
      const first = seen.get(o.task);
      if (first !== undefined)
        throw new InputError(
          source,
          at('task'),
          `task ${this.taskIds[o.task]} is already in groups[${first}] (a task is observed at most once per step)`,
        );
      seen.set(o.task, g);
      let cost: number | undefined;
      if (raw.cost !== undefined) {
        if (typeof raw.cost !== 'number' || !Number.isFinite(raw.cost) || raw.cost < 0)
          throw new InputError(source, at('cost'), `must be a finite number >= 0, got ${showValue(raw.cost)}`);
        cost = raw.cost;
      }
      observations.push(o);
      costs.push(cost);
    }
    return { step: t, observations, costs };
  }

  /** Commits a prepared step (it must still be the next step: prepare and commit without an observe in between). */
  commit(prepared: PreparedStep): ObserveResult {
    const { step, observations, costs } = prepared;
    if (step <= this.lastStep) throw new Error(`commit: step ${step} is not after ${this.lastStep}`);
    const sorted = observations.map((o, k) => ({ o, cost: costs[k] })).sort((a, b) => a.o.task - b.o.task);
    this.wasm.appendStep(
      step,
      sorted.map((s) => s.o),
    );
    let rewardSum = 0;
    let rewardCount = 0;
    let varianceSum = 0;
    let flat = 0;
    let cost = 0;
    for (const { o, cost: c } of sorted) {
      this.observations.push(o);
      const entry: HistoryEntry = { step, task: this.taskIds[o.task], rewards: o.rewards };
      if (o.flags) entry.flags = o.flags;
      if (c !== undefined) entry.cost = c;
      this.log.push(entry);
      this.digest = fnv1aText(this.digest, `${JSON.stringify([step, entry.task, o.rewards, o.flags ?? null])}\n`);
      let m = 0;
      for (const r of o.rewards) m += r;
      m /= o.rewards.length;
      let v = 0;
      for (const r of o.rewards) v += (r - m) * (r - m);
      v /= o.rewards.length;
      rewardSum += m;
      rewardCount++;
      varianceSum += v;
      if (v === 0) flat++;
      cost += c ?? 0;
    }
    this.steps.push(step);
    this.lastObserve = {
      'envsched/observed/step': step,
      'envsched/observed/groups': sorted.length,
      'envsched/observed/mean_reward': rewardSum / rewardCount,
      'envsched/observed/mean_variance': varianceSum / rewardCount,
      'envsched/observed/zero_variance_groups': flat,
      'envsched/observed/cost': cost,
    };
    return { step, groups: sorted.length, lastStep: step, metrics: { ...this.lastObserve } };
  }

  /** Validates and commits one step's groups (atomic: on an error nothing changes). */
  observe(step: number, groups: readonly GroupInput[], source = 'observe'): ObserveResult {
    return this.commit(this.prepareObserve(step, groups, source));
  }

  private stepOf(step: unknown, source: string): number {
    if (step === undefined) return this.lastStep + 1;
    const t = checkStep(step, source, 'step');
    if (t > MAX_STEP - 1) throw new InputError(source, 'step', `must be below ${MAX_STEP}`);
    return t;
  }

  /** History before step t: all of it when t is past the last observed step. */
  private historyBefore(t: number): readonly Observation[] {
    if (t > this.lastStep) return this.observations;
    let end = 0;
    while (end < this.observations.length && this.observations[end].step < t) end++;
    return this.observations.slice(0, end);
  }

  private pick(i: number, phase: Phase | null, q: number | null, predicted: number | null): BatchPick {
    return { task: this.taskIds[i], index: i, env: this.envOf[i], phase, q, predictedVariance: predicted };
  }

  /**
   * The batch for step t (default: one past the last observed step): a pure function of t, the
   * observations of steps before t and the configuration. t may be ahead of the last observed
   * step (asynchronous training) or behind it (a late rank asking again).
   */
  next(step?: number, options: { extras?: number } = {}, source = 'next'): NextResult {
    const t = this.stepOf(step, source);
    const extras = options.extras === undefined ? 0 : options.extras;
    if (typeof extras !== 'number' || !Number.isInteger(extras) || extras < 0 || extras > MAX_EXTRAS) {
      throw new InputError(source, 'extras', `must be an integer in [0, ${MAX_EXTRAS}], got ${showValue(extras)}`);
    }
    const config = this.current;
    const result = isBaseline(config.scheduler) ? this.nextBaseline(t, extras, config) : this.nextEnvSched(t, extras, config);
    result.metrics = { ...this.batchMetrics(result), ...this.lastObserve };
    return result;
  }

  private nextEnvSched(t: number, extras: number, config: Config): NextResult {
    const history = this.historyBefore(t);
    const w = this.wasm;
    if (history !== this.observations) w.setHistory(history);
    try {
      w.configure(config);
      const scored = w.scoreStep(t);
      const v = w.views();
      const batch: BatchPick[] = [];
      const inBatch = new Uint8Array(this.taskIds.length);
      for (let k = 0; k < scored.batchLength; k++) {
        const i = v.batchTask[k];
        inBatch[i] = 1;
        batch.push(this.pick(i, PHASES[v.batchPhase[k]], scored.coldStart ? null : v.q[i], scored.coldStart ? null : v.longV[i]));
      }
      const ranked: BatchPick[] = [];
      if (extras > 0 && scored.coldStart) {
        // No priorities yet (SPEC 7): spread the extras over the environments, round robin in
        // environment order, each environment's tasks in graph order.
        const byEnv: number[][] = this.meta.envs.map(() => []);
        for (let i = 0; i < this.taskIds.length; i++) if (!inBatch[i] && !v.removed[i]) byEnv[this.meta.tasks[i].env].push(i);
        for (let round = 0; ranked.length < extras; round++) {
          let any = false;
          for (const list of byEnv) {
            if (round < list.length && ranked.length < extras) {
              ranked.push(this.pick(list[round], null, null, null));
              any = true;
            }
          }
          if (!any) break;
        }
      }
      if (extras > 0 && !scored.coldStart) {
        // The next-best tasks by q (ties: lower index), never a removed one (SPEC 8).
        const q = v.q;
        const top = topByKey(
          this.taskIds.length,
          extras,
          (i) => !inBatch[i] && !v.removed[i],
          (i) => q[i],
        );
        for (const i of top) ranked.push(this.pick(i, null, q[i], v.longV[i]));
      }
      let removed = 0;
      let excluded = 0;
      for (let i = 0; i < this.taskIds.length; i++) {
        removed += v.removed[i];
        excluded += v.excluded[i];
      }
      return {
        step: t,
        scheduler: config.scheduler,
        batch,
        extras: ranked,
        relaxed: scored.relaxed,
        metrics: { 'envsched/pool/removed': removed, 'envsched/pool/progress_excluded': excluded },
      };
    } finally {
      // Back to the whole history: observe appends to it.
      if (history !== this.observations) w.setHistory(this.observations);
    }
  }

  private nextBaseline(t: number, extras: number, config: Config): NextResult {
    const chosen = this.baselines.choose(config, t, this.historyBefore(t), extras);
    const value = (i: number) => (chosen.predictedVariance ? chosen.predictedVariance[i] : null);
    return {
      step: t,
      scheduler: config.scheduler,
      batch: Array.from(chosen.batch, (i) => this.pick(i, null, null, value(i))),
      extras: Array.from(chosen.extras, (i) => this.pick(i, null, null, value(i))),
      relaxed: [],
      metrics: {},
    };
  }

  private batchMetrics(r: NextResult): Metrics {
    const envs = new Set(r.batch.map((p) => p.env));
    const m: Metrics = {
      'envsched/step': r.step,
      'envsched/batch/size': r.batch.length,
      'envsched/batch/environments': envs.size,
      'envsched/history/observed_steps': this.steps.length,
      'envsched/history/groups': this.observations.length,
      // Steps the answer runs ahead of the history (asynchronous training): 0 when step t-1 is observed.
      'envsched/history/lag': Math.max(0, r.step - 1 - this.lastStep),
    };
    for (const phase of PHASES) {
      const n = r.batch.filter((p) => p.phase === phase).length;
      if (n > 0) m[`envsched/batch/phase/${phase}`] = n;
    }
    const qs = r.batch.filter((p) => p.q !== null);
    if (qs.length > 0) m['envsched/batch/mean_q'] = qs.reduce((s, p) => s + (p.q as number), 0) / qs.length;
    const pv = r.batch.filter((p) => p.predictedVariance !== null);
    if (pv.length > 0)
      m['envsched/batch/mean_predicted_variance'] = pv.reduce((s, p) => s + (p.predictedVariance as number), 0) / pv.length;
    for (const rule of ['C_task', 'C3', 'C1'] as const) m[`envsched/relaxed/${rule}`] = r.relaxed.includes(rule) ? 1 : 0;
    return { ...m, ...r.metrics };
  }

  /** Scores of the listed tasks (default: every task) at step t. */
  scores(step?: number, tasks?: readonly string[], source = 'scores'): ScoresResult {
    const t = this.stepOf(step, source);
    let indices: number[];
    if (tasks === undefined) indices = this.taskIds.map((_, i) => i);
    else {
      if (!Array.isArray(tasks) || tasks.length > this.taskIds.length)
        throw new InputError(source, 'tasks', `must be a list of at most ${this.taskIds.length} task ids`);
      indices = tasks.map((id, k) => {
        const i = typeof id === 'string' ? this.taskIndex.get(id) : undefined;
        if (i === undefined) throw new InputError(source, `tasks[${k}]`, `unknown task id ${showValue(id)} (not in the graph)`);
        return i;
      });
    }
    const config = this.current;
    if (isBaseline(config.scheduler)) {
      const chosen = this.baselines.choose(config, t, this.historyBefore(t), 0);
      return {
        step: t,
        scheduler: config.scheduler,
        tasks: indices.map((i) => ({ id: this.taskIds[i], predicted: chosen.predictedVariance ? chosen.predictedVariance[i] : null })),
      };
    }
    const history = this.historyBefore(t);
    const w = this.wasm;
    if (history !== this.observations) w.setHistory(history);
    try {
      const all = w.score(config, t);
      return { step: t, scheduler: config.scheduler, tasks: indices.map((i) => all.tasks[i]) };
    } finally {
      if (history !== this.observations) w.setHistory(this.observations);
    }
  }

  /** SPEC 12 scores of step t over every task (what `envsched score` prints). EnvSched family only. */
  fullScores(step?: number) {
    const t = this.stepOf(step, 'score');
    return this.wasm.score(this.current, t);
  }

  /** The committed history, in commit order (step ascending, then graph order). */
  history(): readonly HistoryEntry[] {
    return this.log;
  }

  /** Replaces an empty history by a whole one (e.g. a history file): steps in any order. */
  loadHistory(observations: readonly Observation[]): void {
    if (this.observations.length > 0) throw new Error('loadHistory: the history is not empty');
    const byStep = new Map<number, Observation[]>();
    for (const o of observations) {
      let list = byStep.get(o.step);
      if (!list) byStep.set(o.step, (list = []));
      list.push(o);
    }
    for (const step of [...byStep.keys()].sort((a, b) => a - b)) {
      const groups = byStep.get(step)!;
      this.commit({ step, observations: groups, costs: groups.map(() => undefined) });
    }
    this.lastObserve = {};
  }

  state(): SchedulerState {
    return {
      graph: { name: this.meta.name, tasks: this.taskIds.length, envs: this.meta.envs.length },
      config: this.config,
      lastStep: this.lastStep,
      observedSteps: this.steps.length,
      groups: this.observations.length,
      historyDigest: this.digest.toString(16).padStart(8, '0'),
    };
  }
}

/** The configuration if the library can run its scheduler; DAPO's dynamic sampling needs the rollouts in the loop. */
export function servableConfig(config: Config, source: string): Config {
  if (!isServable(config.scheduler)) {
    throw new InputError(
      source,
      'scheduler',
      `${config.scheduler} is not served (dynamic sampling needs the rollouts inside the scheduler): use ${[...SCORABLE_SCHEDULERS, 'random', 'dps', 'mopps'].join(', ')}`,
    );
  }
  return config;
}

/** True when `name` is one of the schedulers the library runs (the EnvSched family or random, dps, mopps). */
export function isServable(name: SchedulerName): boolean {
  return (SCORABLE_SCHEDULERS as readonly string[]).includes(name) || isBaseline(name);
}
