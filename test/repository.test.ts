// The repository stands on its own: a clone with nothing beside it must build, test and read
// completely. Nothing may reach for a folder outside the checkout, nor cite a tracker's issue
// numbers or notes that a reader of the repository cannot open.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '' && !/\.(png|wasm|bin|ico|lock)$/.test(f) && f !== 'package-lock.json');

function filesContaining(pattern: RegExp): string[] {
  const hits: string[] = [];
  for (const file of tracked) {
    let text: string;
    try {
      text = readFileSync(new URL(file, root), 'utf8');
    } catch {
      continue; // listed but deleted in the working tree
    }
    text.split('\n').forEach((line, i) => {
      if (pattern.test(line)) hits.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return hits;
}

describe('the repository is self-contained', () => {
  it('no file names the folder beside the checkout', () => {
    // Built from parts so that this file does not match itself.
    const outside = new RegExp(['\\.\\.', 'shared'].join('/'));
    expect(filesContaining(outside)).toEqual([]);
  });

  it('no code, test or doc cites a tracker issue number or the toolchain notes outside the repository', () => {
    const citation = new RegExp(['\\b[Ii]ssue [0-9]+', 'STACK' + '-NOTES'].join('|'));
    expect(filesContaining(citation).filter((hit) => /^(src|assembly|test|docs|bench|scripts|README)/.test(hit))).toEqual([]);
  });

  it('the contract is in the repository, with the sections the code cites', () => {
    const spec = readFileSync(new URL('docs/spec.md', root), 'utf8');
    const sections = new Set([...spec.matchAll(/^## (\d+)\./gm)].map((m) => Number(m[1])));
    const cited = new Set(filesContaining(/SPEC \d+/).flatMap((hit) => [...hit.matchAll(/SPEC (\d+)/g)].map((m) => Number(m[1]))));
    expect([...cited].filter((n) => !sections.has(n))).toEqual([]);
  });
});
