// Sweeps, in-process: statistics against hand-computed cases, definition parsing and
// validation, expansion, the cache, and a sweep point equal to a single run (same fingerprint).
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import { InputError } from '../src/engine/errors.ts';
import type { Config } from '../src/engine/types.ts';
import { loadDataset } from '../src/sim/dataset-node.ts';
import { DEFAULT_SIM_MODEL } from '../src/sim/model-params.ts';
import { runSimulation } from '../src/sim/run.ts';
import { loadRunWasmNode } from '../src/sim/wasm-node.ts';
import { RunCache, canonicalConfigKey } from '../src/sweep/cache.ts';
import { expandJobs, expandPoints, knobDefault, parseKnobText, validateSweep, type SweepDefinition } from '../src/sweep/definition.ts';
import { InProcessExecutor } from '../src/sweep/executor.ts';
import { stepsToReach } from '../src/sweep/metrics.ts';
import { sweepToCsv } from '../src/sweep/output.ts';
import { runSweep } from '../src/sweep/runner.ts';
import { pointStats, tCritical95 } from '../src/sweep/stats.ts';

function base(overrides: Partial<Config> = {}): Config {
  return { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'], dataset: 'tiny', T: 6, ...overrides };
}

function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('sweep statistics', () => {
  it("matches Student's t critical values from tables", () => {
    expect(tCritical95(1)).toBeCloseTo(12.7062047, 6);
    expect(tCritical95(2)).toBeCloseTo(4.3026527, 6);
    expect(tCritical95(4)).toBeCloseTo(2.7764451, 6);
    expect(tCritical95(9)).toBeCloseTo(2.2621572, 6);
    expect(tCritical95(29)).toBeCloseTo(2.0452296, 6);
    expect(tCritical95(100000)).toBeCloseTo(1.959964, 4);
  });

  it('computes the 95% band of a hand-computed case: 1..5', () => {
    // mean 3; sum of squares 10, s^2 = 10/4 = 2.5; s/sqrt(5) = sqrt(0.5); t_{0.975,4} = 2.776445105
    // half-width = 2.776445105 * 0.707106781 = 1.963243161 -> [1.036756839, 4.963243161]
    const s = pointStats([1, 2, 3, 4, 5]);
    expect(s.n).toBe(5);
    expect(s.mean).toBe(3);
    expect(s.sd).toBeCloseTo(Math.sqrt(2.5), 12);
    expect(s.lo).toBeCloseTo(1.036756839, 8);
    expect(s.hi).toBeCloseTo(4.963243161, 8);
  });

  it('uses t with one degree of freedom for two seeds, skips missing values, and has no band for one', () => {
    // [10, 12]: mean 11, s = sqrt(2), s/sqrt(2) = 1, t_{0.975,1} = 12.70620474
    const two = pointStats([10, null, 12]);
    expect(two.n).toBe(2);
    expect(two.lo).toBeCloseTo(11 - 12.70620474, 7);
    expect(two.hi).toBeCloseTo(11 + 12.70620474, 7);
    expect(pointStats([7])).toEqual({ n: 1, mean: 7, sd: null, lo: null, hi: null });
    expect(pointStats([null, null])).toEqual({ n: 0, mean: null, sd: null, lo: null, hi: null });
    expect(pointStats([4, 4, 4])).toMatchObject({ sd: 0, lo: 4, hi: 4 });
  });

  it("counts steps to reach random's best from the per-step held-out curves", () => {
    const run = (heldout: number[]) => ({ fingerprint: '', summary: {} as never, heldout });
    expect(stepsToReach(run([1, 2, 5, 6]), run([1, 4, 3]))).toBe(3);
    expect(stepsToReach(run([1, 2]), run([1, 4, 3]))).toBeNull();
  });
});

describe('sweep definitions', () => {
  it('reads lists and ranges, tidying binary noise', () => {
    expect(parseKnobText('rho=0,0.25,0.5', 'command line', '--knob')).toEqual({ key: 'rho', values: [0, 0.25, 0.5] });
    expect(parseKnobText('rho=0:1:0.25', 'command line', '--knob').values).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(parseKnobText('lambda_sim=0:0.3:0.1', 'command line', '--knob').values).toEqual([0, 0.1, 0.2, 0.3]);
    expect(parseKnobText('K_within=3:12:3', 'command line', '--knob').values).toEqual([3, 6, 9, 12]);
    expect(parseKnobText('scheduler=random,envsched', 'command line', '--knob2').values).toEqual(['random', 'envsched']);
  });

  it('refuses bad knobs with an InputError naming the flag', () => {
    const cases: [string, RegExp][] = [
      ['rho=0,2', /rho must be in \[0, 1\], got 2/],
      ['K_within=1.5', /K_within must be an integer/],
      ['alpha=0.1', /cannot sweep "alpha" \(alpha is a six-vector/],
      ['seed=1,2', /cannot sweep "seed"/],
      ['bogus=1', /cannot sweep "bogus"/],
      ['rho=0:1:0', /step of a range must be positive/],
      ['rho=1:0:0.1', /must not end/],
      ['rho=0,x', /"x" is not a number/],
      ['rho=0,0.5,0', /lists 0 twice/],
      ['rho', /expected KEY=VALUES/],
      ['scheduler=random,best', /scheduler must be one of/],
      ['lambda_sim=0:10:0.001', /the range has 10001 values/],
    ];
    for (const [text, message] of cases) {
      const error = inputError(() => parseKnobText(text, 'command line', '--knob'));
      expect(error.place).toBe('--knob');
      expect(error.problem).toMatch(message);
    }
  });

  it('validates the whole definition', () => {
    const ok: SweepDefinition = { knobs: [{ key: 'rho', values: [0, 1] }], seeds: 2, base: base(), metrics: ['final'], preset: null };
    expect(validateSweep(ok, 'x')).toBe(ok);
    expect(inputError(() => validateSweep({ ...ok, knobs: [ok.knobs[0], { key: 'rho', values: [0.5] }] }, 'x')).place).toBe('--knob2');
    expect(inputError(() => validateSweep({ ...ok, seeds: 0 }, 'x')).place).toBe('--seeds');
    expect(inputError(() => validateSweep({ ...ok, knobs: [] }, 'x')).problem).toMatch(/one or two knobs/);
    expect(inputError(() => validateSweep({ ...ok, metrics: ['speed' as never] }, 'x')).place).toBe('--metrics');
    expect(inputError(() => validateSweep({ ...ok, knobs: [{ key: 'rho', values: [0, 2] }] }, 'x')).place).toBe('--knob');
    const big = { ...ok, knobs: [{ key: 'rho' as const, values: Array.from({ length: 201 }, (_, k) => k / 200) }], seeds: 100 };
    expect(inputError(() => validateSweep(big, 'x')).problem).toMatch(/20100 runs; at most 20000/);
  });

  it('expands points (first knob fastest) and jobs (every point before any second seed)', () => {
    const def: SweepDefinition = {
      knobs: [
        { key: 'K_within', values: [3, 6] },
        { key: 'K_cross', values: [6, 12, 24] },
      ],
      seeds: 2,
      base: base({ seed: 10 }),
      metrics: ['final'],
      preset: null,
    };
    const points = expandPoints(def);
    expect(points.map((p) => p.values)).toEqual([
      [3, 6],
      [6, 6],
      [3, 12],
      [6, 12],
      [3, 24],
      [6, 24],
    ]);
    expect(points[3].config).toMatchObject({ K_within: 6, K_cross: 12, rho: 0.5, dataset: 'tiny', T: 6 });
    const jobs = expandJobs(def, points);
    expect(jobs).toHaveLength(12);
    expect(jobs.slice(0, 6).every((j) => j.config.seed === 10)).toBe(true);
    expect(jobs.slice(6).every((j) => j.config.seed === 11)).toBe(true);
  });

  it('keys the cache by every configuration key, so seed, dataset and steps all count', () => {
    const a = base();
    expect(canonicalConfigKey(a)).toBe(canonicalConfigKey({ ...a }));
    for (const change of [{ seed: 1 }, { dataset: 'envscaler-rl' }, { T: 7 }, { rho: 0.25 }, { scheduler: 'random' as const }]) {
      expect(canonicalConfigKey({ ...a, ...change })).not.toBe(canonicalConfigKey(a));
    }
  });
});

describe('running a sweep in-process', () => {
  const executor = () => new InProcessExecutor(loadRunWasmNode, loadDataset);

  it('gives each point exactly the single run of its configuration and seed (same fingerprint)', async () => {
    const def: SweepDefinition = {
      knobs: [{ key: 'rho', values: [0, 1] }],
      seeds: 2,
      base: base({ seed: 3 }),
      metrics: ['final', 'auc', 'mean_variance'],
      preset: null,
    };
    const result = await runSweep(def, executor());
    expect(result.points).toHaveLength(2);
    const { loaded, source } = await loadDataset('tiny');
    for (const point of result.points) {
      expect(point.seeds).toEqual([3, 4]);
      for (let k = 0; k < 2; k++) {
        const single = runSimulation(await loadRunWasmNode(), loaded, { ...def.base, rho: point.values[0] as number, seed: 3 + k }, source);
        expect(point.fingerprints[k]).toBe(single.fingerprint);
        expect(point.metrics.final!.values[k]).toBe(single.summary.heldoutFinal);
        expect(point.metrics.mean_variance!.values[k]).toBe(single.summary.meanVariance);
      }
    }
    // The knob reaches the runs: coverage-only and exploitation-only batches differ.
    expect(result.points[0].fingerprints[0]).not.toBe(result.points[1].fingerprints[0]);
  });

  it('serves a repeated sweep from the cache without a single run, and only runs the new points of an extended one', async () => {
    const cache = new RunCache();
    const ex = executor();
    const def: SweepDefinition = {
      knobs: [{ key: 'lambda_sim', values: [0, 0.08] }],
      seeds: 2,
      base: base({ T: 4 }),
      metrics: ['final', 'steps_to_random_best'],
      preset: null,
    };
    const first = await runSweep(def, ex, { cache });
    expect(ex.runs).toBe(6); // 2 points x 2 seeds + 2 random references
    expect(first.cachedRuns).toBe(0);
    const progress: boolean[] = [];
    const again = await runSweep(def, ex, { cache, onProgress: (p) => progress.push(p.cached) });
    expect(ex.runs).toBe(6);
    expect(again.cachedRuns).toBe(6);
    expect(progress).toEqual([true, true, true, true, true, true]);
    expect(sweepToCsv(again)).toBe(sweepToCsv(first));
    const extended = await runSweep({ ...def, knobs: [{ key: 'lambda_sim', values: [0, 0.08, 0.16] }] }, ex, { cache });
    expect(ex.runs).toBe(8);
    expect(extended.cachedRuns).toBe(6);
  });

  it("runs every point in the definition's world, and the cache keeps worlds apart", async () => {
    const cache = new RunCache();
    const ex = executor();
    const def: SweepDefinition = {
      knobs: [{ key: 'rho', values: [0, 1] }],
      seeds: 1,
      base: base({ T: 4 }),
      metrics: ['final'],
      preset: null,
    };
    const calibrated = await runSweep(def, ex, { cache });
    const other = await runSweep({ ...def, world: { partialCredit: 0, forgetting: 0 } }, ex, { cache });
    expect(other.cachedRuns).toBe(0); // not the calibrated world's runs
    const { loaded, source } = await loadDataset('tiny');
    for (const [k, point] of other.points.entries()) {
      const config = { ...def.base, rho: point.values[0] as number };
      const single = runSimulation(await loadRunWasmNode(), loaded, config, source, {
        model: { ...DEFAULT_SIM_MODEL, partialCredit: 0, forgetting: 0 },
      });
      expect(point.fingerprints[0]).toBe(single.fingerprint);
      expect(point.fingerprints[0]).not.toBe(calibrated.points[k].fingerprints[0]);
    }
    // Naming the world in another order is the same world: served from the cache.
    const again = await runSweep({ ...def, world: { forgetting: 0, partialCredit: 0 } }, ex, { cache });
    expect(again.cachedRuns).toBe(2);
    expect(() => validateSweep({ ...def, world: { breadth: 2 } }, 'sweep')).toThrow(/--world: breadth must be a number in \[0, 1\], got 2/);
    expect(() => validateSweep({ ...def, world: { breath: 0 } as never }, 'sweep')).toThrow(/--world: "breath" is not a world parameter/);
  });

  it('sweeps a world mechanism or constant: each point runs in its world, and so does its random reference', async () => {
    const def: SweepDefinition = {
      knobs: [{ key: 'w.partialCredit', values: [0, 0.5] }],
      seeds: 1,
      base: base({ T: 4 }),
      metrics: ['final', 'steps_to_random_best'],
      preset: null,
      world: { breadth: 0 },
    };
    const ex = executor();
    const result = await runSweep(def, ex);
    expect(result.runs).toBe(4); // 2 points + a random reference in each of their 2 worlds
    const { loaded, source } = await loadDataset('tiny');
    for (const point of result.points) {
      const model = { ...DEFAULT_SIM_MODEL, breadth: 0, partialCredit: point.values[0] as number };
      expect(point.world).toEqual({ breadth: 0, partialCredit: point.values[0] });
      expect(point.config).toEqual(def.base); // a world knob leaves the configuration alone
      expect(point.fingerprints[0]).toBe(runSimulation(await loadRunWasmNode(), loaded, def.base, source, { model }).fingerprint);
    }
    expect(result.points[0].fingerprints[0]).not.toBe(result.points[1].fingerprints[0]);
    expect(parseKnobText('w.repeatDiscount=0:0.2:0.1', 'cli', '--knob')).toEqual({ key: 'w.repeatDiscount', values: [0, 0.1, 0.2] });
    // the fitted constants too (gate sharpness, starting competence ...), within their bounds
    expect(parseKnobText('w.logitScale=3,5', 'cli', '--knob')).toEqual({ key: 'w.logitScale', values: [3, 5] });
    expect(knobDefault('w.logitScale')).toBe(DEFAULT_SIM_MODEL.logitScale);
    expect(inputError(() => parseKnobText('w.logitScale=0', 'cli', '--knob')).message).toMatch(
      /--knob: logitScale must be a number in \[0\.01, 100\], got 0/,
    );
    expect(inputError(() => parseKnobText('w.breadth=0,2', 'cli', '--knob')).message).toMatch(
      /--knob: breadth must be a number in \[0, 1\], got 2/,
    );
    expect(inputError(() => parseKnobText('w.gravity=1', 'cli', '--knob')).message).toMatch(
      /cannot sweep "w\.gravity" .*sweepable: .*w\.breadth/,
    );
  });

  it('streams each point once its seeds are done and stops handing out work when aborted', async () => {
    const ex = executor();
    const controller = new AbortController();
    const seen: number[] = [];
    let afterAbort = 0;
    const def: SweepDefinition = {
      knobs: [{ key: 'rho', values: [0, 0.5, 1] }],
      seeds: 1,
      base: base({ T: 3 }),
      metrics: ['final'],
      preset: null,
    };
    const result = await runSweep(def, ex, {
      signal: controller.signal,
      onProgress: () => (controller.signal.aborted ? afterAbort++ : undefined),
      onPoint: (p) => {
        seen.push(p.index);
        controller.abort();
      },
    });
    expect(result.cancelled).toBe(true);
    expect(seen).toEqual([0]);
    expect(afterAbort).toBe(0);
    expect(ex.runs).toBe(1);
    await expect(ex.run({ config: def.base })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
