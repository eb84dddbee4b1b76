// Input files as released: one JSON document, or JSON Lines (one value per line), told apart by
// content, not by the file name. docs/graph.md ("JSON or JSON Lines") states the rule.
import { InputError } from '../engine/errors.ts';
import { isPlainObject, parseJsonText } from '../engine/json-text.ts';

/** A JSON value with the place that names it in error messages. */
export interface PlacedValue {
  /** `[k]` (list item), the key (object keyed by id), a line number (JSON Lines), or `(top level)`. */
  place: string;
  value: unknown;
  /** The key of an object keyed by id, else null. */
  key: string | null;
}

export type JsonContent = { kind: 'json'; value: unknown } | { kind: 'lines'; lines: PlacedValue[] };

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * One JSON document when the whole text parses; otherwise JSON Lines when the first non-blank
 * line is a JSON value on its own (each non-blank line is then one value; a bad line is reported
 * as `source:line:column`); otherwise the document's own parse error.
 */
export function readJsonContent(text: string, source: string): JsonContent {
  const body = withoutBom(text);
  try {
    return { kind: 'json', value: JSON.parse(body) };
  } catch {
    // not one document: JSON Lines, or malformed JSON (reported below)
  }
  const rows = body.split('\n');
  const first = rows.findIndex((r) => r.trim() !== '');
  if (first < 0 || !parses(rows[first])) {
    parseJsonText(body, source); // throws the document's error with its line and column
    throw new InputError(source, '1', 'malformed JSON'); // not reached: the text did not parse above
  }
  const lines: PlacedValue[] = [];
  rows.forEach((row, k) => {
    if (row.trim() === '') return;
    lines.push({ place: String(k + 1), value: parseJsonText(row, source, k), key: null });
  });
  return { kind: 'lines', lines };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * The records of a file that holds a list of records, an object keyed by id, a single record (an
 * object whose `idField` is a string: a one-line JSON Lines file), or JSON Lines of records.
 */
export function readRecords(text: string, source: string, what: string, idField: string): PlacedValue[] {
  const content = readJsonContent(text, source);
  if (content.kind === 'lines') return content.lines;
  const root = content.value;
  if (Array.isArray(root)) return root.map((value, k) => ({ place: `[${k}]`, value, key: null }));
  if (isPlainObject(root)) {
    if (typeof root[idField] === 'string') return [{ place: '(top level)', value: root, key: null }];
    return Object.keys(root).map((key) => ({ place: key, value: root[key], key }));
  }
  throw new InputError(
    source,
    '(top level)',
    `must be a list of ${what}, an object keyed by id, or JSON Lines of ${what}, got ${describe(root)}`,
  );
}

/** A file that must hold one JSON object (JSON Lines with more than one line is refused). */
export function readSingleObject(text: string, source: string, what: string): Record<string, unknown> {
  const content = readJsonContent(text, source);
  if (content.kind === 'lines') {
    if (content.lines.length !== 1)
      throw new InputError(source, content.lines[1].place, `holds more than one JSON value: it must be one object (${what})`);
    const only = content.lines[0].value;
    if (!isPlainObject(only)) throw new InputError(source, content.lines[0].place, `must be an object (${what}), got ${describe(only)}`);
    return only;
  }
  if (!isPlainObject(content.value))
    throw new InputError(source, '(top level)', `must be an object (${what}), got ${describe(content.value)}`);
  return content.value;
}
