// One simulated run in the worker, recorded for the views: src/sim's run loop does the work; this
// adapter listens in on it to keep what the page asks for later (the history for the inspector and
// for export, the pool-wide predictions and truth of every step for the scatter, the phases of
// every pick). It taps three instance methods of the prepared run (scheduler.choose, sim.truth,
// scheduler.observe) instead of re-implementing the loop, so a run here is the same run, with the
// same fingerprint, as `envsched run` on the command line.
import type { Config, LoadedGraph, Observation, Phase } from '../engine/types.ts';
import { SimulationRun, type RunResult, type RunWasm } from '../sim/run.ts';
import type { StepRecord } from './api.ts';

export interface RecordedRun {
  config: Config;
  runId: number;
  observations: Observation[];
  /** Per step: the scheduler's pool-wide predicted variance behind the choice (null without one). */
  predicted: (Float32Array | null)[];
  /** Per step: the exact expected within-group variance and reward of every pool task before the rollouts. */
  truthVariance: Float32Array[];
  truthMean: Float32Array[];
  result: RunResult | null;
}

export function runRecorded(wasm: RunWasm, loaded: LoadedGraph, config: Config, runId: number, source: string, onStep: (record: StepRecord) => void): RecordedRun {
  const recorded: RecordedRun = { config, runId, observations: [], predicted: [], truthVariance: [], truthMean: [], result: null };
  let lastPhases: Phase[] | null = null;
  let lastPredicted: Float64Array | null = null;
  let onStepHook: (metrics: RunResult['steps'][number]) => void = () => {};
  const run = new SimulationRun(wasm, loaded, config, source, { onStep: (m) => onStepHook(m) });

  const scheduler = run.scheduler;
  const choose = scheduler.choose.bind(scheduler);
  scheduler.choose = (step) => {
    const chosen = choose(step);
    lastPhases = chosen.phases ? [...chosen.phases] : null;
    return chosen;
  };
  // The run loop reads the truth exactly once per step, right after the scheduler's choice.
  const sim = run.sim;
  const truth = sim.truth.bind(sim);
  sim.truth = () => {
    const t = truth();
    const p = scheduler.predicted();
    lastPredicted = p ? Float64Array.from(p) : null;
    recorded.predicted.push(lastPredicted ? Float32Array.from(lastPredicted) : null);
    recorded.truthVariance.push(Float32Array.from(t.variance));
    recorded.truthMean.push(Float32Array.from(t.mean));
    return t;
  };
  // The groups exactly as the scheduler observes them (flags = confirmed suspicious rollouts, SPEC 8).
  const observe = scheduler.observe.bind(scheduler);
  scheduler.observe = (step, groups) => {
    for (let b = 0; b < groups.tasks.length; b++) {
      const rewards = Array.from(groups.rewards.subarray(b * groups.K, (b + 1) * groups.K));
      const flags = Array.from(groups.flags.subarray(b * groups.K, (b + 1) * groups.K), (f) => f === 1);
      recorded.observations.push(flags.some((f) => f) ? { step, task: groups.tasks[b], rewards, flags } : { step, task: groups.tasks[b], rewards });
    }
    observe(step, groups);
  };
  onStepHook = (metrics) => {
    let predictedBatchVariance: number | null = null;
    if (lastPredicted && metrics.batch.length > 0) {
      let s = 0;
      for (const task of metrics.batch) s += lastPredicted[task];
      predictedBatchVariance = s / metrics.batch.length;
    }
    // DAPO keeps only some candidates: phases then no longer line up with the batch.
    const phases = lastPhases && lastPhases.length === metrics.batch.length ? lastPhases : null;
    onStep({ metrics, phases, predictedBatchVariance });
  };
  recorded.result = run.run();
  return recorded;
}
