// Bad input is reported as one line naming the file, the line or field, and what is wrong
// (`error: <file>:<line or field>: <what is wrong>`). Anything else that is thrown is a bug.

export class InputError extends Error {
  constructor(
    /** The file (or other source, e.g. `url`) the bad input came from. */
    readonly source: string,
    /** A line number (`12`) or a field path (`tasks[3].env`). */
    readonly place: string,
    /** What is wrong, in words a user can act on. */
    readonly problem: string,
  ) {
    super(`${source}:${place}: ${problem}`);
    this.name = 'InputError';
  }
}

export function isInputError(error: unknown): error is InputError {
  return error instanceof InputError;
}
