// The footer line of an exported figure: enough to reproduce it (the link's query, with the
// simulated world's w.* keys when it is not the calibrated one, and the fingerprint).
import type { Config } from '../../engine/types.ts';
import type { WorldSettings } from '../../sim/model-params.ts';
import { defaultState, serializeUrlState } from '../state/url-state.ts';

/** `world`: the world the figure's runs were simulated in (default: the calibrated one). */
export function configFooter(a: Config, b: Config | null, fingerprint: string | null, world?: WorldSettings): string {
  const state = { ...defaultState(), a, b, ...(world ? { world } : {}) };
  const query = serializeUrlState(state).replace(/^v=\d+&?/, '') || 'defaults';
  return `EnvSched Lab · ${a.dataset} · ${query}${fingerprint ? ` · fingerprint ${fingerprint}` : ''}`;
}
