// Parsing JSON text with errors that name a line and column instead of a byte offset.
import { InputError } from './errors.ts';

/** Line and column (1-based) of a character offset. */
export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** JSON.parse that throws an InputError `source:line:column` on malformed text. */
export function parseJsonText(text: string, source: string, lineOffset = 0): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? lineColumnOf(text, Number(position[1])) : null;
    const place = where ? `${where.line + lineOffset}:${where.column}` : `${lineOffset + 1}`;
    const reason = message.replace(/^JSON\.parse: /, '').replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '');
    throw new InputError(source, place, `malformed JSON (${reason.slice(0, 120)})`);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
