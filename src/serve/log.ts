// The server's run log (docs/serve.md, "The log"): JSON Lines, a header, then one line per
// committed step or configuration change. Every line is written and flushed to disk (fdatasync)
// before the request that made it is answered, so an acknowledged step survives kill -9. A last
// line without its newline was never acknowledged: replay drops it.
import { closeSync, fdatasyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { InputError } from '../engine/errors.ts';
import { isPlainObject, parseJsonText } from '../engine/json-text.ts';

export const LOG_FORMAT = 'envsched-serve-log';
export const LOG_VERSION = 1;

export interface LogHeader {
  format: typeof LOG_FORMAT;
  version: typeof LOG_VERSION;
  graph: { name: string; tasks: number; taskDigest: string };
  config: Record<string, unknown>;
}

export type LogEntry = { op: 'observe'; step: number; groups: unknown[] } | { op: 'config'; config: Record<string, unknown> };

export interface ReadLog {
  header: LogHeader;
  /** Entries with their 1-based line numbers. */
  entries: { line: number; entry: LogEntry }[];
  /** Bytes of a torn last line that replay dropped (0 when the log ended cleanly). */
  droppedBytes: number;
}

function readHeader(raw: unknown, path: string): LogHeader {
  if (!isPlainObject(raw) || raw.format !== LOG_FORMAT)
    throw new InputError(path, '1', `not an envsched serve log (the first line must be its header with "format": "${LOG_FORMAT}")`);
  if (raw.version !== LOG_VERSION)
    throw new InputError(
      path,
      '1:version',
      `log version ${JSON.stringify(raw.version)} is not supported (this server writes version ${LOG_VERSION})`,
    );
  const g = raw.graph;
  if (!isPlainObject(g) || typeof g.name !== 'string' || typeof g.tasks !== 'number' || typeof g.taskDigest !== 'string')
    throw new InputError(path, '1:graph', 'must be {"name", "tasks", "taskDigest"}');
  if (!isPlainObject(raw.config)) throw new InputError(path, '1:config', 'must be a configuration object');
  return {
    format: LOG_FORMAT,
    version: LOG_VERSION,
    graph: { name: g.name, tasks: g.tasks, taskDigest: g.taskDigest },
    config: raw.config,
  };
}

/** Reads a log; a torn last line (no newline) is dropped from the file. */
export function readLog(path: string): ReadLog | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new InputError(path, '-', `cannot read the log (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (bytes.length === 0) return null;
  let end = bytes.lastIndexOf(0x0a) + 1;
  const droppedBytes = bytes.length - end;
  if (droppedBytes > 0) {
    const fd = openSync(path, 'r+');
    try {
      ftruncateSync(fd, end);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
  if (end === 0) return null;
  const lines = bytes.subarray(0, end).toString('utf8').split('\n');
  lines.pop();
  const header = readHeader(parseJsonText(lines[0], path), path);
  const entries: ReadLog['entries'] = [];
  for (let k = 1; k < lines.length; k++) {
    const line = k + 1;
    const raw = parseJsonText(lines[k], path, k);
    if (!isPlainObject(raw)) throw new InputError(path, `${line}`, 'each entry must be a JSON object');
    if (raw.op === 'observe' && Array.isArray(raw.groups))
      entries.push({ line, entry: { op: 'observe', step: raw.step as number, groups: raw.groups } });
    else if (raw.op === 'config' && isPlainObject(raw.config)) entries.push({ line, entry: { op: 'config', config: raw.config } });
    else throw new InputError(path, `${line}:op`, 'an entry is {"op": "observe", "step", "groups"} or {"op": "config", "config"}');
  }
  return { header, entries, droppedBytes };
}

/** An open log: appends one line at a time, each flushed to disk before append returns. */
export class LogWriter {
  private constructor(
    private readonly fd: number,
    readonly path: string,
  ) {}

  static open(path: string, header: LogHeader | null): LogWriter {
    let fd: number;
    try {
      fd = openSync(path, 'a');
    } catch (error) {
      throw new InputError(path, '-', `cannot open the log for writing (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    const writer = new LogWriter(fd, path);
    if (header) writer.append(header);
    return writer;
  }

  append(value: LogHeader | LogEntry): void {
    const bytes = Buffer.from(`${JSON.stringify(value)}\n`, 'utf8');
    let at = 0;
    while (at < bytes.length) at += writeSync(this.fd, bytes, at, bytes.length - at);
    fdatasyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
