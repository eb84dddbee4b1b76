// Runs a sweep on any executor: expands points x seeds, serves repeats from the cache,
// keeps `executor.concurrency` runs in flight, streams each point as its last seed finishes, and
// stops on abort (no more work handed out, the executor's workers terminated).
import type { Config } from '../engine/types.ts';
import type { SimModelParams } from '../sim/model-params.ts';
import { RunCache, runKey } from './cache.ts';
import { expandJobs, expandPoints, type KnobValue, type SweepDefinition, type SweepMetric } from './definition.ts';
import { isAbortError, type SweepExecutor } from './executor.ts';
import { metricValue } from './metrics.ts';
import type { PointRun, RunRequest } from './point.ts';
import { pointStats, type PointStats } from './stats.ts';

export interface MetricResult {
  /** One per seed, in seed order (null: the metric has no value for that run). */
  values: (number | null)[];
  stats: PointStats;
}

export interface SweepPointResult {
  index: number;
  values: KnobValue[];
  /** The point's configuration with the first seed: what "open this point" loads in the main view. */
  config: Config;
  /** The point's world (its changes to the calibrated one), which "open this point" loads too. */
  world: Partial<SimModelParams>;
  seeds: number[];
  fingerprints: string[];
  metrics: Partial<Record<SweepMetric, MetricResult>>;
}

export interface SweepResult {
  definition: SweepDefinition;
  points: SweepPointResult[];
  /** Runs the sweep needed (points x seeds, plus random reference runs), and how many came from the cache. */
  runs: number;
  cachedRuns: number;
  cancelled: boolean;
}

export interface SweepProgress {
  done: number;
  total: number;
  /** What just finished, e.g. `rho=0.25 seed 1` (or `random reference seed 1`). */
  label: string;
  cached: boolean;
}

export interface SweepOptions {
  cache?: RunCache;
  signal?: AbortSignal;
  onProgress?: (progress: SweepProgress) => void;
  /** A point whose seeds have all finished (in completion order). */
  onPoint?: (point: SweepPointResult) => void;
  /** Run only this deterministic slice of the points (see shardOf). */
  shard?: Shard;
}

/** Shard `index` of `count` (0-based, as a Slurm array or a Kubernetes Indexed Job numbers its tasks). */
export interface Shard {
  index: number;
  count: number;
}

/** Whether point `point` belongs to the shard: points are dealt round robin, so shards of a grid cost about the same. */
export function inShard(point: number, shard: Shard | undefined): boolean {
  return shard === undefined || point % shard.count === shard.index;
}

/** The distinct runs the whole (unsharded) sweep needs: its points x seeds plus random reference runs, repeats counted once. */
export function sweepRunCount(def: SweepDefinition): number {
  const keys = new Set<string>();
  const needsReference = def.metrics.includes('steps_to_random_best');
  for (const job of expandJobs(def)) {
    keys.add(runKey({ config: job.config, world: job.world }));
    if (needsReference) keys.add(runKey({ config: referenceConfig(def.base, job.config), world: job.world }));
  }
  return keys.size;
}

/** The random scheduler's run that "steps to reach random's best" compares with: it reads only B, K, T and the seed (it runs in the point's world). */
export function referenceConfig(base: Config, point: Config): Config {
  return { ...base, alpha: [...base.alpha] as Config['alpha'], scheduler: 'random', B: point.B, K: point.K, T: point.T, seed: point.seed };
}

interface Task {
  request: RunRequest;
  label: string;
  run?: PointRun;
}

