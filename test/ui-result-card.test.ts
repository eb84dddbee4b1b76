// The result card's figures: computed from each seed's runs, banded across seeds with the sweep's
// 95% interval, and lanes named by what differs.
import { describe, expect, it } from 'vitest';
import type { Config } from '../src/engine/types.ts';
import type { PointRun } from '../src/sweep/point.ts';
import type { RunSummary } from '../src/sim/run.ts';
import { pointStats } from '../src/sweep/stats.ts';
import { cardRows, heldoutBand, runCard, stepsToReach } from '../src/ui/result/card.ts';
import { CARD_SETTLE_MS, CardRunner, type CardFields } from '../src/ui/result/card-runner.ts';
import { laneNames } from '../src/ui/lib/lane-names.ts';
import { paperSetup, paperValue } from '../src/ui/result/paper.ts';
import { defaultConfig } from '../src/ui/state/url-state.ts';

function run(heldout: number[], over: Partial<RunSummary>): PointRun {
  const summary = {
    meanVariance: 0,
    medianVariance: 0,
    meanReward: 0,
    medianReward: 0,
    envsPerBatch: 0,
    toolsPerBatch: 0,
    familiesPerBatch: 0,
    rollouts: heldout.length * 512,
    hitRate: null,
    meanRankCorrelation: null,
    heldoutInitial: heldout[0],
    heldoutFinal: heldout[heldout.length - 1],
    heldoutBest: Math.max(...heldout),
    removed: 0,
    ...over,
  } as RunSummary;
  return { fingerprint: 'f', summary, heldout };
}

