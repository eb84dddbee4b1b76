// The footer line of an exported figure: enough to reproduce it (the link's query and the fingerprint).
import type { Config } from '../../engine/types.ts';
import { defaultState, serializeUrlState } from '../state/url-state.ts';

export function configFooter(a: Config, b: Config | null, fingerprint: string | null): string {
  const state = { ...defaultState(), a, b };
  const query = serializeUrlState(state).replace(/^v=1&?/, '') || 'defaults';
  return `EnvSched Lab · ${a.dataset} · ${query}${fingerprint ? ` · fingerprint ${fingerprint}` : ''}`;
}
