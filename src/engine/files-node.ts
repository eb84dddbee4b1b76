// Reading input files in Node (CLI, simulator): graphs (JSON or binary), histories (streamed line
// by line), configurations. Every failure is an InputError naming the file.
import { createReadStream, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parseConfig } from './config.ts';
import { InputError } from './errors.ts';
import { decodeGraphBytes } from './graph-bytes.ts';
import { HistoryReader } from './history.ts';
import { parseJsonText } from './json-text.ts';
import type { Config, LoadedGraph, Observation } from './types.ts';

function unreadable(path: string, error: unknown): InputError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'is a directory'
        : code === 'EACCES'
          ? 'permission denied'
          : String((error as Error)?.message ?? error);
  return new InputError(path, '-', `cannot read the file (${why})`);
}

async function readBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw unreadable(path, error);
  }
}

/** A graph file: binary when it starts with the "ESGB" magic, JSON otherwise (SPEC 12). */
export async function readGraphFile(path: string): Promise<LoadedGraph> {
  const bytes = await readBytes(path);
  return decodeGraphBytes(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), path);
}

/** Progress of a long read: bytes read so far of the file's total. */
export type ReadProgress = (bytesRead: number, totalBytes: number) => void;

/**
 * A history file, read as a stream so that files of millions of lines never sit in memory as
 * text. `onProgress` is called about every 64K lines.
 */
export async function readHistoryFile(
  path: string,
  taskIndex: ReadonlyMap<string, number>,
  onProgress?: ReadProgress,
): Promise<Observation[]> {
  let totalBytes = 0;
  try {
    totalBytes = statSync(path).size;
  } catch (error) {
    throw unreadable(path, error);
  }
  const stream = createReadStream(path, { encoding: 'utf8' });
  return readHistoryStream(stream, path, taskIndex, onProgress && (() => onProgress(stream.bytesRead, totalBytes)));
}

/** A history from any text stream (standard input for `--history -`); errors name `source`. */
export async function readHistoryStream(
  input: Readable,
  source: string,
  taskIndex: ReadonlyMap<string, number>,
  onLines?: (linesRead: number) => void,
): Promise<Observation[]> {
  const reader = new HistoryReader(source, taskIndex);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of lines) {
      reader.pushLine(text, ++line);
      if (onLines && (line & 0xffff) === 0) onLines(line);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw unreadable(source, error);
  } finally {
    lines.close();
    input.destroy();
  }
  return reader.finish();
}

export async function readConfigFile(path: string | undefined): Promise<Config> {
  if (path === undefined) return parseConfig({}, 'defaults');
  const text = (await readBytes(path)).toString('utf8');
  return parseConfig(parseJsonText(text, path), path);
}
