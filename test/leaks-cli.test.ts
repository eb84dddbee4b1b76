// No leaks: 1,000 `envsched score` calls in one process (runCli in-process: each call
// reads the graph, streams the history, compiles and instantiates the WASM module, scores, and
// serialises) leave the heap and the resident set flat. Figures are printed and kept in
// docs/reliability.md. The bounds are generous (a leak of even 10 KB per call would cross the heap
// bound); the test is about growth with the number of calls, not about speed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGraphBinary } from '../src/engine/graph-binary.ts';
import { loadGraph, serializeGraphJson } from '../src/engine/graph-json.ts';
import { serializeHistoryJsonl } from '../src/engine/history.ts';
import { syntheticPool } from '../src/sim/synthetic-pool.ts';
import { runCli } from './helpers/cli.ts';
import { randomHistory, testRng } from './helpers/random-case.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CALLS = 1000;
const MiB = 2 ** 20;

let dir = '';
let args: string[][] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'envsched-leaks-'));
  const graph = syntheticPool({
    envs: 6,
    tasksPerEnv: 8,
    mCross: 16,
    pCross: 8,
    heldoutSuites: 1,
    heldoutEnvs: 1,
    heldoutTasksPerEnv: 2,
    seed: 5,
  });
  const json = join(dir, 'pool.graph.json');
  const bin = join(dir, 'pool.graph.bin');
  const history = join(dir, 'history.jsonl');
  const config = join(dir, 'config.json');
  await writeFile(json, serializeGraphJson(graph));
  await writeFile(bin, encodeGraphBinary(loadGraph(graph)));
  await writeFile(
    history,
    serializeHistoryJsonl(
      randomHistory(testRng(3), graph),
      graph.tasks.map((t) => t.id),
    ),
  );
  await writeFile(config, JSON.stringify({ B: 8, K_within: 4 }));
  // Alternate the JSON and binary readers, with and without a configuration, and one refused call
  // in ten (a bad --step), so the error path is measured too.
  args = [
    ['score', '--graph', json, '--history', history],
    ['score', '--graph', bin, '--history', history, '--config', config],
    ['score', '--graph', bin, '--history', history, '--step', '3'],
  ];
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function settle(): Promise<{ heap: number; rss: number; external: number }> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers };
}

describe(`no leaks: ${CALLS} CLI score calls in one process`, () => {
  it('heap and resident set stay flat', async () => {
    const samples: { calls: number; heap: number; rss: number; external: number }[] = [];
    let ok = 0;
    let refused = 0;
    for (let call = 1; call <= CALLS; call++) {
      const bad = call % 10 === 0;
      const result = await runCli(
        bad ? ['score', '--graph', args[0][2], '--history', args[0][4], '--step', '-2'] : args[call % args.length],
      );
      if (bad) {
        expect(result.code).toBe(2);
        refused++;
      } else {
        expect(result.code, result.stderr).toBe(0);
        ok++;
      }
      if (call === 100 || call === 250 || call === 500 || call === CALLS) samples.push({ calls: call, ...(await settle()) });
    }
    const [base] = samples;
    const last = samples[samples.length - 1];
    const fmt = (b: number) => `${(b / MiB).toFixed(1)}`;
    console.log(
      `[leaks] ${CALLS} score calls (${ok} ok, ${refused} refused) in one process; after gc, MiB: ` +
        samples.map((s) => `@${s.calls} heap ${fmt(s.heap)} rss ${fmt(s.rss)} external ${fmt(s.external)}`).join('; ') +
        `; growth ${base.calls}->${last.calls}: heap ${fmt(last.heap - base.heap)}, rss ${fmt(last.rss - base.rss)}, ` +
        `${((last.heap - base.heap) / (last.calls - base.calls) / 1024).toFixed(2)} KiB heap per call`,
    );
    // 900 calls after the warm-up: a leak of 10 KiB per call would add ~9 MiB of heap.
    expect(last.heap - base.heap).toBeLessThan(8 * MiB);
    expect(last.external - base.external).toBeLessThan(16 * MiB);
    expect(last.rss - base.rss).toBeLessThan(96 * MiB);
  }, 300_000);
});
