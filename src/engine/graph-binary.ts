// The compact binary graph (`*.graph.bin`): what the app and the CLI load fast. Layout in
// docs/graph-binary.md. It holds exactly what the JSON file holds; the metadata (ids, names,
// tools, texts, hidden parameters) is a UTF-8 JSON block, the lists are raw little-endian arrays.
import { InputError } from './errors.ts';
import { validatePacked } from './graph-validate.ts';
import { loadGraph, readGraphMeta } from './graph-json.ts';
import { parseJsonText } from './json-text.ts';
import type { CsrList, Graph, LoadedGraph } from './types.ts';

const MAGIC = 0x42475345; // "ESGB" read as a little-endian u32
const VERSION = 1;
const HEADER_BYTES = 64;
/** Refuse declared sizes beyond these before allocating anything (a corrupt header must not OOM). */
const MAX_TASKS = 50_000_000;
const MAX_EDGES = 2_000_000_000;

// Arithmetic, not `& ~7`: declared sizes reach 2^35 and bitwise operators wrap at 2^31.
const align8 = (n: number) => Math.ceil(n / 8) * 8;

export const GRAPH_HEADER_BYTES = HEADER_BYTES;

function sectionSizes(nTasks: number, nnz: number) {
  const offsets = align8((nTasks + 1) * 4);
  const index = align8(nnz * 4);
  const sim = nnz * 8;
  return { offsets, index, sim, total: offsets + index + sim };
}

export const FNV1A_START = 0x811c9dc5;

/** Running FNV-1a 32-bit: the checksum of every byte after the header (detects truncation and corruption). */
export function fnv1aUpdate(hash: number, bytes: Uint8Array): number {
  let h = hash;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  return fnv1aUpdate(FNV1A_START, bytes.subarray(start, end));
}

export interface GraphHeader {
  nTasks: number;
  metaLength: number;
  /** Edges of within, cross, fullCross. */
  nnz: number[];
  /** Byte sizes of each list's offsets / index / sim arrays (8-aligned), in file order. */
  sections: ReturnType<typeof sectionSizes>[];
  checksum: number;
}

/**
 * Reads and checks the header of a binary graph whose file is `fileBytes` long: magic, version,
 * declared sizes (refused before anything is allocated) and the exact file length they imply.
 */
export function readGraphHeader(head: Uint8Array, fileBytes: number, source: string): GraphHeader {
  if (fileBytes < HEADER_BYTES || head.length < HEADER_BYTES)
    throw new InputError(source, 'header', `truncated: ${fileBytes} bytes, a graph header alone is ${HEADER_BYTES}`);
  const view = new DataView(head.buffer, head.byteOffset, HEADER_BYTES);
  if (view.getUint32(0, true) !== MAGIC) throw new InputError(source, 'header.magic', 'not an EnvSched binary graph (expected "ESGB")');
  const version = view.getUint32(4, true);
  if (version !== VERSION)
    throw new InputError(source, 'header.version', `unsupported binary graph version ${version} (this build reads ${VERSION})`);
  if (view.getUint32(8, true) !== HEADER_BYTES) throw new InputError(source, 'header.headerBytes', 'unexpected header size');
  const nTasks = view.getUint32(12, true);
  const metaLength = view.getUint32(20, true);
  const nnz = [0, 1, 2].map((k) => view.getUint32(24 + 4 * k, true));
  if (nTasks === 0 || nTasks > MAX_TASKS)
    throw new InputError(source, 'header.nTasks', `declares ${nTasks} tasks (allowed 1 to ${MAX_TASKS})`);
  nnz.forEach((count, k) => {
    if (count > MAX_EDGES)
      throw new InputError(source, `header.${['within', 'cross', 'fullCross'][k]}Edges`, `declares ${count} edges (at most ${MAX_EDGES})`);
  });
  const sections = nnz.map((count) => sectionSizes(nTasks, count));
  const expected = HEADER_BYTES + align8(metaLength) + sections.reduce((a, s) => a + s.total, 0);
  if (fileBytes !== expected) {
    throw new InputError(
      source,
      'length',
      fileBytes < expected
        ? `truncated: ${fileBytes} bytes, the header declares ${expected}`
        : `${fileBytes - expected} unexpected bytes after the declared ${expected}`,
    );
  }
  return { nTasks, metaLength, nnz, sections, checksum: view.getUint32(40, true) };
}

