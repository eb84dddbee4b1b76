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

/** The offset a V8 message states outright: "at position N", or the end for "Unexpected end". */
function statedOffset(message: string, text: string): number | null {
  const position = /position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length;
  return null;
}

/**
 * Whether the text breaks at `p`: before the error every prefix is a valid beginning, so JSON.parse
 * of `text[0..p]` fails only for running out of input (at its end, p + 1); at the error it fails on
 * the character at `p` itself.
 */
function breaksAt(text: string, p: number): boolean {
  const prefix = text.slice(0, p + 1);
  try {
    JSON.parse(prefix);
    return false;
  } catch (error) {
    return statedOffset(error instanceof Error ? error.message : '', prefix) !== prefix.length;
  }
}

/**
 * The character offset a JSON.parse error points at, from its message: V8's "at position N",
 * "Unexpected end of JSON input", or V8's quoted context around an unexpected token (no position
 * is given then: the context is looked up in the text, and when it occurs more than once the
 * occurrence where the text really breaks is chosen). Null when the message does not say.
 */
function errorOffset(message: string, text: string): number | null {
  const stated = statedOffset(message, text);
  if (stated !== null) return stated;
  const context = /^Unexpected token '([\s\S])', (\.\.\.)?"([\s\S]*)"(\.\.\.)? is not valid JSON$/.exec(message);
  if (!context) return null;
  const [, token, before, snippet, after] = context;
  if (!before && !after) {
    // A short text is quoted whole: the first occurrence of the token where the text breaks.
    for (let p = text.indexOf(token); p !== -1; p = text.indexOf(token, p + 1)) if (breaksAt(text, p)) return p;
    return null;
  }
  if (!before) return snippet.length - V8_CONTEXT; // the context starts at the text's first character
  const candidates: number[] = [];
  for (let at = text.indexOf(snippet); at !== -1 && candidates.length < 64; at = text.indexOf(snippet, at + 1)) {
    if (text[at + V8_CONTEXT] === token) candidates.push(at + V8_CONTEXT);
  }
  if (candidates.length <= 1) return candidates[0] ?? null;
  return candidates.find((p) => breaksAt(text, p)) ?? candidates[0];
}

/** Control characters from the quoted text are escaped so that an error stays on one line. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
