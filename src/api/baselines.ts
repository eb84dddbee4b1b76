// random, dps and mopps from a real history (docs/serve.md, "Baselines"): the simulator's own
// baseline drivers (src/sim/schedulers/baselines.ts) over an instance of their own, rebuilt for
// every answer so that the batch of step t is a pure function of (t, the history before t, the
// configuration) whatever was asked before:
//   - the instance's generator is seeded with (seed, stream t), so each step has its own draws;
//   - MoPPS replays every observed group into its posteriors; DPS propagates its beliefs once per
//     observed step (it chooses, then observes, as in a simulated run) before choosing for t.
import type { Config, Observation, SchedulerName } from '../engine/types.ts';
import { DpsScheduler, MoppsScheduler, RandomScheduler, type BaselineHost } from '../sim/schedulers/baselines.ts';
import type { BatchScheduler, StepGroups } from '../sim/scheduler.ts';
import { WasmHeap, type SimWasmExports } from '../sim/wasm.ts';
import { topByKey } from './top.ts';

const BASELINES = ['random', 'dps', 'mopps'] as const;
export type BaselineName = (typeof BASELINES)[number];

export function isBaseline(name: SchedulerName): name is BaselineName {
  return (BASELINES as readonly string[]).includes(name);
}

export interface BaselineChoice {
  batch: Int32Array;
  extras: Int32Array;
  /** MoPPS: posterior mu(1 - mu) per task; null for random and DPS (whose P(partial) is not a variance). */
  predictedVariance: Float64Array | null;
}

export class BaselineRunner {
  constructor(
    private readonly wasm: SimWasmExports,
    private readonly nTasks: number,
  ) {}

  choose(config: Config, step: number, history: readonly Observation[], extras: number): BaselineChoice {
    const name = config.scheduler;
    if (!isBaseline(name)) throw new Error(`BaselineRunner: ${name} is not a baseline`);
    const x = this.wasm;
    const n = this.nTasks;
    x.mem_reset();
    x.rng_seed(config.seed >>> 0, step >>> 0);
    const host: BaselineHost = { heap: new WasmHeap(x), wasm: x, nTasks: n };
    const B = Math.min(config.B, n);
    // random and MoPPS draw B + extras in one go (their first B picks do not depend on the count);
    // DPS's candidate pool depends on B, so its extras are ranked by its prediction instead.
    const wide = Math.min(n, B + extras);
    const scheduler: BatchScheduler =
      name === 'random' ? new RandomScheduler(host, wide) : name === 'mopps' ? new MoppsScheduler(host, wide) : new DpsScheduler(host, B);
    if (name !== 'random') this.replay(host, scheduler, history, name === 'dps');
    const chosen = scheduler.choose(step).tasks;
    if (name !== 'dps') {
      return {
        batch: chosen.slice(0, B),
        extras: chosen.slice(B),
        predictedVariance: name === 'mopps' ? Float64Array.from(scheduler.predicted() ?? []) : null,
      };
    }
    const predicted = scheduler.predicted() ?? new Float64Array(n);
    const inBatch = new Uint8Array(n);
    for (const i of chosen) inBatch[i] = 1;
    const ranked = topByKey(
      n,
      extras,
      (i) => !inBatch[i],
      (i) => predicted[i],
    );
    return { batch: chosen, extras: Int32Array.from(ranked), predictedVariance: null };
  }

  /** Feeds the history to the scheduler one group at a time (groups may differ in K). */
  private replay(host: BaselineHost, scheduler: BatchScheduler, history: readonly Observation[], choosePerStep: boolean): void {
    let maxK = 1;
    for (const o of history) maxK = Math.max(maxK, o.rewards.length);
    const batchPtr = host.heap.allocI32(1);
    const rewardsPtr = host.heap.allocF64(maxK);
    let start = 0;
    while (start < history.length) {
      const step = history[start].step;
      let end = start;
      while (end < history.length && history[end].step === step) end++;
      if (choosePerStep) scheduler.choose(step);
      for (let k = start; k < end; k++) {
        const o = history[k];
        const K = o.rewards.length;
        host.heap.i32(batchPtr, 1)[0] = o.task;
        host.heap.f64(rewardsPtr, K).set(o.rewards);
        const groups: StepGroups = {
          tasks: Int32Array.of(o.task),
          K,
          rewards: Float64Array.from(o.rewards),
          flags: new Int32Array(K),
          batchPtr,
          rewardsPtr,
        };
        scheduler.observe(step, groups);
      }
      start = end;
    }
  }
}
