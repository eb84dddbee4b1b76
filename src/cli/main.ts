// `envsched <command> [flags]`: dispatch, and the one place where errors become exit codes.
// Exit 0 on success; 2 with `error: <file>:<line or field>: <what is wrong>` on bad input (and the
// usage, on standard error, when no command is given); 1 with a short report on an internal
// fault (a bug: never expected for any input). Asked-for help goes to standard output.
import { readFileSync } from 'node:fs';
import { isInputError } from '../engine/errors.ts';
import { COMMANDS } from './commands/index.ts';
import { processIo, type CliIo } from './io.ts';

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length), 4);
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'usage: envsched <command> [flags]',
    '',
    'commands:',
    ...lines,
    '',
    "envsched <command> --help shows a command's flags; envsched --version its version.",
    '',
  ].join('\n');
}

/** The package's version, from package.json (two folders up from src/cli and from dist/cli alike). */
export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(help()); // an error exit: the usage goes to standard error
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(help());
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout(`envsched ${version()}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`error: command line:${name}: unknown command (try envsched --help)\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (isInputError(error)) {
      // One line whatever the problem quotes (a parser's excerpt of a file may hold a newline).
      io.stderr(
        `error: ${error.message.replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`,
      );
      return 2;
    }
    if (error instanceof RangeError && /memory|allocation/i.test(error.message)) {
      io.stderr(`error: input is too large for this process's memory (${error.message})\n`);
      return 2;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr(`internal error (please report): ${detail}\n`);
    return 1;
  }
}
