// A damaged graph file is refused with a message that names the field and what it actually holds.
import { describe, expect, it } from 'vitest';
import { parseGraphJson } from '../src/engine/graph-json.ts';
import { readFileSync } from 'node:fs';
import { SPEC_VECTOR_DIR } from './helpers/spec-vectors.ts';

function refusal(text: string): string {
  try {
    parseGraphJson(text, 'g.json');
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('the graph was accepted');
}

describe('graph JSON errors name the real value', () => {
  const graph = JSON.parse(readFileSync(`${SPEC_VECTOR_DIR}envsched-basic/graph.json`, 'utf8')) as Record<string, unknown>;

  it('says a missing format field is missing, not "undefined undefined"', () => {
    const { format: _dropped, ...rest } = graph;
    const message = refusal(JSON.stringify(rest));
    expect(message).toContain('format');
    expect(message).toContain('missing');
    expect(message).not.toContain('undefined');
  });

  it('quotes a wrong format value', () => {
    expect(refusal(JSON.stringify({ ...graph, format: 'other' }))).toContain('"other"');
  });
});
