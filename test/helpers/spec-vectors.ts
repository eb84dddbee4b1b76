// Loads the worked cases of test/fixtures/spec-vectors (provenance: test/fixtures/README.md) and the
// checks every implementation of the contract must pass on them.
import { readFileSync, readdirSync } from 'node:fs';
import { expect, it } from 'vitest';
import { parseConfig } from '../../src/engine/config.ts';
import { parseGraphJson } from '../../src/engine/graph-json.ts';
import { parseHistoryJsonl, taskIndexOf } from '../../src/engine/history.ts';
import type { Config, Graph, Observation, Scores } from '../../src/engine/types.ts';
import { FIXTURES } from './fixtures.ts';
import { scoreMismatches } from './scores-compare.ts';

export const SPEC_VECTOR_DIR = `${FIXTURES}spec-vectors/`;

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
