// Edge cases of the WASM scheduler (release build): pools smaller than the batch, single-task
// environments, empty histories, gaps, binding caps, everything removed or excluded, bad appends.
// Where a number is involved, the TS reference (src/reference) is the oracle.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import { packGraph } from '../src/engine/pack.ts';
import { referenceScore } from '../src/reference/index.ts';
import type { Config, Graph, Observation, Scores } from '../src/engine/types.ts';
import { loadEnvschedWasmNode } from '../src/engine/wasm/loader-node.ts';
import { WasmScheduler } from '../src/engine/wasm/scheduler.ts';
import { tinyGraph } from './helpers/reference-graphs.ts';
import { closeTo } from './helpers/scores-compare.ts';

let scheduler: WasmScheduler;
beforeAll(async () => {
  scheduler = new WasmScheduler(await loadEnvschedWasmNode());
});

const config = (over: Partial<Config>): Config => ({ ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha], ...over });

/** A similarity that varies by pair (so no accidental ties) and stays symmetric. */
const sim = (i: number, j: number) => 0.2 + 0.6 * (((Math.min(i, j) * 7 + Math.max(i, j) * 13) % 17) / 17);

function load(graph: Graph, observations: Observation[]): void {
  scheduler.loadGraph(
    packGraph(graph),
    graph.tasks.map((t) => t.id),
  );
  scheduler.setHistory(observations);
}

/** Scores with WASM and the reference and checks they agree; returns the WASM scores. */
function scoreBoth(graph: Graph, observations: Observation[], cfg: Config, step?: number): Scores {
  load(graph, observations);
  const actual = scheduler.score(cfg, step);
  const expected = referenceScore(graph, observations, cfg, step);
  expect(actual.batch).toEqual(expected.batch);
  expect(actual.relaxed).toEqual(expected.relaxed);
  expect(Object.keys(actual.reference)).toEqual(Object.keys(expected.reference));
  actual.tasks.forEach((row, i) => {
    const e = expected.tasks[i];
    expect([row.removed, row.progressExcluded]).toEqual([e.removed, e.progressExcluded]);
    expect(row.q === undefined).toBe(e.q === undefined);
    if (row.q !== undefined && e.q !== undefined) {
      expect(closeTo(row.q, e.q)).toBe(true);
      expect(closeTo(row.long!.v, e.long!.v)).toBe(true);
      expect(closeTo(row.short!.m, e.short!.m)).toBe(true);
    }
  });
  return actual;
}

/** Rewards whose mean is about `m` (8 rollouts). */
function group(step: number, task: number, m: number, flags?: boolean[]): Observation {
  const hits = Math.round(m * 8);
  const rewards = Array.from({ length: 8 }, (_, k) => (k < hits ? 1 : 0));
  return flags ? { step, task, rewards, flags } : { step, task, rewards };
}

