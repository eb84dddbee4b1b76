// The app's whole state that a link carries (TensorFlow-Playground style): one typed object,
// written to the URL query and read back. Versioned (`v=3`; a `v=1` or `v=2` link opens in the world it was
// written against, src/ui/state/link-versions.ts). Reading never throws: an unknown key
// or a value outside its range (CONFIG_RULES, via checkConfigValue) is corrected and reported as a
// notice the page shows. Only values that differ from the defaults are written, so links stay short.
import { CONFIG_KEYS, CONFIG_RULES, DEFAULT_CONFIG, checkConfigValue, type ConfigKey } from '../../engine/config.ts';
import type { Config } from '../../engine/types.ts';
import { calibratedWorld, parseWorldKey, serializeWorld, WORLD_URL_PREFIX } from './world-url.ts';
import { EARLIER_LINK_WORLDS, isKnownLinkVersion, linkWorldBase, URL_VERSION } from './link-versions.ts';
import type { WorldSettings } from '../../sim/model-params.ts';

export { URL_VERSION } from './link-versions.ts';

export interface AppState {
  /** Configuration A: every SPEC 11 knob plus scheduler, seed, dataset (SPEC 12 keys). */
  a: Config;
  /** Configuration B of compare mode (null: compare off). Written as `b.<key>` differences from A. */
  b: Config | null;
  /** The step the views show; null = the last step of the run. */
  step: number | null;
  /** The task under the inspector (pool index); null = none. */
  task: number | null;
  /** Presentation mode: large type, high contrast. */
  present: boolean;
  /** False hides the control panel (classroom links). */
  controls: boolean;
  /** The simulated world's mechanisms (docs/simulator.md); written as `w.<knob>` differences from the calibrated values. */
  world: WorldSettings;
}

