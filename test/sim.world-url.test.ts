// The simulated world's knobs in a link (the app's "Simulated world" section): written only when
// they differ from the calibrated world, read back exactly, bad values corrected with a notice.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM_MODEL, WORLD_CONSTANTS, WORLD_KNOBS, WORLD_OFF, parseWorldText } from '../src/sim/model-params.ts';
import { NAMED_WORLDS } from '../src/sim/named-worlds.ts';
import { WORLD_CONSTANT_INFO, WORLD_KNOB_INFO } from '../src/ui/state/knobs.ts';
import { calibratedWorld, worldChangesOf, worldSettingsOf } from '../src/ui/state/world-url.ts';
import { defaultState, parseUrlState, serializeUrlState } from '../src/ui/state/url-state.ts';
import { EARLIER_LINK_WORLDS, URL_VERSION, linkWorldBase } from '../src/ui/state/link-versions.ts';
import { configFooter } from '../src/ui/lib/footer.ts';
import { runCli } from './helpers/cli.ts';

/** What `envsched simulate --steps 60` printed with the seventh fit as the calibrated world (commit beb7324's code). */
const SEVENTH_FIT_FINGERPRINT = '983d4e0a7f52bdb1';
/** The same with the eighth fit as the calibrated world (commit c7d359c's code). */
const EIGHTH_FIT_FINGERPRINT = '7219fbabffb86e78';
/** The same with the twelfth fit's B as the calibrated world (commit 3773ab6's code). */
const TWELFTH_FIT_FINGERPRINT = '70ef06eb2a414c5d';
/** The same with the fourteenth fit as the calibrated world (commit c49e9b1's code). */
const FOURTEENTH_FIT_FINGERPRINT = '329d6bbd243168da';

describe('world knobs in the URL', () => {
  it('the app\'s "Simulated world" section lists every mechanism the link carries, in the same order, each explained with its off value', () => {
    expect(WORLD_KNOB_INFO.map((k) => k.key)).toEqual([...WORLD_KNOBS]);
    for (const k of WORLD_KNOB_INFO) expect(k.explain).toContain(`Off: ${WORLD_OFF[k.key]}.`);
    expect(WORLD_CONSTANT_INFO.map((k) => k.key)).toEqual([...WORLD_CONSTANTS]);
  });

  it('the calibrated world writes nothing; a changed knob round-trips as w.<knob>', () => {
    const state = defaultState();
    expect(serializeUrlState(state)).toBe(`v=${URL_VERSION}`);
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
    expect(parseUrlState('w.logitScale=0').notices[0]).toMatch(/^w\.logitScale=0: must be a number in \[0\.01, 100\]/);
  });

  it('a value out of bounds or an unknown knob is reported, and the calibrated value kept', () => {
    const { state, notices } = parseUrlState('w.hiddenNoise=7&w.gravity=1');
    expect(state.world.hiddenNoise).toBe(DEFAULT_SIM_MODEL.hiddenNoise);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/^w\.hiddenNoise=7: must be a number in \[0, 1\.5\]/);
    expect(notices[1]).toMatch(/^w\.gravity: unknown world knob/);
  });
});

describe('links made before the calibrated world changed', () => {
  it('the current version is tied to the calibrated world: recalibrating without bumping the link version fails here', () => {
    // When src/sim/calibrated.ts changes, move these values into EARLIER_LINK_WORLDS under
    // version 6, bump URL_VERSION, and record the new calibrated world here.
    expect(URL_VERSION).toBe(6);
    expect(calibratedWorld()).toEqual({
      partialCredit: 0.26198,
      signalExponent: 1,
      gradientCredit: 0,
      breadth: 0.69315,
      forgetting: 0.38912,
      normalisedDrift: 0,
      driftExponent: 1,
      gradientNoise: 0,
      familiarityDrift: 0,
      repeatDiscount: 0.026991,
      hiddenNoise: 0.36159,
      competence0: 0.34241,
      logitScale: 3.9582,
      etaCompetence: 0.0039073,
      etaFamiliarity: 0.024802,
      familiarityDecay: 0.0077422,
      familiarityMax: 3,
      etaMemo: 0.33909,
    });
  });

  it("a v=1 link opens in the fifth fit's world, says so, and is written back in the current version with that world spelled out", () => {
    const { state, notices, info } = parseUrlState('v=1&dataset=tiny&w.breadth=0');
    expect(notices).toEqual([]);
    expect(info).toHaveLength(1);
    expect(info[0]).toMatch(/^v=1: this link was made in the fifth calibration fit/);
    expect(state.world).toEqual({ ...EARLIER_LINK_WORLDS[1].values, breadth: 0 });
    const query = serializeUrlState(state);
    expect(query.startsWith(`v=${URL_VERSION}&dataset=tiny&`)).toBe(true);
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
    expect(parseUrlState('dataset=tiny')).toEqual(parseUrlState(`v=${URL_VERSION}&dataset=tiny`));
    expect(parseUrlState('v=abc').notices).toEqual([`v=abc: unknown link version; read as v=${URL_VERSION}`]);
    expect(parseUrlState('v=abc').state.world).toEqual(calibratedWorld());
  });

  /** The fingerprint `envsched simulate --steps 60` prints in the world a link of `version` opens in. */
  async function linkWorldFingerprint(version: number): Promise<string> {
    const spelled = Object.entries(worldChangesOf(linkWorldBase(version)))
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const run = await runCli(['simulate', '--steps', '60', '--json', '--world', spelled]);
    return JSON.parse(run.stdout).fingerprint;
  }

  it('replays the fifth fit bit for bit: the fingerprint its own code printed (commit 51c0563, 60 default steps)', async () => {
    expect(await linkWorldFingerprint(1)).toBe('d90497390ea61c42');
  });

  it('replays the seventh fit bit for bit from a v=2 link: the fingerprint its own code printed (60 default steps)', async () => {
    expect(parseUrlState('v=2').state.world).toEqual(EARLIER_LINK_WORLDS[2].values);
    expect(await linkWorldFingerprint(2)).toBe(SEVENTH_FIT_FINGERPRINT);
  });

  it('replays the eighth fit bit for bit from a v=3 link: the fingerprint its own code printed (60 default steps)', async () => {
    expect(parseUrlState('v=3').state.world).toEqual(EARLIER_LINK_WORLDS[3].values);
    expect(await linkWorldFingerprint(3)).toBe(EIGHTH_FIT_FINGERPRINT);
  });

  it('replays the twelfth fit bit for bit from a v=4 link: the fingerprint its own code printed (60 default steps)', async () => {
    expect(parseUrlState('v=4').state.world).toEqual(EARLIER_LINK_WORLDS[4].values);
    expect(await linkWorldFingerprint(4)).toBe(TWELFTH_FIT_FINGERPRINT);
  });

  it('replays the fourteenth fit bit for bit from a v=5 link: the fingerprint its own code printed (60 default steps)', async () => {
    expect(parseUrlState('v=5').state.world).toEqual(EARLIER_LINK_WORLDS[5].values);
    expect(await linkWorldFingerprint(5)).toBe(FOURTEENTH_FIT_FINGERPRINT);
  });

  it("an exported figure's footer carries the world it was simulated in", () => {
    const a = defaultState().a;
    expect(configFooter(a, null, 'abc')).toBe('EnvSched Lab · envscaler-rl · defaults · fingerprint abc');
    const footer = configFooter(a, null, null, { ...calibratedWorld(), forgetting: 0 });
    expect(footer).toBe('EnvSched Lab · envscaler-rl · w.forgetting=0');
  });
});
