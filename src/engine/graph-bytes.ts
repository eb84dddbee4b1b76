// A graph file's bytes, whichever format (SPEC 12 JSON or the binary format of
// docs/graph-binary.md): the one place that tells them apart. Used by the Node file reader and
// both browser workers.
import { decodeGraphBinary } from './graph-binary.ts';
import { loadGraphJson } from './graph-json.ts';
import type { LoadedGraph } from './types.ts';

/** True when the bytes start with the binary format's magic "ESGB". */
export function isGraphBinary(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x45 && bytes[1] === 0x53 && bytes[2] === 0x47 && bytes[3] === 0x42;
}

/** Decodes and validates a graph: binary when it starts with "ESGB", JSON text otherwise. */
export function decodeGraphBytes(bytes: Uint8Array, source: string): LoadedGraph {
  return isGraphBinary(bytes) ? decodeGraphBinary(bytes, source) : loadGraphJson(new TextDecoder().decode(bytes), source);
}
