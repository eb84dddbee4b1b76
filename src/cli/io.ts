// The CLI's window on the world, injectable so tests run commands in-process.
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stderr is an interactive terminal (progress bars are drawn only then). */
  stderrIsTTY: boolean;
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: Boolean(process.stderr.isTTY),
};

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}
