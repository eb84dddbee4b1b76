// One step scored by the WASM kernels (SPEC 2-8), read out of linear memory as owned copies: the
// pool-wide numbers `envsched score --step t` prints (predictions and u per half-life, the
// decline-adjusted u, q, the filter flags, B_t, the batch and its relaxations). Explain mode and
// the inspector take these from the kernels instead of re-deriving them for the whole pool.
import type { CapRule, Config, Phase } from './types.ts';
import { PHASES, type SchedulerViews, type WasmScheduler } from './wasm/index.ts';

/** The views' arrays as owned copies (the batch as pick objects), with the step and its relaxations. */
export type PoolScores = Omit<SchedulerViews, 'batchTask' | 'batchPhase' | 'info'> & {
  step: number;
  coldStart: boolean;
  batch: { task: number; phase: Phase }[];
  relaxed: CapRule[];
};

/** Scores step t (observations s < t of the history stored in `scheduler`) and copies the results out. */
export function scorePool(scheduler: WasmScheduler, config: Config, step: number): PoolScores {
  scheduler.configure(config);
  const result = scheduler.scoreStep(step);
  const v = scheduler.views(); // read after the call: memory may have grown
  return {
    step,
    coldStart: result.coldStart,
    longV: v.longV.slice(),
    longM: v.longM.slice(),
    longD: v.longD.slice(),
    longU: v.longU.slice(),
    shortV: v.shortV.slice(),
    shortM: v.shortM.slice(),
    shortD: v.shortD.slice(),
    shortU: v.shortU.slice(),
    u: v.u.slice(),
    q: v.q.slice(),
    removed: v.removed.slice(),
    excluded: v.excluded.slice(),
    reference: v.reference.slice(),
    batch: Array.from(v.batchTask, (task, k) => ({ task, phase: PHASES[v.batchPhase[k]] })),
    relaxed: result.relaxed,
  };
}
