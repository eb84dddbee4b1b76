// Property tests of the scale paths of the WASM scheduler (docs/wasm-layout.md), against the
// TypeScript reference on random cases, bit for bit like test/wasm.reference.test.ts:
// - incremental neighbour tracking: one instance keeps its neighbour lists across scores at steps
//   going forwards AND backwards, across K_within / K_cross changes, and over long histories
//   (many steps, few tasks observed per step, so lists change late);
// - the q-ordered coverage search used for large coverage groups (forced on small cases here).
import { afterAll, describe, expect, it } from 'vitest';
import type { Observation, Scores } from '../src/engine/types.ts';
import { randomCase, randomConfig, randomGraph, testRng } from './helpers/random-case.ts';
import { closeTo } from './helpers/scores-compare.ts';
import { wasmOracle } from './helpers/wasm-oracle.ts';

const oracle = wasmOracle({ testBuild: true });

afterAll(() => {
  oracle.hooks.sched_set_large_group(4096);
});

/** Every number to the bit, and the same batch, relaxations and flags. */
function mismatch(actual: Scores, expected: Scores): string | null {
  const same = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined ? a === b : Object.is(a, b) || (closeTo(a, b) && a === b);
  for (const hl of ['long', 'short'] as const) {
    for (const y of ['v', 'm', 'd'] as const)
      if (!same(actual.reference[hl]?.[y], expected.reference[hl]?.[y])) return `reference.${hl}.${y}`;
  }
  for (let i = 0; i < expected.tasks.length; i++) {
    const a = actual.tasks[i];
    const e = expected.tasks[i];
    for (const hl of ['long', 'short'] as const) {
      for (const y of ['v', 'm', 'd', 'u'] as const)
        if (!same(a[hl]?.[y], e[hl]?.[y])) return `tasks[${i}].${hl}.${y}: ${a[hl]?.[y]} vs ${e[hl]?.[y]}`;
    }
    if (!same(a.q, e.q)) return `tasks[${i}].q: ${a.q} vs ${e.q}`;
    if (a.progressExcluded !== e.progressExcluded || a.removed !== e.removed) return `tasks[${i}] filters`;
  }
  if (JSON.stringify(actual.batch) !== JSON.stringify(expected.batch))
    return `batch ${JSON.stringify(actual.batch)} vs ${JSON.stringify(expected.batch)}`;
  if (JSON.stringify(actual.relaxed) !== JSON.stringify(expected.relaxed)) return 'relaxed';
  return null;
}

/** A long history: 20-60 steps, a few tasks per step, so tasks keep getting observed for the first time. */
function longHistory(seed: number, nTasks: number): Observation[] {
  const rng = testRng(seed);
  const steps = rng.int(20, 60);
  const perStep = rng.int(1, 3);
  const k = rng.pick([1, 4, 8]);
  const out: Observation[] = [];
  for (let step = 0; step < steps; step++) {
    if (rng.chance(0.1)) continue;
    const chosen = new Set<number>();
    for (let n = 0; n < perStep; n++) chosen.add(rng.int(0, nTasks - 1));
    for (const task of [...chosen].sort((a, b) => a - b)) {
      const rewards = Array.from({ length: k }, () => Math.round(rng.next() * 4) / 4);
      const o: Observation = { step, task, rewards };
      if (rng.chance(0.02)) o.flags = rewards.map((r) => r >= 0.5);
      out.push(o);
    }
  }
  return out;
}

describe('incremental neighbour tracking equals a fresh computation', () => {
  it('scores at steps in random order (forwards and backwards), with K changes, over long histories', () => {
    const failures: string[] = [];
    let scored = 0;
    let partial = 0;
    for (let seed = 20_001; seed <= 20_150; seed++) {
      const rng = testRng(seed);
      const graph = randomGraph(rng, { maxEnvs: 8, maxTasksPerEnv: 7 });
      const observations = longHistory(seed, graph.tasks.length);
      const last = observations.reduce((m, o) => Math.max(m, o.step), -1);
      oracle.load(graph, observations);
      let config = randomConfig(rng, graph.tasks.length);
      for (let round = 0; round < 12; round++) {
        if (rng.chance(0.2)) config = { ...config, K_within: rng.int(0, 6), K_cross: rng.int(0, 6) };
        const t = rng.int(0, last + 2);
        const diff = mismatch(oracle.scheduler.score(config, t), oracle.referenceScore(graph, observations, config, t));
        scored++;
        const rebuilt = oracle.hooks.sched_neighbours_rebuilt();
        if (rebuilt < graph.tasks.length) partial++;
        if (diff) failures.push(`seed ${seed} round ${round} t=${t}: ${diff}`);
      }
    }
    console.log(`tracker: ${scored} scores, ${partial} with a partial neighbour rebuild, ${failures.length} disagreements`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(partial).toBeGreaterThan(scored / 4); // the incremental path really ran
  });

  it('appending step by step over a long history matches the reference at every step', () => {
    const failures: string[] = [];
    let partial = 0;
    let scored = 0;
    for (let seed = 30_001; seed <= 30_080; seed++) {
      const rng = testRng(seed);
      const graph = randomGraph(rng, { maxEnvs: 8, maxTasksPerEnv: 7 });
      const observations = longHistory(seed, graph.tasks.length);
      const config = randomConfig(rng, graph.tasks.length);
      const last = observations.reduce((m, o) => Math.max(m, o.step), -1);
      oracle.load(graph, []);
      for (let t = 0; t <= last + 1; t++) {
        const groups = observations.filter((o) => o.step === t - 1);
        if (groups.length > 0) oracle.scheduler.appendStep(t - 1, groups);
        const diff = mismatch(oracle.scheduler.score(config, t), oracle.referenceScore(graph, observations, config, t));
        scored++;
        if (oracle.hooks.sched_neighbours_rebuilt() < graph.tasks.length) partial++;
        if (diff) failures.push(`seed ${seed} t=${t}: ${diff}`);
      }
    }
    console.log(`tracker, appended: ${scored} scores, ${partial} partial rebuilds, ${failures.length} disagreements`);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(partial).toBeGreaterThan(scored / 2);
  });
});

describe('the q-ordered coverage search equals the group scan', () => {
  it('1500 random cases with the large-group path forced (and 16-bit radix digits)', () => {
    oracle.hooks.sched_set_large_group(0);
    oracle.hooks.sched_set_radix_bits(16);
    const failures: string[] = [];
    let coverage = 0;
    try {
      for (let seed = 40_001; seed <= 41_500; seed++) {
        const c = randomCase(seed);
        oracle.load(c.graph, c.observations);
        const expected = oracle.referenceScore(c.graph, c.observations, c.config, c.step);
        const diff = mismatch(oracle.scheduler.score(c.config, c.step), expected);
        if (expected.batch.some((p) => p.phase === 'coverage')) coverage++;
        if (diff) failures.push(`seed ${seed}: ${diff}`);
      }
    } finally {
      oracle.hooks.sched_set_large_group(4096);
      oracle.hooks.sched_set_radix_bits(0);
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(coverage).toBeGreaterThan(500);
  });
});
