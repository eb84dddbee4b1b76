// The walkthrough's scenes, in the order a lecture tells the loop: rollouts -> history -> neighbours
// -> fusion -> coverage -> exploitation -> filters -> the next step. A cold start (no history) has
// only the last two: what the batch is made of without predictions, and what it brings back.

export const SCENES = ['rollouts', 'history', 'neighbours', 'fusion', 'coverage', 'exploitation', 'filters', 'update'] as const;
export type SceneId = (typeof SCENES)[number];

export interface SceneMeta {
  title: string;
  /** The paper's equation (or appendix) the scene is about. */
  paper: string;
}

export const SCENE_META: Record<SceneId, SceneMeta> = {
  rollouts: { title: 'A group of rollouts', paper: 'Eq. 2, App. B' },
  history: { title: 'History under two half-lives', paper: 'Eq. 3\u20134, App. B' },
  neighbours: { title: 'Borrowing from neighbours', paper: 'Eq. 3' },
  fusion: { title: 'Fusion, calibration, priority', paper: 'Eq. 4, App. B' },
  coverage: { title: 'Coverage phase', paper: 'Eq. 5, Sec. 2.4' },
  exploitation: { title: 'Exploitation phase', paper: 'Eq. 5, Sec. 2.4' },
  filters: { title: 'Filters and caps', paper: 'App. C' },
  update: { title: 'Rollouts feed the next step', paper: 'Eq. 2\u20133' },
};

/** The scenes a step has: all eight, or at a cold start the filters (with the cold start) and the update. */
export function scenesFor(coldStart: boolean): readonly SceneId[] {
  return coldStart ? ['filters', 'update'] : SCENES;
}

export function isSceneId(text: string | null): text is SceneId {
  return text !== null && (SCENES as readonly string[]).includes(text);
}
