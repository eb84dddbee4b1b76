// The scores object (SPEC 12) as text. JSON.stringify writes the shortest string that reads back
// as the same double, which is what "enough digits to round-trip a double" asks for.
import type { Scores } from './types.ts';

export function serializeScores(scores: Scores): string {
  return `${JSON.stringify(scores, null, 1)}\n`;
}
