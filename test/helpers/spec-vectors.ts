// Loads the worked cases of ../shared/fixtures/spec-vectors (read in place, never copied).
import { readFileSync, readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../../src/engine/config.ts';
import { parseGraphJson } from '../../src/engine/graph-json.ts';
import { parseHistoryJsonl, taskIndexOf } from '../../src/engine/history.ts';
import type { Config, Graph, Observation, Scores } from '../../src/engine/types.ts';

export const SHARED_FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/', import.meta.url));
export const SPEC_VECTOR_DIR = `${SHARED_FIXTURES}spec-vectors/`;

export const SPEC_VECTOR_NAMES: string[] = readdirSync(SPEC_VECTOR_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

export interface SpecVector {
  name: string;
  dir: string;
  graph: Graph;
  observations: Observation[];
  config: Config;
  step: number;
  expected: Scores;
}

export function loadSpecVector(name: string): SpecVector {
  const dir = `${SPEC_VECTOR_DIR}${name}/`;
  const read = (file: string) => readFileSync(`${dir}${file}`, 'utf8');
  const graph = parseGraphJson(read('graph.json'), `${name}/graph.json`);
  const observations = parseHistoryJsonl(read('history.jsonl'), `${name}/history.jsonl`, taskIndexOf(graph));
  const config = parseConfig(JSON.parse(read('config.json')), `${name}/config.json`);
  const expected = JSON.parse(read('expected.json')) as Scores;
  return { name, dir, graph, observations, config, step: expected.step, expected };
}

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
    if (a?.progressExcluded !== e.progressExcluded) out.push(`tasks[${i}].progressExcluded: got ${a?.progressExcluded}, expected ${e.progressExcluded}`);
  });
  if (JSON.stringify(actual.batch) !== JSON.stringify(expected.batch)) out.push(`batch: got ${JSON.stringify(actual.batch)}, expected ${JSON.stringify(expected.batch)}`);
  if (JSON.stringify(actual.relaxed) !== JSON.stringify(expected.relaxed)) out.push(`relaxed: got ${JSON.stringify(actual.relaxed)}, expected ${JSON.stringify(expected.relaxed)}`);
  return out;
}

/**
 * The checks every implementation must pass on one spec vector, each its own test so that a
 * failure names the aspect: numbers, fields, filter flags, the batch, the relaxations.
 * `actual` is read lazily (implementations that score in a beforeAll hook).
 */
export function expectSpecVectorScores(vector: SpecVector, actual: () => Scores): void {
  it('matches every number to 1e-9 relative', () => {
    expect(actual().tasks.map((t) => t.id)).toEqual(vector.expected.tasks.map((t) => t.id));
    expect(scoreMismatches(actual(), vector.expected)).toEqual([]);
  });

  it('has exactly the fields of the expected scores object (no predictions at step 0)', () => {
    expect(Object.keys(actual()).sort()).toEqual(Object.keys(vector.expected).sort());
    expect(actual().tasks.map((t) => Object.keys(t).sort())).toEqual(vector.expected.tasks.map((t) => Object.keys(t).sort()));
    expect(Object.keys(actual().reference).sort()).toEqual(Object.keys(vector.expected.reference).sort());
  });

  it('flags the same removed and progress-excluded tasks', () => {
    expect(actual().tasks.map((t) => t.removed)).toEqual(vector.expected.tasks.map((t) => t.removed));
    expect(actual().tasks.map((t) => t.progressExcluded)).toEqual(vector.expected.tasks.map((t) => t.progressExcluded));
  });

  it('picks the same batch in the same order with the same phases', () => {
    expect(actual().batch).toEqual(vector.expected.batch);
  });

  it('reports the same relaxations in order', () => {
    expect(actual().relaxed).toEqual(vector.expected.relaxed);
  });
}
