// The library API as a Node user calls it: `createScheduler` over a graph file, then observe /
// next / scores / history, in-process.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScheduler } from '../src/api/index.ts';
import { InputError } from '../src/engine/errors.ts';

const TINY = join(import.meta.dirname, '..', 'datasets/tiny/tiny.graph.bin');
const rewards = (step: number, index: number) => [0, 1, ((step + index) % 4) / 4, 1];

describe('createScheduler', () => {
  it('observe is atomic: a bad group anywhere in a step leaves the history as it was', async () => {
    const s = await createScheduler({ graph: TINY, config: { B: 6 } });
    const first = s.next(0);
    s.observe(
      0,
      first.batch.map((p) => ({ task: p.task, rewards: rewards(0, p.index) })),
    );
    const before = s.state();
    const groups = s.next(1).batch.map((p) => ({ task: p.task, rewards: rewards(1, p.index) }));
    groups[4] = { task: groups[4].task, rewards: [0.5, 7] };
    expect(() => s.observe(1, groups)).toThrow(InputError);
    expect(() => s.observe(1, groups)).toThrow(/observe:groups\[4\]\.rewards\[1\]: reward must be a finite number in \[0, 1\], got 7/);
    expect(s.state()).toEqual(before);
    expect(s.history()).toHaveLength(6);
  });

  it('next is a pure function of the step, the history before it and the configuration', async () => {
    const s = await createScheduler({ graph: TINY, config: { B: 5 } });
    const answers: string[] = [];
    for (let t = 0; t < 6; t++) {
      const n = s.next(t, { extras: 3 });
      answers.push(JSON.stringify(n.batch));
      expect(n.extras).toHaveLength(3);
      expect(n.extras.some((e) => n.batch.some((p) => p.task === e.task))).toBe(false);
      s.observe(
        t,
        n.batch.map((p) => ({ task: p.task, rewards: rewards(t, p.index) })),
      );
    }
    // asked again later, with more history stored, the old steps give the old answers
    for (let t = 0; t < 6; t++) expect(JSON.stringify(s.next(t, { extras: 3 }).batch)).toBe(answers[t]);
    // and a fresh scheduler with the same history agrees
    const again = await createScheduler({ graph: TINY, config: { B: 5 } });
    const byStep = new Map<number, { task: string; rewards: number[] }[]>();
    for (const h of s.history()) byStep.set(h.step, [...(byStep.get(h.step) ?? []), { task: h.task, rewards: h.rewards }]);
    for (const [step, groups] of byStep) again.observe(step, groups);
    expect(JSON.stringify(again.next(6).batch)).toBe(JSON.stringify(s.next(6).batch));
    expect(again.state().historyDigest).toBe(s.state().historyDigest);
    // a configuration change is an input of next too
    s.setConfig({ lambda_sim: 0, rho: 1 });
    expect(s.next(6).batch.every((p) => p.phase === 'coverage')).toBe(true);
  });

  it('runs ahead of the history for asynchronous training, and says by how much', async () => {
    const s = await createScheduler({ graph: TINY, config: { B: 4 } });
    s.observe(
      0,
      s.next(0).batch.map((p) => ({ task: p.task, rewards: rewards(0, p.index) })),
    );
    const ahead = s.next(3);
    expect(ahead.step).toBe(3);
    expect(ahead.metrics['envsched/history/lag']).toBe(2);
    expect(s.next(1).metrics['envsched/history/lag']).toBe(0);
  });

  it('refuses what it cannot serve, naming the field', async () => {
    await expect(createScheduler({ graph: TINY, config: { scheduler: 'dapo' } })).rejects.toThrow(/config:scheduler: dapo is not served/);
    await expect(createScheduler({ graph: TINY, config: { rho: 3 } as never })).rejects.toThrow(/config:rho: must be in \[0, 1\]/);
    const s = await createScheduler({ graph: TINY });
    expect(() => s.scores(0, ['nope'])).toThrow(/scores:tasks\[0\]: unknown task id "nope"/);
    expect(() => s.next(0, { extras: -1 })).toThrow(/next:extras: must be an integer/);
  });
});

describe('topByKey (the ranked extras)', () => {
  it('equals a full sort by key descending, ties by lower index, for any count', async () => {
    const { topByKey } = await import('../src/api/top.ts');
    let x = 7;
    const keys = Array.from({ length: 500 }, () => ((x = (x * 48271) % 2147483647) % 40) / 8); // many ties
    const keep = (i: number) => i % 7 !== 3;
    const sorted = keys
      .map((_, i) => i)
      .filter(keep)
      .sort((a, b) => keys[b] - keys[a] || a - b);
    for (const count of [0, 1, 5, 64, 420, 1000])
      expect(topByKey(keys.length, count, keep, (i) => keys[i])).toEqual(sorted.slice(0, count));
  });
});
