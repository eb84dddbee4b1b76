// The lecture link: `explain=<scene>` opens Explain mode at that scene (with the usual `step`,
// `task`, `present` and `controls` keys: controls=0 hides the walkthrough's buttons too). The key
// is Explain mode's own: it is split off before the app reads its state, and written back while
// the walkthrough is open.
import { isSceneId, type SceneId } from './scenes.ts';

export interface ExplainLink {
  scene: SceneId;
}

export function splitExplainParams(search: string): { app: string; link: ExplainLink | null; notices: string[] } {
  const params = new URLSearchParams(search);
  const value = params.get('explain');
  params.delete('explain');
  const notices: string[] = [];
  let link: ExplainLink | null = null;
  if (value !== null) {
    if (isSceneId(value)) link = { scene: value };
    else if (value === '1' || value === '') link = { scene: 'rollouts' };
    else {
      notices.push(`explain=${value.slice(0, 40)}: no such scene; opening the first one`);
      link = { scene: 'rollouts' };
    }
  }
  return { app: params.toString(), link, notices };
}

/** The app's query with the walkthrough's key added (when it is open). */
export function withExplainParams(query: string, open: boolean, scene: SceneId): string {
  return open ? `${query}${query ? '&' : ''}explain=${scene}` : query;
}
