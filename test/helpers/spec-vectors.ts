// Loads the worked cases of ../shared/fixtures/spec-vectors (read in place, never copied).
import { readFileSync, readdirSync } from 'node:fs';
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