export async function runSweep(def: SweepDefinition, executor: SweepExecutor, options: SweepOptions = {}): Promise<SweepResult> {
  const cache = options.cache ?? new RunCache();
  const points = expandPoints(def);
  const jobs = expandJobs(def, points).filter((job) => inShard(job.point, options.shard));
  const needsReference = def.metrics.includes('steps_to_random_best');
  const label = (values: readonly KnobValue[]) => def.knobs.map((k, i) => `${k.key}=${values[i]}`).join(' ');

  // Unique runs by canonical configuration: references first (fast, and every point waits on them).
  const tasks = new Map<string, Task>();
  const add = (config: Config, world: Partial<SimModelParams>, text: string) => {
    const request: RunRequest = { config, world };
    const key = runKey(request);
    if (!tasks.has(key)) tasks.set(key, { request, label: text });
    return key;
  };
  const refKeyOf: string[] = [];
  if (needsReference)
    jobs.forEach(
      (job, j) => (refKeyOf[j] = add(referenceConfig(def.base, job.config), job.world, `random reference seed ${job.config.seed}`)),
    );
  const jobKeyOf = jobs.map((job) => add(job.config, job.world, `${label(points[job.point].values)} seed ${job.config.seed}`));

  const total = tasks.size;
  let done = 0;
  let cachedRuns = 0;
  const results: SweepPointResult[] = [];
  const finished = new Set<number>();
  const jobsOfPoint: { job: (typeof jobs)[number]; j: number }[][] = points.map(() => []);
  jobs.forEach((job, j) => jobsOfPoint[job.point].push({ job, j }));
  // Which points wait on which run: a finished run only re-checks its own points.
  const pointsOfTask = new Map<string, Set<number>>();
  const dependsOn = (key: string, point: number) => {
    let set = pointsOfTask.get(key);
    if (!set) pointsOfTask.set(key, (set = new Set()));
    set.add(point);
  };
  jobs.forEach((job, j) => {
    dependsOn(jobKeyOf[j], job.point);
    if (needsReference) dependsOn(refKeyOf[j], job.point);
  });

  const tryFinishPoint = (index: number) => {
    if (finished.has(index)) return;
    const p = points[index];
    const mine = jobsOfPoint[index];
    if (!mine.every(({ j }) => tasks.get(jobKeyOf[j])!.run && (!needsReference || tasks.get(refKeyOf[j])!.run))) return;
    finished.add(index);
    const runs = mine.map(({ j }) => tasks.get(jobKeyOf[j])!.run!);
    const refs = mine.map(({ j }) => (needsReference ? tasks.get(refKeyOf[j])!.run : undefined));
    const metrics: Partial<Record<SweepMetric, MetricResult>> = {};
    for (const m of def.metrics) {
      const values = runs.map((run, k) => metricValue(m, run, refs[k]));
      metrics[m] = { values, stats: pointStats(values) };
    }
    const result: SweepPointResult = {
      index: p.index,
      values: p.values,
      config: { ...p.config, seed: def.base.seed },
      world: p.world,
      seeds: mine.map(({ job }) => job.config.seed),
      fingerprints: runs.map((r) => r.fingerprint),
      metrics,
    };
    results.push(result);
    if (!options.signal?.aborted) options.onPoint?.(result);
  };

  const complete = (key: string, task: Task, run: PointRun, cached: boolean) => {
    task.run = run;
    done++;
    if (cached) cachedRuns++;
    options.onProgress?.({ done, total, label: task.label, cached });
    for (const index of [...(pointsOfTask.get(key) ?? [])].sort((a, b) => a - b)) tryFinishPoint(index);
  };

  // Cached runs cost nothing: they complete before any work is handed out.
  const pending: [string, Task][] = [];
  for (const [key, task] of tasks) {
    const hit = cache.get(task.request);
    if (hit) complete(key, task, hit, true);
    else pending.push([key, task]);
  }

  let cancelled = false;
  await new Promise<void>((resolve, reject) => {
    let next = 0;
    let inFlight = 0;
    let failed = false;
    const onAbort = () => {
      if (cancelled || failed) return;
      cancelled = true;
      executor.terminate();
      resolve();
    };
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const handOut = () => {
      if (cancelled || failed) return;
      if (next >= pending.length && inFlight === 0) {
        options.signal?.removeEventListener('abort', onAbort);
        resolve();
        return;
      }
      while (inFlight < executor.concurrency && next < pending.length) {
        const [key, task] = pending[next++];
        inFlight++;
        executor.run(task.request).then(
          (run) => {
            inFlight--;
            if (cancelled || failed) return;
            cache.set(task.request, run);
            complete(key, task, run, false);
            handOut();
          },
          (error: unknown) => {
            inFlight--;
            if (cancelled || failed || isAbortError(error)) return;
            failed = true;
            options.signal?.removeEventListener('abort', onAbort);
            executor.terminate();
            reject(error);
          },
        );
      }
    };
    handOut();
  });

  results.sort((a, b) => a.index - b.index);
  return { definition: def, points: results, runs: total, cachedRuns, cancelled };
}
