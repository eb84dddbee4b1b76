// The one interface every scheduler of a simulated run implements. The run loop
// (run.ts) asks for a batch, rolls it out, and hands the groups back.
import type { CapRule, Phase, SchedulerName } from '../engine/types.ts';

export interface ChosenBatch {
  /** Task indices in pick order. For dynamic sampling (DAPO): the candidates, in draw order. */
  tasks: Int32Array;
  /** Phase of each pick (EnvSched family); null for schedulers without phases. */
  phases: Phase[] | null;
  /** SPEC 6 relaxations made while building the batch. */
  relaxed: CapRule[];
  /** Tasks the SPEC 8 progress filter excluded from exploitation at this step. */
  progressExcluded: number;
}

/** The groups of one step, as the scheduler observes them. */
export interface StepGroups {
  tasks: Int32Array;
  K: number;
  /** rewards[b*K + k] */
  rewards: Float64Array;
  /** Rollouts whose suspicious identifier the simulator's replay confirmed (SPEC 8); 1 = flagged. */
  flags: Int32Array;
  /** Where tasks and rewards sit in WASM memory (for kernels of the same instance). */
  batchPtr: number;
  rewardsPtr: number;
}

export interface BatchScheduler {
  readonly name: SchedulerName;
  /** DAPO: the run loop rolls candidates out in order and keeps only groups with unequal rewards. */
  readonly dynamicSampling: boolean;
  choose(step: number): ChosenBatch;
  /** Takes the step's groups; returns the tasks its identifier filter (SPEC 8) removes for them (baselines have none). */
  observe(step: number, groups: StepGroups): readonly number[];
  /** The scheduler's pool-wide prediction behind the last choice (larger = more variance expected); null if none. */
  predicted(): ArrayLike<number> | null;
  /** The EnvSched family's priorities q (SPEC 5) behind the last choice, copied; null after a cold start. For diagnostics. */
  priorities?(): Float64Array | null;
  /** The EnvSched family's SPEC 8 progress-filter flags behind the last choice (1 = excluded from exploitation), copied; null after a cold start. For diagnostics. */
  progressFiltered?(): Uint8Array | null;
}
