import { describe, expect, it } from 'vitest';
import { parseConfig, DEFAULT_CONFIG } from '../src/engine/config.ts';

describe('config', () => {
  it('fills missing keys with the SPEC 11 defaults', () => {
    expect(parseConfig({ B: 16 }, 'c.json')).toEqual({ ...DEFAULT_CONFIG, B: 16 });
  });
});
