// The CLI's window on the world, injectable so tests run commands in-process; and the `-`
// convention: `-` as an input path reads standard input, as an output path writes standard output.
import { writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { InputError } from '../engine/errors.ts';
import { readHistoryFile, readHistoryStream, type ReadProgress } from '../engine/files-node.ts';
import type { Observation } from '../engine/types.ts';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stderr is an interactive terminal (progress bars are drawn only then). */
  stderrIsTTY: boolean;
  /** Standard input, for `-` as an input path (absent: there is none to read). */
  stdin?: Readable;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  get stdin() {
    return process.stdin;
  },
};

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}

/** The path that means standard input or standard output. */
export const STDIO = '-';

/** Standard input, or one clear error when there is none. */
export function standardInput(io: CliIo, flag: string): Readable {
  if (!io.stdin) throw new InputError('command line', flag, '"-" reads standard input, and there is none here');
  return io.stdin;
}

/** A history from a file, or from standard input for `-` (errors then name "stdin"). */
export async function readHistoryInput(
  io: CliIo,
  path: string,
  taskIndex: ReadonlyMap<string, number>,
  onProgress?: ReadProgress,
): Promise<Observation[]> {
  if (path !== STDIO) return readHistoryFile(path, taskIndex, onProgress);
  return readHistoryStream(standardInput(io, '--history'), 'stdin', taskIndex);
}

/** Writes an output to the file at `path`, or to standard output for `-`. */
export async function writeOutput(io: CliIo, path: string, text: string): Promise<void> {
  if (path === STDIO) {
    io.stdout(text);
    return;
  }
  try {
    await writeFile(path, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(path, '-', `cannot write the file (${code ?? (error as Error).message})`);
  }
}
