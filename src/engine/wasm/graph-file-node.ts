// Node-only: loads a graph file into a WasmScheduler. Binary graphs (docs/graph-binary.md) are
// read section by section straight into the scheduler's linear memory, so a 750K-task pool
// (about 0.8 GB of lists) never exists as a second copy in JS: peak memory is the kernels' own.
// Validation is the same as the binary reader's (checksum, then src/engine/graph-validate.ts on
// views of linear memory). JSON graphs go through readGraphFile and loadGraph.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from '../errors.ts';
import { readGraphFile } from '../files-node.ts';
import { readGraphMeta } from '../graph-json.ts';
import { numberCategories, validateList, validateMeta } from '../graph-validate.ts';
import type { CsrList, GraphMeta } from '../types.ts';
import type { WasmScheduler } from './scheduler.ts';

const MAGIC = 0x42475345; // "ESGB"
const HEADER_BYTES = 64;
const MAX_TASKS = 50_000_000;
const MAX_EDGES = 2_000_000_000;
const CHUNK = 1 << 26; // 64 MiB per read
const LIST_NAMES = ['within', 'cross', 'fullCross'] as const;

const align8 = (n: number) => (n + 7) & ~7;

/** Running FNV-1a 32-bit (the binary format's checksum of every byte after the header). */
function fnv1aUpdate(hash: number, bytes: Uint8Array): number {
  let h = hash;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

export interface LoadProgress {
  (phase: 'read' | 'validate' | 'prepare', done: number, total: number): void;
}

export interface LoadedIntoWasm {
  meta: GraphMeta;
  taskIds: string[];
  binary: boolean;
}

/** Loads a JSON or binary graph file into the scheduler (replacing its graph and history). */
export async function loadGraphFileInto(scheduler: WasmScheduler, path: string, progress?: LoadProgress): Promise<LoadedIntoWasm> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    throw new InputError(path, '-', `cannot read the file (${code === 'ENOENT' ? 'no such file' : String((error as Error)?.message ?? error)})`);
  }
  try {
    const head = new Uint8Array(HEADER_BYTES);
    const got = readSync(fd, head, 0, HEADER_BYTES, 0);
    const isBinary = got >= 4 && head[0] === 0x45 && head[1] === 0x53 && head[2] === 0x47 && head[3] === 0x42;
    if (!isBinary) {
      closeSync(fd);
      fd = -1;
      const loaded = await readGraphFile(path);
      const taskIds = loaded.meta.tasks.map((t) => t.id);
      scheduler.loadGraph(loaded.packed, taskIds);
      return { meta: loaded.meta, taskIds, binary: false };
    }
    return loadBinary(scheduler, fd, head, got, path, progress);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

function loadBinary(scheduler: WasmScheduler, fd: number, head: Uint8Array, got: number, source: string, progress?: LoadProgress): LoadedIntoWasm {
  if (got < HEADER_BYTES) throw new InputError(source, 'header', `truncated: ${got} bytes, a graph header alone is ${HEADER_BYTES}`);
  const view = new DataView(head.buffer);
  if (view.getUint32(0, true) !== MAGIC) throw new InputError(source, 'header.magic', 'not an EnvSched binary graph (expected "ESGB")');
  if (view.getUint32(4, true) !== 1) throw new InputError(source, 'header.version', `unsupported binary graph version ${view.getUint32(4, true)} (this build reads 1)`);
  if (view.getUint32(8, true) !== HEADER_BYTES) throw new InputError(source, 'header.headerBytes', 'unexpected header size');
  const n = view.getUint32(12, true);
  const metaLength = view.getUint32(20, true);
  const nnz = [0, 1, 2].map((k) => view.getUint32(24 + 4 * k, true));
  if (n === 0 || n > MAX_TASKS) throw new InputError(source, 'header.nTasks', `declares ${n} tasks (allowed 1 to ${MAX_TASKS})`);
  nnz.forEach((count, k) => {
    if (count > MAX_EDGES) throw new InputError(source, `header.${LIST_NAMES[k]}Edges`, `declares ${count} edges (at most ${MAX_EDGES})`);
  });
  const sections = nnz.map((count) => ({ offsets: align8((n + 1) * 4), index: align8(count * 4), sim: count * 8 }));
  const expected = HEADER_BYTES + align8(metaLength) + sections.reduce((a, s) => a + s.offsets + s.index + s.sim, 0);
  const size = fstatSync(fd).size;
  if (size !== expected) {
    throw new InputError(source, 'length', size < expected ? `truncated: ${size} bytes, the header declares ${expected}` : `${size - expected} unexpected bytes after the declared ${expected}`);
  }

  const memory = scheduler.wasm.memory;
  let position = HEADER_BYTES;
  let hash = 0x811c9dc5;
  /** Reads `length` bytes at the current position into `target` (chunked), hashing them. */
  const readInto = (target: Uint8Array) => {
    for (let at = 0; at < target.length; at += CHUNK) {
      const part = target.subarray(at, Math.min(target.length, at + CHUNK));
      let filled = 0;
      while (filled < part.length) {
        const k = readSync(fd, part, filled, part.length - filled, position + filled);
        if (k <= 0) throw new InputError(source, 'length', 'the file ended early');
        filled += k;
      }
      position += part.length;
      // bytes already in linear memory are hashed by the kernel (10x faster than a JS loop)
      hash = part.buffer === memory.buffer ? scheduler.wasm.exports.sched_fnv1a(part.byteOffset, part.length, hash) >>> 0 : fnv1aUpdate(hash, part);
      progress?.('read', position, size);
    }
  };
  const pad = (bytes: number) => {
    if (bytes > 0) readInto(new Uint8Array(bytes));
  };

  const metaBytes = new Uint8Array(metaLength);
  readInto(metaBytes);
  pad(align8(metaLength) - metaLength);
  let rawMeta: unknown;
  try {
    rawMeta = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(metaBytes));
  } catch (error) {
    throw new InputError(source, 'metadata', `unreadable metadata block (${error instanceof Error ? error.message : String(error)})`);
  }
  const meta = readGraphMeta(rawMeta, `${source} metadata`);
  if (meta.tasks.length !== n) throw new InputError(source, 'metadata.tasks', `lists ${meta.tasks.length} tasks, the header declares ${n}`);
  const { taskEnv, envSize } = validateMeta(meta, source);
  const { envCategory, nCategories } = numberCategories(meta.envs.map((e) => e.category));

  const buffers = scheduler.beginGraph({ nTasks: n, nEnvs: meta.envs.length, nCategories, nnzWithin: nnz[0], nnzCross: nnz[1], nnzFullCross: nnz[2] });
  buffers.taskEnv.set(taskEnv);
  buffers.envCategory.set(envCategory);
  const bytesOf = (a: Int32Array | Float64Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  LIST_NAMES.forEach((name, k) => {
    const list: CsrList = buffers[name];
    const s = sections[k];
    readInto(bytesOf(list.offsets));
    pad(s.offsets - list.offsets.byteLength);
    readInto(bytesOf(list.index));
    pad(s.index - list.index.byteLength);
    readInto(bytesOf(list.sim));
  });
  if (view.getUint32(40, true) !== hash >>> 0) throw new InputError(source, 'checksum', 'the content does not match its checksum (corrupt file)');
  LIST_NAMES.forEach((name, k) => {
    progress?.('validate', k, 3);
    validateList(name, buffers[name], taskEnv, envSize, source);
  });
  progress?.('prepare', 0, 1);
  const taskIds = meta.tasks.map((t) => t.id);
  scheduler.finishGraph(taskIds);
  progress?.('prepare', 1, 1);
  return { meta, taskIds, binary: true };
}