export function encodeGraphBinary(input: Graph | LoadedGraph): Uint8Array {
  const loaded = 'packed' in input ? input : loadGraph(input);
  const { meta, packed } = loaded;
  const metaBytes = new TextEncoder().encode(JSON.stringify(meta));
  const lists = [packed.within, packed.cross, packed.fullCross];
  const n = packed.nTasks;
  const sizes = lists.map((l) => sectionSizes(n, l.index.length));
  const total = HEADER_BYTES + align8(metaBytes.length) + sizes.reduce((a, s) => a + s.total, 0);
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, HEADER_BYTES, true);
  view.setUint32(12, n, true);
  view.setUint32(16, packed.nEnvs, true);
  view.setUint32(20, metaBytes.length, true);
  lists.forEach((l, k) => view.setUint32(24 + 4 * k, l.index.length, true));
  let at = HEADER_BYTES;
  bytes.set(metaBytes, at);
  at += align8(metaBytes.length);
  lists.forEach((l, k) => {
    const s = sizes[k];
    bytes.set(new Uint8Array(l.offsets.buffer, l.offsets.byteOffset, l.offsets.byteLength), at);
    bytes.set(new Uint8Array(l.index.buffer, l.index.byteOffset, l.index.byteLength), at + s.offsets);
    bytes.set(new Uint8Array(l.sim.buffer, l.sim.byteOffset, l.sim.byteLength), at + s.offsets + s.index);
    at += s.total;
  });
  view.setUint32(40, fnv1a(bytes, HEADER_BYTES, total), true);
  return bytes;
}

/** Reads and fully validates a binary graph; every problem names the field it is in. */
export function decodeGraphBinary(bytes: Uint8Array, source: string): LoadedGraph {
  const { nTasks: n, metaLength, nnz, sections: sizes, checksum } = readGraphHeader(bytes, bytes.length, source);
  if (checksum !== fnv1a(bytes, HEADER_BYTES, bytes.length))
    throw new InputError(source, 'checksum', 'the content does not match its checksum (corrupt file)');

  let metaText: string;
  try {
    metaText = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + metaLength));
  } catch {
    throw new InputError(source, 'metadata', 'unreadable metadata block (not valid UTF-8)');
  }
  // parseJsonText keeps the message on one line and names the line:column inside the block.
  const rawMeta = parseJsonText(metaText, `${source} metadata`);
  // The metadata came from a file: check its fields as strictly as the JSON reader does.
  const meta = readGraphMeta(rawMeta, `${source} metadata`);
  if (meta.tasks.length !== n) throw new InputError(source, 'metadata.tasks', `lists ${meta.tasks.length} tasks, the header declares ${n}`);

  // Copy each section into its own aligned buffer (the file's buffer need not be aligned).
  let at = HEADER_BYTES + align8(metaLength);
  const lists = sizes.map((s, k): CsrList => {
    const offsets = new Int32Array(n + 1);
    const index = new Int32Array(nnz[k]);
    const sim = new Float64Array(nnz[k]);
    new Uint8Array(offsets.buffer).set(bytes.subarray(at, at + offsets.byteLength));
    new Uint8Array(index.buffer).set(bytes.subarray(at + s.offsets, at + s.offsets + index.byteLength));
    new Uint8Array(sim.buffer).set(bytes.subarray(at + s.offsets + s.index, at + s.offsets + s.index + sim.byteLength));
    at += s.total;
    return { offsets, index, sim };
  });
  return { meta, packed: validatePacked(meta, { within: lists[0], cross: lists[1], fullCross: lists[2] }, source) };
}
