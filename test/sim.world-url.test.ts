// The simulated world's knobs in a link (the app's "Simulated world" section): written only when
// they differ from the calibrated world, read back exactly, bad values corrected with a notice.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM_MODEL, WORLD_CONSTANTS, WORLD_KNOBS, WORLD_OFF, parseWorldText } from '../src/sim/model-params.ts';
import { NAMED_WORLDS } from '../src/sim/named-worlds.ts';
import { WORLD_CONSTANT_INFO, WORLD_KNOB_INFO } from '../src/ui/state/knobs.ts';
import { worldChangesOf, worldSettingsOf } from '../src/ui/state/world-url.ts';
import { defaultState, parseUrlState, serializeUrlState } from '../src/ui/state/url-state.ts';

describe('world knobs in the URL', () => {
  it('the app\'s "Simulated world" section lists every mechanism the link carries, in the same order, each explained with its off value', () => {
    expect(WORLD_KNOB_INFO.map((k) => k.key)).toEqual([...WORLD_KNOBS]);
    for (const k of WORLD_KNOB_INFO) expect(k.explain).toContain(`Off: ${WORLD_OFF[k.key]}.`);
    expect(WORLD_CONSTANT_INFO.map((k) => k.key)).toEqual([...WORLD_CONSTANTS]);
  });

  it('the calibrated world writes nothing; a changed knob round-trips as w.<knob>', () => {
    const state = defaultState();
    expect(serializeUrlState(state)).toBe('v=1');
    state.world = { ...state.world, breadth: WORLD_OFF.breadth, forgetting: 0 };
    const query = serializeUrlState(state);
    expect(query).toContain('w.breadth=0');
    expect(query).toContain('w.forgetting=0');
    const back = parseUrlState(query);
    expect(back.notices).toEqual([]);
    expect(back.state.world).toEqual(state.world);
  });

  it('carries the fitted constants too, so a fitted world of the calibration report opens from a link', () => {
    const state = defaultState();
    state.world = worldSettingsOf(NAMED_WORLDS.adam.values);
    const query = serializeUrlState(state);
    expect(query).toContain('w.gradientNoise=1.114');
    expect(query).toContain('w.logitScale=4.68');
    expect(query).toContain('w.etaCompetence=0.008387');
    const back = parseUrlState(query);
    expect(back.notices).toEqual([]);
    expect(worldChangesOf(back.state.world)).toEqual(parseWorldText('adam', 'test', '--world'));
    expect(parseUrlState('v=1&w.logitScale=0').notices[0]).toMatch(/^w\.logitScale=0: must be a number in \[0\.01, 100\]/);
  });

  it('a value out of bounds or an unknown knob is reported, and the calibrated value kept', () => {
    const { state, notices } = parseUrlState('v=1&w.hiddenNoise=7&w.gravity=1');
    expect(state.world.hiddenNoise).toBe(DEFAULT_SIM_MODEL.hiddenNoise);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/^w\.hiddenNoise=7: must be a number in \[0, 1\.5\]/);
    expect(notices[1]).toMatch(/^w\.gravity: unknown world knob/);
  });
});