export function defaultConfig(): Config {
  return { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'] };
}

export function defaultState(): AppState {
  return { a: defaultConfig(), b: null, step: null, task: null, present: false, controls: true, world: calibratedWorld() };
}

function sameValue(x: unknown, y: unknown): boolean {
  return Array.isArray(x) && Array.isArray(y) ? x.length === y.length && x.every((v, k) => Object.is(v, y[k])) : Object.is(x, y);
}

/** Reads one URL value into the type its key expects (validation comes after). */
function decodeValue(key: ConfigKey, text: string): unknown {
  const kind = CONFIG_RULES[key].kind;
  if (kind === 'scheduler' || kind === 'dataset') return text;
  if (kind === 'alpha') return text.split(',').map((part) => (part.trim() === '' ? NaN : Number(part)));
  return text.trim() === '' ? NaN : Number(text);
}

function encodeValue(value: unknown): string {
  return Array.isArray(value) ? value.map((v) => String(v)).join(',') : String(value);
}

/** A quoted URL value for a notice: at most 40 characters, control characters escaped (`\u000a`), so a notice stays one line. */
export function short(text: string): string {
  const cut = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The rule's words with the value the link really carried: the shared check prints a decoded
 * number as JSON, where NaN (from "abc" or a script string) and Infinity both read "null".
 */
function realValue(problem: string, value: unknown, text: string): string {
  const decoded = Array.isArray(value) ? value : [value];
  if (!decoded.some((v) => typeof v === 'number' && !Number.isFinite(v))) return problem;
  return problem.replace(/, got .*$/, `, got "${short(text)}"`);
}

/** Applies `key=text` to `config`; returns a notice when the value had to be corrected. */
function applyKey(config: Config, key: ConfigKey, text: string, label: string, fallback: Config): string | null {
  const value = decodeValue(key, text);
  const problem = checkConfigValue(key, value);
  if (problem !== null) {
    (config as unknown as Record<string, unknown>)[key] = key === 'alpha' ? [...fallback.alpha] : fallback[key];
    return `${label}=${short(text)}: ${realValue(problem, value, text)}; using ${encodeValue(fallback[key])}`;
  }
  (config as unknown as Record<string, unknown>)[key] = value;
  return null;
}

function readIndex(text: string, label: string, notices: string[]): number | null {
  const n = Number(text);
  if (text.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 1e9) return n;
  notices.push(`${label}=${short(text)}: must be a non-negative integer; ignored`);
  return null;
}

function readFlag(text: string, label: string, notices: string[], fallback: boolean): boolean {
  if (text === '1' || text === 'true') return true;
  if (text === '0' || text === 'false') return false;
  notices.push(`${label}=${short(text)}: must be 1 or 0; using ${fallback ? 1 : 0}`);
  return fallback;
}

/** The link's version: the current one when absent (a hand-written link) or unknown (with a notice). */
function readVersion(text: string | null, notices: string[]): number {
  if (text === null) return URL_VERSION;
  const version = Number(text);
  if (/^\d+$/.test(text) && isKnownLinkVersion(version)) return version;
  notices.push(`v=${short(text)}: unknown link version; read as v=${URL_VERSION}`);
  return URL_VERSION;
}

/**
 * Reads a query string (with or without `?`) into a state; never throws. `notices` are the
 * corrections the link needed; `info` says when an older link version opened in its own world.
 */
export function parseUrlState(search: string): { state: AppState; notices: string[]; info: string[] } {
  const params = new URLSearchParams(search);
  const state = defaultState();
  const notices: string[] = [];
  const info: string[] = [];
  const version = readVersion(params.get('v'), notices);
  const earlier = EARLIER_LINK_WORLDS[version];
  const worldBase = linkWorldBase(version);
  if (earlier) {
    state.world = { ...worldBase };
    info.push(
      `v=${version}: this link was made in ${earlier.label}; it opens in that world, so it replays as it did then (the link now reads v=${URL_VERSION}, with that world's values as w.* keys)`,
    );
  }
  const worldBaseName = earlier ? `the v=${version} link's` : 'the calibrated';
  const bEntries: [ConfigKey, string][] = [];
  let compare = false;
  for (const [rawKey, text] of params) {
    // `debug=1` switches on the test hooks (lab.svelte.ts); it is read there and never written back.
    if (rawKey === 'v' || rawKey === 'debug') continue;
    if (rawKey === 'step') state.step = readIndex(text, rawKey, notices);
    else if (rawKey === 'task') state.task = readIndex(text, rawKey, notices);
    else if (rawKey === 'present') state.present = readFlag(text, rawKey, notices, false);
    else if (rawKey === 'controls') state.controls = readFlag(text, rawKey, notices, true);
    else if (rawKey === 'b') compare = readFlag(text, rawKey, notices, false);
    else if (rawKey.startsWith(WORLD_URL_PREFIX)) {
      const notice = parseWorldKey(state.world, rawKey, text, worldBase, worldBaseName);
      if (notice) notices.push(notice);
    } else if (rawKey.startsWith('b.') && (CONFIG_KEYS as string[]).includes(rawKey.slice(2))) {
      bEntries.push([rawKey.slice(2) as ConfigKey, text]);
      compare = true;
    } else if ((CONFIG_KEYS as string[]).includes(rawKey)) {
      const notice = applyKey(state.a, rawKey as ConfigKey, text, rawKey, defaultConfig());
      if (notice) notices.push(notice);
    } else notices.push(`${short(rawKey)}: unknown setting; ignored`);
  }
  if (compare) {
    const a = state.a;
    const b: Config = { ...a, alpha: [...a.alpha] as Config['alpha'] };
    for (const [key, text] of bEntries) {
      const notice = applyKey(b, key, text, `b.${key}`, a);
      if (notice) notices.push(notice);
    }
    // B always simulates the same pool as A: the comparison is about the scheduler and its knobs.
    if (b.dataset !== a.dataset) {
      notices.push(`b.dataset: configuration B uses A's dataset (${a.dataset})`);
      b.dataset = a.dataset;
    }
    state.b = b;
  }
  return { state, notices, info };
}

/** Writes a state as a query string (`v=3&...`), keys in a stable order, defaults left out. */
export function serializeUrlState(state: AppState): string {
  const params = new URLSearchParams();
  params.set('v', String(URL_VERSION));
  const defaults = defaultConfig();
  for (const key of CONFIG_KEYS) {
    if (!sameValue(state.a[key], defaults[key])) params.set(key, encodeValue(state.a[key]));
  }
  if (state.b) {
    let differs = false;
    for (const key of CONFIG_KEYS) {
      if (key === 'dataset') continue;
      if (!sameValue(state.b[key], state.a[key])) {
        params.set(`b.${key}`, encodeValue(state.b[key]));
        differs = true;
      }
    }
    if (!differs) params.set('b', '1');
  }
  if (state.step !== null) params.set('step', String(state.step));
  if (state.task !== null) params.set('task', String(state.task));
  if (state.present) params.set('present', '1');
  if (!state.controls) params.set('controls', '0');
  serializeWorld(state.world, params);
  return params.toString();
}

/** The keys whose values differ between two configurations (compare mode's "difference" list). */
export function configDifferences(a: Config, b: Config): { key: ConfigKey; a: string; b: string }[] {
  return CONFIG_KEYS.filter((key) => !sameValue(a[key], b[key])).map((key) => ({ key, a: encodeValue(a[key]), b: encodeValue(b[key]) }));
}
