// Reading input files in Node for the graph commands: a path, or `-` for standard input (at most
// one input per command can be stdin; the CLI hands in its own stream). Failures are InputErrors
// naming the file.
import { readFile } from 'node:fs/promises';
import { InputError } from '../engine/errors.ts';
import type { TextFile } from './build.ts';
import { orderRelease, parseEnvMetadata, parseScenarios, type Release } from './release.ts';

/** The name stdin has in error messages. */
export const STDIN_SOURCE = 'stdin';

export async function readStream(stream: AsyncIterable<string | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A file's text, or standard input's for `-` (`stdin` gives the stream; the CLI passes its own). */
export async function readInputText(path: string, stdin: () => AsyncIterable<string | Uint8Array>): Promise<TextFile> {
  if (path === '-') return { text: await readStream(stdin()), source: STDIN_SOURCE };
  try {
    return { text: await readFile(path, 'utf8'), source: path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (code ?? String(error));
    throw new InputError(path, '-', `cannot read the file (${why})`);
  }
}

/** Refuses a command line that gives `-` (stdin) to more than one input flag. */
export function oneStdinAtMost(flags: Record<string, unknown>, names: readonly string[]): void {
  const dashes = names.filter((n) => flags[n] === '-');
  if (dashes.length > 1)
    throw new InputError('command line', `--${dashes[1]}`, `only one input can be - (stdin); --${dashes[0]} already is`);
}

/** The pool of `--env-metadata` and `--scenarios`, in graph order, and how many scenarios were skipped. */
export async function readPool(
  envPath: string,
  scenariosPath: string,
  skipUnverifiable: boolean,
  stdin: () => AsyncIterable<string | Uint8Array>,
): Promise<{ release: Release; skipped: number }> {
  const envFile = await readInputText(envPath, stdin);
  const scenFile = await readInputText(scenariosPath, stdin);
  const envs = parseEnvMetadata(envFile.text, envFile.source);
  const read = parseScenarios(scenFile.text, scenFile.source, envs, { skipUnverifiable });
  return { release: orderRelease(envs, read.tasks), skipped: read.skipped.length };
}
