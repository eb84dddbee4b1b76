// The bundled datasets are reproducible: the files built on this machine (by the suite's global
// setup, from the generator and seed in datasets/index.json) have exactly the bytes recorded in
// datasets/index.json when they were first built, on another machine and session.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

interface DatasetEntry {
  name: string;
  sha256?: Record<'graph.json' | 'graph.bin', string>;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const index = JSON.parse(readFileSync(`${root}datasets/index.json`, 'utf8')) as DatasetEntry[];
const recorded = index.filter((d) => d.sha256 && ['tiny', 'classroom', 'envscaler-rl'].includes(d.name));

describe('bundled datasets', () => {
  it('records hashes for the datasets the suite builds', () => {
    expect(recorded.map((d) => d.name).sort()).toEqual(['classroom', 'envscaler-rl', 'tiny']);
  });

  it.each(recorded.map((d) => [d.name, d] as const))('%s builds to the recorded bytes (same seed, same files)', (name, entry) => {
    for (const kind of ['graph.json', 'graph.bin'] as const) {
      const bytes = readFileSync(`${root}datasets/${name}/${name}.${kind}`);
      expect(createHash('sha256').update(bytes).digest('hex'), `${name}.${kind}`).toBe(entry.sha256?.[kind]);
    }
  });
});
