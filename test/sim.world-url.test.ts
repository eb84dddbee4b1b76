// The simulated world's knobs in a link (the app's "Simulated world" section): written only when
// they differ from the calibrated world, read back exactly, bad values corrected with a notice.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM_MODEL, WORLD_CONSTANTS, WORLD_KNOBS, WORLD_OFF, parseWorldText } from '../src/sim/model-params.ts';
import { NAMED_WORLDS } from '../src/sim/named-worlds.ts';
import { WORLD_CONSTANT_INFO, WORLD_KNOB_INFO } from '../src/ui/state/knobs.ts';
import { worldChangesOf, worldSettingsOf } from '../src/ui/state/world-url.ts';
import { defaultState, parseUrlState, serializeUrlState } from '../src/ui/state/url-state.ts';
import { EARLIER_LINK_WORLDS, URL_VERSION, linkWorldBase } from '../src/ui/state/link-versions.ts';
import { calibratedWorld } from '../src/ui/state/world-url.ts';
import { configFooter } from '../src/ui/lib/footer.ts';
import { runCli } from './helpers/cli.ts';

describe('world knobs in the URL', () => {
  it('the app\'s "Simulated world" section lists every mechanism the link carries, in the same order, each explained with its off value', () => {
    expect(WORLD_KNOB_INFO.map((k) => k.key)).toEqual([...WORLD_KNOBS]);
    for (const k of WORLD_KNOB_INFO) expect(k.explain).toContain(`Off: ${WORLD_OFF[k.key]}.`);
    expect(WORLD_CONSTANT_INFO.map((k) => k.key)).toEqual([...WORLD_CONSTANTS]);
  });

  it('the calibrated world writes nothing; a changed knob round-trips as w.<knob>', () => {
    const state = defaultState();
    expect(serializeUrlState(state)).toBe('v=2');
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
    expect(parseUrlState('v=2&w.logitScale=0').notices[0]).toMatch(/^w\.logitScale=0: must be a number in \[0\.01, 100\]/);
  });

  it('a value out of bounds or an unknown knob is reported, and the calibrated value kept', () => {
    const { state, notices } = parseUrlState('v=2&w.hiddenNoise=7&w.gravity=1');
    expect(state.world.hiddenNoise).toBe(DEFAULT_SIM_MODEL.hiddenNoise);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/^w\.hiddenNoise=7: must be a number in \[0, 1\.5\]/);
    expect(notices[1]).toMatch(/^w\.gravity: unknown world knob/);
  });
});

describe('links made before the calibrated world changed', () => {
  it('the current version is tied to the calibrated world: recalibrating without bumping the link version fails here', () => {
    // When src/sim/calibrated.ts changes, move these values into EARLIER_LINK_WORLDS under
    // version 2, bump URL_VERSION, and record the new calibrated world here.
    expect(URL_VERSION).toBe(2);
    expect(calibratedWorld()).toEqual({
      partialCredit: 0.77168,
      signalExponent: 0.5,
      breadth: 0.18456,
      forgetting: 0.050536,
      normalisedDrift: 0,
      gradientNoise: 0,
      repeatDiscount: 0.20114,
      hiddenNoise: 0.083121,
      competence0: 0.60391,
      logitScale: 4.9054,
      etaCompetence: 0.00063463,
      etaFamiliarity: 0.010656,
      familiarityDecay: 0.024348,
    });
  });

  it("a v=1 link opens in the fifth fit's world, says so, and is written back as v=2 with that world spelled out", () => {
    const { state, notices, info } = parseUrlState('v=1&dataset=tiny&w.breadth=0');
    expect(notices).toEqual([]);
    expect(info).toHaveLength(1);
    expect(info[0]).toMatch(/^v=1: this link was made in the fifth calibration fit/);
    expect(state.world).toEqual({ ...EARLIER_LINK_WORLDS[1].values, breadth: 0 });
    const query = serializeUrlState(state);
    expect(query).toMatch(/^v=2&dataset=tiny&/);
    expect(query).toContain('w.breadth=0');
    expect(query).toContain('w.logitScale=5.2364');
    const back = parseUrlState(query);
    expect(back.notices).toEqual([]);
    expect(back.info).toEqual([]);
    expect(back.state.world).toEqual(state.world);
  });

  it("a v=1 link's corrected world value falls back to its own world's, and a link without a version is read as the current one", () => {
    const { state, notices } = parseUrlState('v=1&w.hiddenNoise=7');
    expect(state.world.hiddenNoise).toBe(EARLIER_LINK_WORLDS[1].values.hiddenNoise);
    expect(notices[0]).toMatch(/^w\.hiddenNoise=7: must be a number in \[0, 1\.5\]; using the v=1 link's 0\.062017$/);
    expect(parseUrlState('dataset=tiny')).toEqual(parseUrlState('v=2&dataset=tiny'));
    expect(parseUrlState('v=abc').notices).toEqual(['v=abc: unknown link version; read as v=2']);
    expect(parseUrlState('v=abc').state.world).toEqual(calibratedWorld());
  });

  it('replays the fifth fit bit for bit: the fingerprint its own code printed (commit 51c0563, 60 default steps)', async () => {
    const spelled = Object.entries(worldChangesOf(linkWorldBase(1)))
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const run = await runCli(['simulate', '--steps', '60', '--json', '--world', spelled]);
    expect(JSON.parse(run.stdout).fingerprint).toBe('d90497390ea61c42');
  });

  it("an exported figure's footer carries the world it was simulated in", () => {
    const a = defaultState().a;
    expect(configFooter(a, null, 'abc')).toBe('EnvSched Lab · envscaler-rl · defaults · fingerprint abc');
    const footer = configFooter(a, null, null, { ...calibratedWorld(), forgetting: 0 });
    expect(footer).toBe('EnvSched Lab · envscaler-rl · w.forgetting=0');
  });
});
