// Comparing scores objects (docs/spec.md section 12) to the contract's tolerance: 1e-9 relative.
import type { Scores } from '../../src/engine/types.ts';

/** |a - b| <= 1e-9 relative, with an absolute floor for values at or near zero. */
export function closeTo(actual: number, expected: number, rel = 1e-9): boolean {
  return Math.abs(actual - expected) <= rel * Math.max(Math.abs(expected), 1e-3);
}

const HALF_LIVES = ['long', 'short'] as const;

/**
 * Every difference between two scores objects (SPEC 12), by path: numbers beyond 1e-9 relative
 * (closeTo), and any difference in ids, filter flags, the batch (ids, phases, order) or `relaxed`.
 */
export function scoreMismatches(actual: Scores, expected: Scores): string[] {
  const out: string[] = [];
  const check = (a: number | undefined, b: number | undefined, path: string) => {
    if (a === undefined || b === undefined) {
      if (a !== b) out.push(`${path}: got ${a}, expected ${b}`);
    } else if (!closeTo(a, b)) out.push(`${path}: got ${a}, expected ${b}`);
  };
  if (actual.step !== expected.step) out.push(`step: got ${actual.step}, expected ${expected.step}`);
  const refKeys = (s: Scores) => Object.keys(s.reference).sort().join(',');
  if (refKeys(actual) !== refKeys(expected)) out.push(`reference: got {${refKeys(actual)}}, expected {${refKeys(expected)}}`);
  for (const hl of HALF_LIVES) {
    for (const y of ['v', 'm', 'd'] as const) check(actual.reference[hl]?.[y], expected.reference[hl]?.[y], `reference.${hl}.${y}`);
  }
  if (actual.tasks.length !== expected.tasks.length) out.push(`tasks: got ${actual.tasks.length}, expected ${expected.tasks.length}`);
  expected.tasks.forEach((e, i) => {
    const a = actual.tasks[i];
    if (a?.id !== e.id) out.push(`tasks[${i}].id: got ${a?.id}, expected ${e.id}`);
    for (const hl of HALF_LIVES) {
      if ((a?.[hl] === undefined) !== (e[hl] === undefined)) out.push(`tasks[${i}].${hl}: present in only one`);
      for (const y of ['v', 'm', 'd', 'u'] as const) check(a?.[hl]?.[y], e[hl]?.[y], `tasks[${i}].${hl}.${y}`);
    }
    check(a?.u, e.u, `tasks[${i}].u`);
    check(a?.q, e.q, `tasks[${i}].q`);
    if (a?.removed !== e.removed) out.push(`tasks[${i}].removed: got ${a?.removed}, expected ${e.removed}`);
    if (a?.progressExcluded !== e.progressExcluded)
      out.push(`tasks[${i}].progressExcluded: got ${a?.progressExcluded}, expected ${e.progressExcluded}`);
  });
  if (JSON.stringify(actual.batch) !== JSON.stringify(expected.batch))
    out.push(`batch: got ${JSON.stringify(actual.batch)}, expected ${JSON.stringify(expected.batch)}`);
  if (JSON.stringify(actual.relaxed) !== JSON.stringify(expected.relaxed))
    out.push(`relaxed: got ${JSON.stringify(actual.relaxed)}, expected ${JSON.stringify(expected.relaxed)}`);
  return out;
}