describe('the result card', () => {
  const pairs = [
    {
      seed: 3,
      a: run([40, 45, 50, 55], { envsPerBatch: 46, meanVariance: 0.043 }),
      b: run([40, 42, 44, 46], { envsPerBatch: 36, meanVariance: 0.032 }),
    },
    {
      seed: 4,
      a: run([41, 43, 47, 52], { envsPerBatch: 45, meanVariance: 0.041 }),
      b: run([41, 42, 45, 47], { envsPerBatch: 37, meanVariance: 0.031 }),
    },
    {
      seed: 5,
      a: run([39, 44, 49, 53], { envsPerBatch: 47, meanVariance: 0.044 }),
      b: run([39, 41, 43, 48], { envsPerBatch: 35, meanVariance: 0.033 }),
    },
  ];

  it('bands every figure across seeds from the runs’ own figures (paired differences)', () => {
    const rows = cardRows(pairs);
    const envs = rows.find((r) => r.metric === 'envsPerBatch')!;
    expect(envs.a).toEqual(pointStats([46, 45, 47]));
    expect(envs.b).toEqual(pointStats([36, 37, 35]));
    expect(envs.diff).toEqual(pointStats([10, 8, 12]));
    expect(envs.diff.mean).toBe(10);
    expect(envs.diff.lo).toBeCloseTo(10 - (4.302652729911275 * 2) / Math.sqrt(3), 9);
    const reach = rows.find((r) => r.metric === 'stepsToReach')!;
    // Seed 3: B ends at 46, A first reaches it at step 3 (50); B itself first at step 4.
    expect(reach.perSeed.map((p) => [p.a, p.b])).toEqual([
      [3, 4],
      [3, 4],
      [3, 4],
    ]);
    const rollouts = rows.find((r) => r.metric === 'rolloutsToReach')!;
    expect(rollouts.perSeed[0]).toEqual({ seed: 3, a: 3 * 512, b: 4 * 512, diff: -512 });
  });

  it('says when A never reaches B’s final score (no value, not a made-up one)', () => {
    expect(stepsToReach([1, 2, 3], 4)).toBe(null);
    const rows = cardRows([{ seed: 0, a: run([1, 2, 3], {}), b: run([1, 3, 5], {}) }]);
    expect(rows.find((r) => r.metric === 'stepsToReach')!.perSeed[0]).toEqual({ seed: 0, a: null, b: 3, diff: null });
  });

  it('draws held-out bands per step and per rollout', () => {
    const band = heldoutBand(pairs.map((p) => p.a));
    expect(band).toHaveLength(4);
    expect(band[2]).toMatchObject({ step: 2, rollouts: 3 * 512, mean: pointStats([50, 47, 49]).mean!, lo: pointStats([50, 47, 49]).lo! });
  });

  it('runs a pair of seeds at a time and reports after each, stopping when aborted', async () => {
    const asked: number[][] = [];
    const executor = {
      run: async ({ config }: { config: Config }) => (
        asked.push([config.seed, config.scheduler === 'random' ? 1 : 0]),
        run([1, 2], { envsPerBatch: config.seed })
      ),
      terminate: () => {},
    };
    const controller = new AbortController();
    const seen: number[] = [];
    const a = { ...defaultConfig(), seed: 10 };
    await runCard(executor, a, { ...a, scheduler: 'random' }, 5, controller.signal, (p) => {
      seen.push(p.pairs.length);
      if (p.pairs.length === 2) controller.abort();
    });
    expect(seen).toEqual([1, 2]);
    expect(asked).toEqual([
      [10, 0],
      [10, 1],
      [11, 0],
      [11, 1],
    ]);
  });

  it('waits for a change to settle, and a change while seeds run stops them at once (a fresh pool takes over)', async () => {
    const pools: { terminated: boolean; runs: number }[] = [];
    const make = async () => {
      const pool = { terminated: false, runs: 0 };
      pools.push(pool);
      return {
        run: ({ config }: { config: Config }) =>
          new Promise<ReturnType<typeof run>>((resolve, reject) => {
            pool.runs++;
            setTimeout(
              () =>
                pool.terminated
                  ? reject(Object.assign(new Error('stopped'), { name: 'AbortError' }))
                  : resolve(run([1, 2], { envsPerBatch: config.seed })),
              30,
            );
          }),
        terminate: () => void (pool.terminated = true),
      };
    };
    const fields: CardFields = { a: null, b: null, pairs: [], seeds: 3, running: false, error: null };
    const runner = new CardRunner(fields, make);
    const a = defaultConfig();
    const b = { ...a, scheduler: 'random' as const };
    runner.want(a, b, 3);
    runner.want({ ...a, rho: 0.6 }, b, 3); // a dragged knob: nothing started yet
    await new Promise((r) => setTimeout(r, 300));
    expect(pools).toHaveLength(1);
    runner.want({ ...a, rho: 0.7 }, b, 3); // while seeds run: stopped at once, before the page re-renders
    expect(pools[0].terminated).toBe(true);
    while (fields.running) await new Promise((r) => setTimeout(r, 10));
    expect(pools).toHaveLength(2);
    expect(fields.error).toBe(null);
    expect(fields.a?.rho).toBe(0.7);
    expect(fields.pairs).toHaveLength(3);
  });

  it("waits for the page's own run to finish before it starts its seeds (the charts have the cores first)", async () => {
    let runs = 0;
    const make = async () => ({
      run: ({ config }: { config: Config }) => {
        runs++;
        return Promise.resolve(run([1, 2], { envsPerBatch: config.seed }));
      },
      terminate: () => {},
    });
    const fields: CardFields = { a: null, b: null, pairs: [], seeds: 2, running: false, error: null };
    const runner = new CardRunner(fields, make);
    const a = defaultConfig();
    runner.setForeground(true);
    runner.want(a, { ...a, scheduler: 'random' }, 2);
    await new Promise((r) => setTimeout(r, CARD_SETTLE_MS + 100));
    expect(runs).toBe(0);
    expect(fields.running).toBe(true);
    runner.setForeground(false);
    while (fields.running) await new Promise((r) => setTimeout(r, 10));
    expect(runs).toBe(4);
    expect(fields.pairs).toHaveLength(2);
  });

  it('names lanes by what differs', () => {
    const a = defaultConfig();
    expect(laneNames(a, { ...a, rho: 1 })).toEqual({ a: 'A: ρ 0.5', b: 'B: ρ 1' });
    expect(laneNames(a, { ...a, scheduler: 'random' })).toEqual({ a: 'A: EnvSched', b: 'B: Random' });
    expect(laneNames(a, { ...a, rho: 1, K_within: 3, seed: 2 })).toEqual({ a: 'A: ρ 0.5, K_within 6 +1', b: 'B: ρ 1, K_within 3 +1' });
    expect(laneNames(a, null)).toEqual({ a: 'A: EnvSched', b: null });
  });
});

describe("the paper's figures beside the card", () => {
  it("are the paper's setup only: its pool, B = 64 and K = 8", () => {
    const paper = defaultConfig();
    expect(paperSetup(paper)).toBe(true);
    expect(paperSetup({ ...paper, dataset: 'classroom' })).toBe(false);
    expect(paperSetup({ ...paper, B: 8 })).toBe(false);
    expect(paperSetup({ ...paper, K: 4 })).toBe(false);
  });

  it("give Table 2's environments per batch and Figure 1's step counts per scheduler", () => {
    expect(paperValue('envsPerBatch', 'envsched')).toBe(45.96);
    expect(paperValue('envsPerBatch', 'random')).toBe(36.53);
    expect(paperValue('stepsToReach', 'envsched')).toBe(40);
    expect(paperValue('heldoutFinal', 'envsched')).toBeNull();
  });
});
