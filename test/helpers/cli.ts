// Runs the CLI in-process with captured output.
import { main } from '../../src/cli/main.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], options: { tty?: boolean } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stderrIsTTY: options.tty ?? false,
  });
  return { code, stdout, stderr };
}
