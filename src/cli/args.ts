// Command-line flags: a thin layer over node:util parseArgs that turns its errors into InputErrors.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InputError } from '../engine/errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<T extends Options>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InputError('command line', 'arguments', message);
  }
}

/** A required string flag. */
export function requireFlag(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new InputError('command line', `--${name}`, 'is required');
  return value;
}

/** An optional non-negative integer flag. */
export function integerFlag(values: Record<string, unknown>, name: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value))
    throw new InputError('command line', `--${name}`, `must be an integer, got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (n < min || n > max) throw new InputError('command line', `--${name}`, `must be in [${min}, ${max}], got ${n}`);
  return n;
}
