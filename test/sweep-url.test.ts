// A sweep in the app's link (src/sweep/url.ts): round trips, presets by name, notices for bad
// values, and the split that keeps the app's own URL reader unaware of `sweep.` keys.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import type { Config } from '../src/engine/types.ts';
import { parseUrlState } from '../src/ui/state/url-state.ts';
import { findPreset, presetKnobs } from '../src/sweep/presets.ts';
import { parseSweepUrl, serializeSweepUrl, splitSweepParams, withSweepParams } from '../src/sweep/url.ts';
import type { SweepDefinition } from '../src/sweep/definition.ts';

const base: Config = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'] };

describe('sweep URL', () => {
  it('writes a preset by name and reads it back as the same sweep', () => {
    const def: SweepDefinition = {
      knobs: presetKnobs(findPreset('table3b')!),
      seeds: 3,
      base,
      metrics: ['final', 'auc', 'steps_to_random_best', 'mean_variance', 'envs_per_batch', 'tools_per_batch'],
      preset: 'table3b',
    };
    const query = serializeSweepUrl(def);
    expect(query).toBe('sweep.preset=table3b');
    const { sweep, notices } = parseSweepUrl(query, base);
    expect(notices).toEqual([]);
    expect(sweep).toEqual(def);
  });

  it('round-trips custom knobs, seeds and metrics, ranges read as lists', () => {
    const { sweep, notices } = parseSweepUrl('sweep.rho=0:1:0.5&sweep.lambda_sim=0,0.08&sweep.seeds=5&sweep.metrics=final,auc', base);
    expect(notices).toEqual([]);
    expect(sweep!.knobs).toEqual([
      { key: 'rho', values: [0, 0.5, 1] },
      { key: 'lambda_sim', values: [0, 0.08] },
    ]);
    expect(sweep!.seeds).toBe(5);
    const query = serializeSweepUrl(sweep!);
    expect(query).toBe('sweep.rho=0%2C0.5%2C1&sweep.lambda_sim=0%2C0.08&sweep.seeds=5&sweep.metrics=final%2Cauc');
    expect(parseSweepUrl(query, base).sweep).toEqual(sweep);
    // An edited preset is written as its knobs.
    const edited = { ...parseSweepUrl('sweep.preset=rho', base).sweep!, knobs: [{ key: 'rho' as const, values: [0, 1] }] };
    expect(serializeSweepUrl(edited)).toBe('sweep.rho=0%2C1');
  });

  it('takes a world mechanism as a knob (sweep.w.breadth), checked against its bounds', () => {
    const { sweep, notices } = parseSweepUrl('sweep.w.breadth=0:0.7:0.35&sweep.scheduler=random,envsched', base);
    expect(notices).toEqual([]);
    expect(sweep!.knobs).toEqual([
      { key: 'w.breadth', values: [0, 0.35, 0.7] },
      { key: 'scheduler', values: ['random', 'envsched'] },
    ]);
    expect(parseSweepUrl(serializeSweepUrl(sweep!), base).sweep).toEqual(sweep);
    const bad = parseSweepUrl('sweep.w.breadth=0,2', base);
    expect(bad.sweep).toBeNull();
    expect(bad.notices.join(' ')).toMatch(/sweep\.w\.breadth=0,2: breadth must be a number in \[0, 1\], got 2/);
  });

  it('never throws: bad values become notices and are dropped', () => {
    const { sweep, notices } = parseSweepUrl(
      'sweep.rho=0,2&sweep.K_within=3,6&sweep.seeds=0&sweep.alpha=1&sweep.preset=nope&sweep.metrics=speed',
      base,
    );
    expect(sweep!.knobs).toEqual([{ key: 'K_within', values: [3, 6] }]);
    expect(sweep!.seeds).toBe(3);
    expect(notices).toEqual([
      'sweep.rho=0,2: rho must be in [0, 1], got 2; ignored',
      'sweep.seeds=0: must be an integer in [1, 1000]; ignored',
      expect.stringMatching(/^sweep\.alpha=1: cannot sweep "alpha"/),
      'sweep.preset=nope: unknown preset; ignored',
      expect.stringMatching(/^sweep\.metrics=speed: unknown metric "speed"/),
    ]);
    expect(parseSweepUrl('sweep.seeds=4', base)).toEqual({ sweep: null, notices: ['sweep: no knob given; no sweep opened'] });
    expect(parseSweepUrl('rho=0.2', base)).toEqual({ sweep: null, notices: [] });
  });

  it("sits beside the app's own state: the app reader gets a query without sweep keys", () => {
    const app = 'v=2&rho=0.25&T=100';
    const { sweep: def } = parseSweepUrl('sweep.preset=half-lives&sweep.seeds=2', base);
    const full = withSweepParams(app, def);
    expect(full).toBe('v=2&rho=0.25&T=100&sweep.preset=half-lives&sweep.seeds=2');
    const split = splitSweepParams(full);
    const { state, notices } = parseUrlState(split.app);
    expect(notices).toEqual([]);
    expect(state.a.T).toBe(100);
    const reread = parseSweepUrl(split.sweep, state.a).sweep!;
    expect(reread.base.T).toBe(100);
    expect(reread.base.rho).toBe(0.25);
    expect(reread.knobs.map((k) => k.key)).toEqual(['h_long', 'h_short']);
    expect(withSweepParams(full, null)).toBe(app);
  });
});