describe('WASM scheduler edge cases', () => {
  it('a pool smaller than the batch ends short after relaxing every cap, each task once', () => {
    const graph = tinyGraph({ envOf: [0, 0, 1], full: sim });
    const history = [group(0, 0, 0.5), group(0, 2, 0.25), group(1, 1, 0.75)];
    const scores = scoreBoth(graph, history, config({ B: 10, rho: 0.5 }));
    expect(scores.batch).toHaveLength(3);
    expect(new Set(scores.batch.map((b) => b.id)).size).toBe(3);
    expect(scores.relaxed).toEqual(['C_task', 'C3', 'C1']);
  });

  it('a single-task environment: its own representative at the cold start, shrunk to the reference later', () => {
    const graph = tinyGraph({ envOf: [0, 0, 0, 1, 2, 2], full: sim });
    const cold = scoreBoth(graph, [], config({ B: 3 }));
    expect(cold.batch.map((b) => b.id)).toContain('t3');
    expect(cold.batch.every((b) => b.phase === 'cold-start')).toBe(true);
    const history = [group(0, 0, 0.5), group(0, 3, 1), group(1, 4, 0.25), group(1, 3, 0.875)];
    const scores = scoreBoth(graph, history, config({ B: 4, K_cross: 0 }));
    expect(scores.tasks[3].long?.m).toBeGreaterThan(0.5); // its own high rewards dominate
  });

  it('an empty history is a cold start at step 0 and at any later step: no predictions, empty reference', () => {
    const graph = tinyGraph({ envOf: [0, 0, 1, 1, 1, 2], full: sim });
    for (const step of [0, 5]) {
      const scores = scoreBoth(graph, [], config({ B: 4 }), step);
      expect(scores.step).toBe(step);
      expect(scores.reference).toEqual({});
      expect(scores.tasks.every((t) => t.q === undefined && t.long === undefined)).toBe(true);
      expect(scores.batch.map((b) => b.phase)).toEqual(['cold-start', 'cold-start', 'cold-start', 'cold-start']);
    }
  });

  it('the cold start drops its two-per-environment cap when nothing else is left', () => {
    const graph = tinyGraph({ envOf: [0, 0, 0, 0, 1], full: sim });
    const scores = scoreBoth(graph, [], config({ B: 5 }));
    expect(scores.batch).toHaveLength(5);
  });

  it('gaps: scoring step t ignores every observation at s >= t, whatever was appended', () => {
    const graph = tinyGraph({ envOf: [0, 0, 1, 1, 2], full: sim });
    const history = [group(0, 0, 0.5), group(0, 2, 0.25), group(3, 1, 0.75), group(3, 0, 0.125), group(7, 4, 1), group(7, 2, 0.5)];
    const early = scoreBoth(graph, history, config({ B: 3 }), 5);
    const truncated = scoreBoth(
      graph,
      history.filter((o) => o.step < 5),
      config({ B: 3 }),
      5,
    );
    expect(early).toEqual(truncated);
    const late = scoreBoth(graph, history, config({ B: 3 }), 8);
    expect(late.tasks[4].long?.m).not.toBe(early.tasks[4].long?.m);
  });

  it('binding caps are relaxed in order C_task, C3, C1 and the batch still fills', () => {
    const graph = tinyGraph({ envOf: [0, 0, 0, 1, 1, 1], full: sim });
    // every task selected at both previous steps: C_task = 1 and C3 = 1 bind everywhere
    const history = [0, 1].flatMap((s) => [0, 1, 2, 3, 4, 5].map((i) => group(s, i, 0.25 + 0.1 * i)));
    const scores = scoreBoth(graph, history, config({ B: 6, C1: 1, C3: 1, C_task: 1 }));
    expect(scores.relaxed).toEqual(['C_task', 'C3', 'C1']);
    expect(scores.batch).toHaveLength(6);
    const partly = scoreBoth(graph, history, config({ B: 2, C1: 1, C3: 20, C_task: 1 }));
    expect(partly.relaxed).toEqual(['C_task']);
  });

  it('every task removed by the identifier filter: an empty batch after every relaxation', () => {
    const graph = tinyGraph({ envOf: [0, 0, 1], full: sim });
    const flagged = (s: number, i: number) => ({ step: s, task: i, rewards: [0.5, 0.25], flags: [true, false] });
    const scores = scoreBoth(graph, [flagged(0, 0), flagged(0, 1), flagged(1, 2)], config({ B: 2 }));
    expect(scores.tasks.every((t) => t.removed)).toBe(true);
    expect(scores.batch).toEqual([]);
    expect(scores.relaxed).toEqual(['C_task', 'C3', 'C1']);
  });

  it('a flagged rollout below 0.5 removes nothing', () => {
    const graph = tinyGraph({ envOf: [0, 0, 1], full: sim });
    const scores = scoreBoth(graph, [{ step: 0, task: 0, rewards: [0.25, 1], flags: [true, false] }], config({ B: 2 }));
    expect(scores.tasks[0].removed).toBe(false);
  });

  it('tasks excluded by the progress filter: exploitation ends short, coverage still takes them', () => {
    const graph = tinyGraph({ envOf: [0, 0, 1, 1], full: sim });
    // accelerating decline: every later transition falls below the fit on the earlier ones
    const history: Observation[] = [];
    for (let s = 0; s < 12; s++)
      for (let i = 0; i < 4; i++) history.push({ step: s, task: i, rewards: [Math.max(0, 1 - (s / 11) ** 3 - 0.01 * i), 1] });
    const exploit = scoreBoth(graph, history, config({ B: 3, scheduler: 'exploitation-only', C3: 100, C_task: 100 }));
    expect(exploit.tasks.every((t) => t.progressExcluded)).toBe(true);
    expect(exploit.batch).toEqual([]);
    const cover = scoreBoth(graph, history, config({ B: 3, scheduler: 'coverage-only', C3: 100, C_task: 100 }));
    expect(cover.batch.map((b) => b.phase)).toEqual(['coverage', 'coverage', 'coverage']);
  });

  it('refuses appends out of step order and a task twice in one step, keeping the stored history', () => {
    const graph = tinyGraph({ envOf: [0, 0, 1], full: sim });
    load(graph, [group(0, 0, 0.5), group(2, 1, 0.5)]);
    expect(() => scheduler.appendStep(1, [group(1, 2, 0.5)])).toThrow(/not after the last stored step/);
    expect(() => scheduler.appendStep(3, [group(3, 2, 0.5), group(3, 2, 0.25)])).toThrow(/at most once per step/);
    scheduler.appendStep(3, [group(3, 2, 0.5)]);
    const scores = scheduler.score(config({ B: 2 }));
    expect(scores.step).toBe(4);
    expect(scores).toEqual(referenceScore(graph, [group(0, 0, 0.5), group(2, 1, 0.5), group(3, 2, 0.5)], config({ B: 2 }), 4));
  });

  it('refuses schedulers that have no scores (SPEC 12)', () => {
    const graph = tinyGraph({ envOf: [0, 1], full: sim });
    load(graph, []);
    expect(() => scheduler.score(config({ scheduler: 'random' }))).toThrow(/not scorable/);
  });

  it('exposes the raw per-task arrays as views over WASM memory (no copies)', () => {
    const graph = tinyGraph({ envOf: [0, 0, 1, 1], full: sim });
    load(graph, [group(0, 0, 0.5), group(0, 3, 0.25)]);
    const scores = scheduler.score(config({ B: 2 }));
    const views = scheduler.views();
    expect(views.q.buffer).toBe(scheduler.wasm.memory.buffer);
    expect(Array.from(views.q)).toEqual(scores.tasks.map((t) => t.q));
    expect(Array.from(views.batchTask, (i) => graph.tasks[i].id)).toEqual(scores.batch.map((b) => b.id));
  });
});

