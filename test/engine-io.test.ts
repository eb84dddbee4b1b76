import { describe, expect, it } from 'vitest';
import { SPEC_VECTOR_NAMES, loadSpecVector } from './helpers/spec-vectors.ts';
import { parseGraphJson, serializeGraphJson } from '../src/engine/graph-json.ts';
import { defaultScoreStep } from '../src/engine/history.ts';

describe('spec-vector inputs', () => {
  it.each(SPEC_VECTOR_NAMES)('%s reads, validates and round-trips', (name) => {
    const v = loadSpecVector(name);
    expect(v.graph.tasks.length).toBeGreaterThan(0);
    expect(parseGraphJson(serializeGraphJson(v.graph), 'again')).toEqual(v.graph);
    expect(defaultScoreStep(v.observations)).toBe(v.step);
  });
});
