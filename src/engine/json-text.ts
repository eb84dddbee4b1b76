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

/** V8 shows this many characters either side of an unexpected token in its message. */
const V8_CONTEXT = 10;

/**
 * The character offset a JSON.parse error points at, from its message: V8's "at position N",
 * V8's quoted context around an unexpected token (no position is given then; the context is found
 * in the text), "Unexpected end of JSON input", or null when the message does not say.
 */
function errorOffset(message: string, text: string): number | null {
  const position = /position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length;
  const context = /^Unexpected token .*?, (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(message);
  if (context && (context[1] || context[3])) {
    const [, before, snippet] = context;
    const at = text.indexOf(snippet);
    if (at >= 0) return before ? at + V8_CONTEXT : snippet.length - V8_CONTEXT;
  }
  return null;
}

/** Control characters from the quoted text are escaped so that an error stays on one line. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => JSON.stringify(c).slice(1, -1));
}

/** JSON.parse that throws an InputError `source:line:column` on malformed text. */
export function parseJsonText(text: string, source: string, lineOffset = 0): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // Firefox gives "at line L column C of the JSON data" directly; V8 an offset (or a context).
    const firefox = /at line (\d+) column (\d+)/.exec(message);
    const offset = firefox ? null : errorOffset(message, text);
    const where = firefox ? { line: Number(firefox[1]), column: Number(firefox[2]) } : offset !== null ? lineColumnOf(text, offset) : null;
    const place = where ? `${where.line + lineOffset}:${where.column}` : `${lineOffset + 1}`;
    const reason = message
      .replace(/^JSON\.parse: /, '')
      .replace(/ at line \d+ column \d+ of the JSON data$/, '')
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/\s*\(line \d+ column \d+\)$/, '');
    throw new InputError(source, place, `malformed JSON (${oneLine(reason.slice(0, 120))})`);
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
