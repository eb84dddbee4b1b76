// Node-only: loads a graph file into a WasmScheduler. Binary graphs (docs/graph-binary.md) are
// read section by section straight into the scheduler's linear memory, so a 750K-task pool
// (about 0.8 GB of lists) never exists as a second copy in JS: peak memory is the kernels' own.
// Validation is the same as the binary reader's (checksum, then src/engine/graph-validate.ts on
// views of linear memory). JSON graphs go through readGraphFile and loadGraph.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputError } from '../errors.ts';
import { readGraphFile } from '../files-node.ts';
import { isGraphBinary } from '../graph-bytes.ts';
import { FNV1A_START, fnv1aUpdate, GRAPH_HEADER_BYTES as HEADER_BYTES, readGraphHeader } from '../graph-binary.ts';
import { readGraphMeta } from '../graph-json.ts';
import { parseJsonText } from '../json-text.ts';
import { numberCategories, validateList, validateMeta } from '../graph-validate.ts';
import type { CsrList, GraphMeta } from '../types.ts';
import type { WasmScheduler } from './scheduler.ts';

const CHUNK = 1 << 26; // 64 MiB per read
const LIST_NAMES = ['within', 'cross', 'fullCross'] as const;

// Arithmetic, not `& ~7`: declared sizes reach 2^35 and bitwise operators wrap at 2^31.
const align8 = (n: number) => Math.ceil(n / 8) * 8;

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
    throw new InputError(
      path,
      '-',
      `cannot read the file (${code === 'ENOENT' ? 'no such file' : String((error as Error)?.message ?? error)})`,
    );
  }
  try {
    const head = new Uint8Array(HEADER_BYTES);
    const got = readSync(fd, head, 0, HEADER_BYTES, 0);
    if (!isGraphBinary(head.subarray(0, got))) {
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

function loadBinary(
  scheduler: WasmScheduler,
  fd: number,
  head: Uint8Array,
  got: number,
  source: string,
  progress?: LoadProgress,
): LoadedIntoWasm {
  const size = fstatSync(fd).size;
  const { nTasks: n, metaLength, nnz, sections, checksum } = readGraphHeader(head.subarray(0, got), size, source);

  const memory = scheduler.wasm.memory;
  let position = HEADER_BYTES;
  let hash = FNV1A_START;
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
      hash =
        part.buffer === memory.buffer
          ? scheduler.wasm.exports.sched_fnv1a(part.byteOffset, part.length, hash) >>> 0
          : fnv1aUpdate(hash, part);
      progress?.('read', position, size);
    }
  };
  const pad = (bytes: number) => {
    if (bytes > 0) readInto(new Uint8Array(bytes));
  };

  const metaBytes = new Uint8Array(metaLength);
  readInto(metaBytes);
  pad(align8(metaLength) - metaLength);
  let metaText: string;
  try {
    metaText = new TextDecoder('utf-8', { fatal: true }).decode(metaBytes);
  } catch {
    throw new InputError(source, 'metadata', 'unreadable metadata block (not valid UTF-8)');
  }
  // As decodeGraphBinary does: one-line errors naming the line:column inside the block.
  const meta = readGraphMeta(parseJsonText(metaText, `${source} metadata`), `${source} metadata`);
  if (meta.tasks.length !== n) throw new InputError(source, 'metadata.tasks', `lists ${meta.tasks.length} tasks, the header declares ${n}`);
  const { taskEnv, envSize } = validateMeta(meta, source);
  const { envCategory, nCategories } = numberCategories(meta.envs.map((e) => e.category));

  const buffers = scheduler.beginGraph({
    nTasks: n,
    nEnvs: meta.envs.length,
    nCategories,
    nnzWithin: nnz[0],
    nnzCross: nnz[1],
    nnzFullCross: nnz[2],
  });
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
  if (checksum !== hash >>> 0) throw new InputError(source, 'checksum', 'the content does not match its checksum (corrupt file)');
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