describe('linear memory at the 4 GiB edge', () => {
  it('refuses an allocation past the address space instead of handing out memory it wraps around to', async () => {
    const wasm = await loadEnvschedWasmNode(); // a fresh instance: this one is used up afterwards
    const first = wasm.exports.mem_alloc(64);
    new Uint8Array(wasm.memory.buffer, first, 64).fill(7);
    // Half a GiB at a time: the memory grows (or the host refuses, a trap) until the bump pointer
    // would pass 4 GiB, where the allocator must stop rather than wrap to the start.
    let refusal: unknown = null;
    const handed: number[] = [];
    for (let i = 0; i < 12 && refusal === null; i++) {
      try {
        handed.push(wasm.exports.mem_alloc(0x20000000) >>> 0); // an address above 2 GiB comes back as a negative i32
      } catch (error) {
        refusal = error;
      }
    }
    expect(refusal, 'no allocation was refused within 6 GiB').not.toBeNull();
    expect(String(refusal)).toMatch(/out of memory: the 4 GiB WebAssembly address space is used up|unreachable/);
    expect(handed.every((p) => p > first)).toBe(true); // nothing handed out overlaps the first buffer
    expect([...new Uint8Array(wasm.memory.buffer, first, 64)]).toEqual(new Array(64).fill(7));
  });
});
