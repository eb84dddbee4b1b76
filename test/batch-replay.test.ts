// The worker's fast "why this task" replay (src/worker/batch-replay.ts) against the reference's
// replay (src/reference/why.ts), the oracle: on random cases (tight caps, relaxations, penalties,
// the coverage restriction, the cold start) and on steps of a simulated run of the bundled
// 2,550-task pool, every pick's explanation and every left-out reason is the same, number for number.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import { unpackGraph } from '../src/engine/graph-json.ts';
import type { Config, Graph } from '../src/engine/types.ts';
import { analyse } from '../src/reference/index.ts';
import { replayBatch, type BatchFacts } from '../src/reference/why.ts';
import { loadDataset } from '../src/sim/dataset-node.ts';
import { loadRunWasmNode } from '../src/sim/wasm-node.ts';
import { fastReplayBatch } from '../src/worker/batch-replay.ts';
import { RunSession } from '../src/worker/run-session.ts';
import { randomCase } from './helpers/random-case.ts';

const CASES = 400;

/** Compares the two replays of one step; returns what the case exercised. */
function expectSameReplay(graph: Graph, config: Config, a: BatchFacts, label: string) {
  const fast = fastReplayBatch(graph, config, a);
  const reference = replayBatch(graph, config, a);
  expect(fast.batch, label).toEqual(reference.batch);
  const kinds = new Set<string>();
  for (let i = 0; i < graph.tasks.length; i++) {
    const reason = fast.leftOutOf(i);
    expect(reason, `${label}, task ${i}`).toEqual(reference.leftOutOf(i));
    if (reason) kinds.add(reason.kind);
  }
  return { kinds, relaxed: fast.batch.relaxed.length > 0 };
}

describe('the fast batch replay', () => {
  it('explains every pick and every task left out exactly as the reference replay does', () => {
    const kinds = new Set<string>();
    let relaxed = 0;
    for (let seed = 1; seed <= CASES; seed++) {
      const c = randomCase(seed);
      const got = expectSameReplay(c.graph, c.config, analyse(c.graph, c.observations, c.config, c.step), `seed ${seed}`);
      got.kinds.forEach((k) => kinds.add(k));
      if (got.relaxed) relaxed++;
    }
    // The cases reach every kind of reason and many relaxations.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['cap', 'cold-start', 'penalty', 'rank', 'removed', 'restriction']));
    expect(relaxed).toBeGreaterThan(20);
  });

  it('agrees with the reference on the bundled pool, 64 picks over 2,550 tasks', async () => {
    const { loaded, source } = await loadDataset('envscaler-rl');
    const config: Config = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'] };
    const session = new RunSession(await loadRunWasmNode(), loaded, { ...config, T: 12 }, 1, source);
    while (!session.done) session.step();
    const graph = unpackGraph(loaded);
    for (const step of [0, 5, 12]) {
      expectSameReplay(graph, config, analyse(graph, session.observations, config, step), `step ${step}`);
    }
  }, 60_000);
});
