// The scores object (SPEC 12) as text: one task or batch entry per line, so the file reads and
// diffs well. JSON.stringify writes the shortest string that reads back as the same double, which
// is what "enough digits to round-trip a double" asks for.
import type { Scores } from './types.ts';

function list(items: readonly unknown[]): string {
  return items.length === 0 ? '[]' : `[\n${items.map((item) => `  ${JSON.stringify(item)}`).join(',\n')}\n ]`;
}

export function serializeScores(scores: Scores): string {
  return [
    '{',
    ` "step": ${scores.step},`,
    ` "reference": ${JSON.stringify(scores.reference)},`,
    ` "tasks": ${list(scores.tasks)},`,
    ` "batch": ${list(scores.batch)},`,
    ` "relaxed": ${JSON.stringify(scores.relaxed)}`,
    '}',
    '',
  ].join('\n');
}
