// The Node sweep pool (worker_threads): a point run in a worker equals the same configuration run
// directly (same fingerprint), and cancelling stops handing out work and terminates the threads.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import { InputError } from '../src/engine/errors.ts';
import type { Config } from '../src/engine/types.ts';
import { loadDataset } from '../src/sim/dataset-node.ts';
import { runSimulation } from '../src/sim/run.ts';
import { loadRunWasmNode } from '../src/sim/wasm-node.ts';
import type { SweepDefinition } from '../src/sweep/definition.ts';
import { NodeSweepPool } from '../src/sweep/pool-node.ts';
import { runSweep } from '../src/sweep/runner.ts';

function base(overrides: Partial<Config> = {}): Config {
  return { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'], dataset: 'tiny', ...overrides };
}

describe('Node sweep pool', () => {
  it('runs each point in a worker thread exactly as a single run with the same configuration and seed', async () => {
    const pool = new NodeSweepPool(2);
    try {
      const def: SweepDefinition = {
        knobs: [
          { key: 'scheduler', values: ['envsched', 'dps'] },
          { key: 'B', values: [16, 32] },
        ],
        seeds: 2,
        base: base({ T: 5, seed: 7 }),
        metrics: ['final', 'tools_per_batch'],
        preset: null,
      };
      const result = await runSweep(def, pool);
      expect(result.cancelled).toBe(false);
      expect(result.points).toHaveLength(4);
      const { loaded, source } = await loadDataset('tiny');
      for (const point of result.points) {
        const [scheduler, B] = point.values as [Config['scheduler'], number];
        for (const [k, seed] of point.seeds.entries()) {
          const single = runSimulation(await loadRunWasmNode(), loaded, { ...def.base, scheduler, B, seed }, source);
          expect(point.fingerprints[k]).toBe(single.fingerprint);
          expect(point.metrics.tools_per_batch!.values[k]).toBe(single.summary.toolsPerBatch);
        }
      }
      expect(new Set(result.points.map((p) => p.fingerprints[0])).size).toBe(4);
    } finally {
      await pool.close();
    }
    expect(pool.liveThreads).toBe(0);
  });

  it('cancelling stops handing out work, delivers no further results and terminates every worker', async () => {
    const pool = new NodeSweepPool(2);
    const controller = new AbortController();
    let results = 0;
    let afterAbort = 0;
    const def: SweepDefinition = {
      knobs: [{ key: 'rho', values: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] }],
      seeds: 3,
      base: base({ T: 20 }),
      metrics: ['final'],
      preset: null,
    };
    const result = await runSweep(def, pool, {
      signal: controller.signal,
      onProgress: () => {
        if (controller.signal.aborted) afterAbort++;
        else if (++results === 1) controller.abort();
      },
      onPoint: () => {
        if (controller.signal.aborted) afterAbort++;
      },
    });
    expect(result.cancelled).toBe(true);
    expect(pool.liveThreads).toBe(0);
    await pool.allExited(); // resolves only once every thread has exited
    expect(pool.spawned).toBeLessThanOrEqual(2);
    // Anything still in flight when the abort came is dropped, and the pool takes no new work.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(afterAbort).toBe(0);
    expect(result.points.length).toBeLessThan(11);
    await expect(pool.run({ config: def.base })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reports a bad dataset from a worker as the same InputError a direct run gives', async () => {
    const pool = new NodeSweepPool(1);
    try {
      const error = await pool.run({ config: base({ dataset: 'no-such-dataset', T: 2 }) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).place).toBe('--dataset');
    } finally {
      await pool.close();
    }
  });
});
