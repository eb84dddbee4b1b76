// The simulated world's knobs in a link: `w.<knob>=<value>` (for example `w.breadth=0` for a world
// where breadth does not matter, `w.forgetting=0` for one where nothing is forgotten), the fitted
// constants too (`w.logitScale=4.68`, so a fitted world of docs/calibration-report.md opens). Only values
// that differ from the calibrated defaults are written; a value outside its bounds is corrected to
// the calibrated one and reported as a notice, like every other knob.
import {
  DEFAULT_SIM_MODEL,
  WORLD_PARAMS,
  worldBounds,
  worldDifferences,
  type SimModelParams,
  type WorldParam,
  type WorldSettings,
} from '../../sim/model-params.ts';
import { short } from './url-state.ts';

export const WORLD_URL_PREFIX = 'w.';

/** The calibrated world (the simulator's defaults). */
export function calibratedWorld(): WorldSettings {
  return Object.fromEntries(WORLD_PARAMS.map((k) => [k, DEFAULT_SIM_MODEL[k]])) as WorldSettings;
}

/** The world knobs of a world given as changes to the calibrated one (other parameters are not knobs of the page). */
export function worldSettingsOf(changes: Partial<SimModelParams>): WorldSettings {
  const world = calibratedWorld();
  for (const k of WORLD_PARAMS) if (changes[k] !== undefined) world[k] = changes[k];
  return world;
}

/** The page's world knobs as changes to the calibrated world (the inverse of worldSettingsOf). */
export function worldChangesOf(world: WorldSettings): Partial<SimModelParams> {
  return worldDifferences({ ...DEFAULT_SIM_MODEL, ...world });
}

/**
 * Applies `w.<knob>=text` to `world`; returns a notice when the key or value had to be ignored or
 * corrected. A corrected value falls back to `base`'s (the world the link was written against:
 * the calibrated one, or an older link version's, src/ui/state/link-versions.ts).
 */
export function parseWorldKey(
  world: WorldSettings,
  key: string,
  text: string,
  base: WorldSettings = calibratedWorld(),
  baseName = 'the calibrated',
): string | null {
  const knob = key.slice(WORLD_URL_PREFIX.length);
  const bounds = worldBounds(knob);
  if (!bounds) return `${short(key)}: unknown world knob (known: ${WORLD_PARAMS.join(', ')}); ignored`;
  const k = knob as WorldParam;
  const [lo, hi] = bounds;
  const value = text.trim() === '' ? NaN : Number(text);
  if (!Number.isFinite(value) || value < lo || value > hi) {
    world[k] = base[k];
    return `${key}=${short(text)}: must be a number in [${lo}, ${hi}]; using ${baseName} ${base[k]}`;
  }
  world[k] = value;
  return null;
}

/** Writes the knobs that differ from the calibrated world. */
export function serializeWorld(world: WorldSettings, params: URLSearchParams): void {
  for (const k of WORLD_PARAMS) if (!Object.is(world[k], DEFAULT_SIM_MODEL[k])) params.set(`${WORLD_URL_PREFIX}${k}`, String(world[k]));
}
