// The URL carries the whole app state: a link must reproduce the same settings, and a bad link
// must be corrected with notices, never crash.
import { describe, expect, it } from 'vitest';
import { URL_VERSION, configDifferences, defaultState, parseUrlState, serializeUrlState } from '../src/ui/state/url-state.ts';

describe('URL state', () => {
  it('writes only what differs from the defaults and reads it back', () => {
    const state = defaultState();
    state.a.rho = 0.75;
    state.a.h_long = 12.5;
    state.a.scheduler = 'cross-only';
    state.a.alpha = [0.3, 0.1, 0.1, 0.1, 0.2, 0.2];
    state.step = 40;
    state.task = 17;
    state.present = true;
    const query = serializeUrlState(state);
    expect(query).toBe(
      `v=${URL_VERSION}&rho=0.75&h_long=12.5&alpha=0.3%2C0.1%2C0.1%2C0.1%2C0.2%2C0.2&scheduler=cross-only&step=40&task=17&present=1`,
    );
    const back = parseUrlState(query);
    expect(back.notices).toEqual([]);
    expect(back.state).toEqual(state);
  });

  it('round-trips doubles exactly', () => {
    const state = defaultState();
    state.a.lambda_sim = 0.1 + 0.2;
    expect(parseUrlState(serializeUrlState(state)).state.a.lambda_sim).toBe(0.1 + 0.2);
  });

  it('carries configuration B as differences from A', () => {
    const state = defaultState();
    state.a.rho = 0.5;
    state.b = { ...state.a, alpha: [...state.a.alpha] as typeof state.a.alpha, rho: 1, scheduler: 'random' };
    const query = serializeUrlState(state);
    expect(query).toContain('b.rho=1');
    expect(query).toContain('b.scheduler=random');
    const back = parseUrlState(query).state;
    expect(back.b?.rho).toBe(1);
    expect(back.b?.scheduler).toBe('random');
    expect(back.a.rho).toBe(0.5);
    expect(configDifferences(back.a, back.b!).map((d) => d.key)).toEqual(['rho', 'scheduler']);
  });

  it('keeps compare mode on when B equals A', () => {
    const state = defaultState();
    state.b = { ...state.a };
    expect(parseUrlState(serializeUrlState(state)).state.b).toEqual(state.a);
  });

  it('reports every correction of a link with the value it really carried', () => {
    const { notices } = parseUrlState(
      '?rho=abc&h_long=-5&K_within=1e9&lambda_sim=Infinity&c0=%3Cscript%3Ealert(1)%3C%2Fscript%3E&alpha=1,x,0,0,0,0',
    );
    expect(notices).toEqual([
      'rho=abc: must be a finite number, got "abc"; using 0.5',
      expect.stringMatching(/^h_long=-5: must be in .*, got -5; using /),
      expect.stringMatching(/^K_within=1e9: must be in .*, got 1000000000; using /),
      expect.stringMatching(/^lambda_sim=Infinity: must be a finite number, got "Infinity"; using /),
      expect.stringMatching(/^c0=<script>alert\(1\)<\/script>: must be a finite number, got "<script>alert\(1\)<\/script>"; using /),
      expect.stringMatching(/^alpha=1,x,0,0,0,0: weights must be numbers in \[0, 1\], got "1,x,0,0,0,0"; using /),
    ]);
    for (const n of notices) expect(n).not.toMatch(/got null|undefined/);
  });

  it('corrects out-of-range, malformed and unknown values with notices', () => {
    const { state, notices } = parseUrlState('?v=7&rho=1.5&K_within=2.5&h_short=abc&scheduler=best&alpha=1,2&wat=1&step=-3&b.C1=0&seed=12');
    expect(state.a.rho).toBe(0.5);
    expect(state.a.K_within).toBe(6);
    expect(state.a.h_short).toBe(2);
    expect(state.a.scheduler).toBe('envsched');
    expect(state.a.alpha).toEqual([0.28, 0.08, 0.16, 0.12, 0.16, 0.2]);
    expect(state.a.seed).toBe(12);
    expect(state.step).toBeNull();
    expect(state.b?.C1).toBe(4);
    expect(notices).toHaveLength(9);
    expect(notices.join('\n')).toMatch(/rho=1\.5: must be in \[0, 1\], got 1\.5; using 0\.5/);
    expect(notices.join('\n')).toMatch(/wat: unknown setting/);
    expect(notices.join('\n')).toMatch(/v=7: unknown link version/);
  });

  it('never throws on arbitrary query strings', () => {
    for (const q of ['%', '?&&=&', 'rho', 'b.rho=', 'alpha=,,,,,', 'dataset=../../etc', 'present=maybe', 'task=1e99']) {
      expect(() => parseUrlState(q)).not.toThrow();
    }
    expect(parseUrlState('dataset=../../etc').state.a.dataset).toBe('envscaler-rl');
  });
});
