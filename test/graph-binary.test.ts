import { describe, expect, it } from 'vitest';
import { decodeGraphBinary, encodeGraphBinary } from '../src/engine/graph-binary.ts';
import { loadGraph, unpackGraph } from '../src/engine/graph-json.ts';
import { InputError } from '../src/engine/errors.ts';
import { loadSpecVector } from './helpers/spec-vectors.ts';

const graph = loadSpecVector('within-only').graph;

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('binary graph format', () => {
  it('round-trips a graph exactly (every double, id and text)', () => {
    const bytes = encodeGraphBinary(graph);
    expect(unpackGraph(decodeGraphBinary(bytes, 'g.bin'))).toEqual(graph);
  });

  it('is byte-identical for the same graph', () => {
    expect(Buffer.from(encodeGraphBinary(graph)).equals(Buffer.from(encodeGraphBinary(loadGraph(graph))))).toBe(true);
  });

  it('refuses every truncation with a named place', () => {
    const bytes = encodeGraphBinary(graph);
    for (const cut of [0, 10, 63, 64, 200, bytes.length - 1]) {
      const error = errorOf(() => decodeGraphBinary(bytes.subarray(0, cut), 'g.bin'));
      expect(error.message).toMatch(/^g\.bin:(header|length):/);
    }
  });

  it('refuses a flipped byte through the checksum', () => {
    const bytes = encodeGraphBinary(graph).slice();
    bytes[bytes.length - 3] ^= 0x40;
    expect(errorOf(() => decodeGraphBinary(bytes, 'g.bin')).place).toBe('checksum');
  });

  it('refuses a huge declared size before allocating', () => {
    const bytes = encodeGraphBinary(graph).slice();
    new DataView(bytes.buffer).setUint32(12, 0xffffffff, true);
    expect(errorOf(() => decodeGraphBinary(bytes, 'g.bin')).place).toBe('header.nTasks');
  });

  it('validates list content like the JSON reader (out-of-range index, NaN similarity)', () => {
    // Encoding a LoadedGraph does not re-validate it, which lets the test forge corrupt-but-well-framed files.
    const loaded = loadGraph(graph);
    const badIndex = structuredClone(loaded);
    badIndex.packed.cross.index[0] = graph.tasks.length + 5;
    expect(errorOf(() => decodeGraphBinary(encodeGraphBinary(badIndex), 'g.bin')).message).toMatch(
      /cross\[0\]\[0\]: neighbour index \d+ is out of range/,
    );
    const badSim = structuredClone(loaded);
    badSim.packed.within.sim[1] = Number.NaN;
    expect(errorOf(() => decodeGraphBinary(encodeGraphBinary(badSim), 'g.bin')).message).toMatch(
      /within\[0\]\[1\]: similarity must be a finite number/,
    );
  });
});
