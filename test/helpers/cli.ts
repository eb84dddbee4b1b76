// Runs the CLI in-process with captured output.
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `stdin`: the text standard input holds (absent: the command has no standard input). */
export async function runCli(args: string[], options: { tty?: boolean; stdin?: string } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stderrIsTTY: options.tty ?? false,
    stdin: options.stdin === undefined ? undefined : Readable.from([options.stdin]),
  });
  return { code, stdout, stderr };
}
