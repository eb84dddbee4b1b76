// Loading a graph file straight into linear memory (src/engine/wasm/graph-file-node.ts): the same
// scores as loading the packed graph, and the binary reader's errors for damaged files.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/engine/errors.ts';
import { encodeGraphBinary } from '../src/engine/graph-binary.ts';
import { serializeGraphJson } from '../src/engine/graph-json.ts';
import { packGraph } from '../src/engine/pack.ts';
import { loadGraphFileInto } from '../src/engine/wasm/graph-file-node.ts';
import { loadEnvschedWasmNode } from '../src/engine/wasm/loader-node.ts';
import { WasmScheduler } from '../src/engine/wasm/scheduler.ts';
import { randomCase } from './helpers/random-case.ts';

let dir: string;
let scheduler: WasmScheduler;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'envsched-graph-file-'));
  scheduler = new WasmScheduler(await loadEnvschedWasmNode());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadGraphFileInto', () => {
  it('binary and JSON files give the scores of loadGraph on 40 random cases', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const c = randomCase(seed);
      scheduler.loadGraph(
        packGraph(c.graph),
        c.graph.tasks.map((t) => t.id),
      );
      scheduler.setHistory(c.observations);
      const expected = JSON.stringify(scheduler.score(c.config, c.step));
      const bin = join(dir, `g${seed}.graph.bin`);
      writeFileSync(bin, encodeGraphBinary(c.graph));
      const loaded = await loadGraphFileInto(scheduler, bin);
      expect(loaded.binary).toBe(true);
      expect(loaded.taskIds).toEqual(c.graph.tasks.map((t) => t.id));
      scheduler.setHistory(c.observations);
      expect(JSON.stringify(scheduler.score(c.config, c.step))).toBe(expected);
      const json = join(dir, `g${seed}.graph.json`);
      writeFileSync(json, serializeGraphJson(c.graph));
      expect((await loadGraphFileInto(scheduler, json)).binary).toBe(false);
      scheduler.setHistory(c.observations);
      expect(JSON.stringify(scheduler.score(c.config, c.step))).toBe(expected);
    }
  });

  it('names the field of a damaged binary file (checksum, length) and leaves no graph loaded', async () => {
    const c = randomCase(7);
    const bytes = encodeGraphBinary(c.graph);
    const corrupt = Uint8Array.from(bytes);
    corrupt[corrupt.length - 3] ^= 0x40;
    const path = join(dir, 'corrupt.graph.bin');
    writeFileSync(path, corrupt);
    const error = await loadGraphFileInto(scheduler, path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(String((error as Error).message)).toContain('checksum');
    expect(() => scheduler.setHistory([])).toThrow(/no graph loaded/);
    const truncated = join(dir, 'short.graph.bin');
    writeFileSync(truncated, readFileSync(path).subarray(0, bytes.length - 8));
    await expect(loadGraphFileInto(scheduler, truncated)).rejects.toThrow(/truncated/);
    await expect(loadGraphFileInto(scheduler, join(dir, 'missing.bin'))).rejects.toThrow(/no such file/);
  });
});
