// The web app's run in the worker (src/worker/run-session.ts over SimulationRun.step()): a run
// taken step by step is the `envsched run` run (same fingerprint, same metrics), and what it
// records for the views (history, pool snapshot, truth) is what the scheduler and simulator saw.
import { describe, expect, it } from 'vitest';
import { prepareScheduler } from '../src/engine/wasm/index.ts';
import { SimulationRun } from '../src/sim/run.ts';
import { loadRunWasmNode } from '../src/sim/wasm-node.ts';
import { RunSession } from '../src/worker/run-session.ts';
import { config, envscalerShaped, simulate } from './helpers/sim-fixtures.ts';

const T = 12;

describe('SimulationRun.step()', () => {
  it('steps to the same metrics and fingerprint as run(), and refuses a step past the end', async () => {
    const loaded = envscalerShaped();
    const whole = await simulate(loaded, 'envsched', { T, seed: 5 });
    const run = new SimulationRun(await loadRunWasmNode(), loaded, config({ scheduler: 'envsched', T, seed: 5 }), 'test pool');
    const details = [];
    while (!run.done) details.push(run.step());
    expect(details.map((d) => d.metrics)).toEqual(whole.steps);
    expect(run.result()).toEqual(whole);
    expect(() => run.step()).toThrow(/already taken its 12 steps/);
  });

  it('hands out the prediction behind the choice (none at the cold start) and phases aligned with the batch', async () => {
    const loaded = envscalerShaped();
    const run = new SimulationRun(await loadRunWasmNode(), loaded, config({ scheduler: 'envsched', T: 3, seed: 2 }), 'test pool');
    const first = run.step();
    expect(first.predicted).toBeNull(); // SPEC 7: nothing observed yet
    expect(first.phases?.every((p) => p === 'cold-start')).toBe(true);
    const second = run.step();
    expect(second.predicted?.length).toBe(loaded.packed.nTasks);
    expect(second.phases?.length).toBe(second.metrics.batch.length);
    expect(second.truthVariance.length).toBe(loaded.packed.nTasks);
  });
});

describe("a run on instances prepared ahead (the worker loads the next run's graph while idle)", () => {
  it('is the same run as one on fresh instances, and a graph the instance was not prepared for is loaded as usual', async () => {
    const loaded = envscalerShaped();
    const other = envscalerShaped({ seed: 3 });
    const cfg = config({ scheduler: 'envsched', T, seed: 4 });
    const fresh = await simulate(loaded, 'envsched', { T, seed: 4 });
    const ids = (l: typeof loaded) => l.meta.tasks.map((t) => t.id);

    const ahead = await loadRunWasmNode();
    prepareScheduler(ahead.scheduler, loaded.packed, ids(loaded));
    expect(new SimulationRun(ahead, loaded, cfg, 'test pool').run()).toEqual(fresh);

    const wrong = await loadRunWasmNode();
    prepareScheduler(wrong.scheduler, other.packed, ids(other));
    expect(new SimulationRun(wrong, loaded, cfg, 'test pool').run()).toEqual(fresh);
  });
});

describe('RunSession (the worker recording)', () => {
  it('records every step: fingerprint as the CLI, observations as the scheduler saw them, pool snapshots per step', async () => {
    const loaded = envscalerShaped();
    const cfg = config({ scheduler: 'envsched', T, seed: 9 });
    const whole = await simulate(loaded, 'envsched', { T, seed: 9 });
    const session = new RunSession(await loadRunWasmNode(), loaded, cfg, 1, 'test pool');
    const records = [];
    while (!session.done) records.push(session.step());
    expect(session.result?.fingerprint).toBe(whole.fingerprint);
    expect(records.map((r) => r.metrics)).toEqual(whole.steps);
    // One group of K rewards per batch task per step, in batch order.
    const obs = session.observations;
    expect(obs.length).toBe(whole.steps.reduce((s, m) => s + m.batchSize, 0));
    expect(obs.filter((o) => o.step === 4).map((o) => o.task)).toEqual(whole.steps[4].batch);
    expect(obs.every((o) => o.rewards.length === cfg.K)).toBe(true);
    // The predicted batch variance streamed to the page is the mean of the pool snapshot over the batch.
    const pool = session.pool(5)!;
    expect(pool.predicted).not.toBeNull();
    const batch = whole.steps[5].batch;
    const mean = batch.reduce((s, t) => s + pool.predicted![t], 0) / batch.length;
    expect(records[5].predictedBatchVariance).toBeCloseTo(mean, 5);
    expect(session.pool(0)!.predicted).toBeNull();
    expect(session.pool(T)).toBeNull();
    expect(session.truthAt(5, batch[0])?.variance).toBeCloseTo(pool.truth[batch[0]], 7);
  });
});
