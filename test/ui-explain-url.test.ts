// The lecture link's own key (src/ui/explain/explain-url.ts): `explain=<scene>` opens the
// walkthrough at that scene, leaves the app's keys to the app, and never throws.
import { describe, expect, it } from 'vitest';
import { splitExplainParams, withExplainParams } from '../src/ui/explain/explain-url.ts';
import { parseUrlState } from '../src/ui/state/url-state.ts';
import { SCENES, scenesFor } from '../src/ui/explain/scenes.ts';

describe('the lecture link', () => {
  it('opens the named scene and hands every other key to the app unchanged', () => {
    const { app, link, notices } = splitExplainParams('?v=2&dataset=tiny&step=12&explain=coverage&controls=0&present=1');
    expect(link).toEqual({ scene: 'coverage' });
    expect(notices).toEqual([]);
    const read = parseUrlState(app);
    expect(read.notices).toEqual([]);
    expect(read.state).toMatchObject({ step: 12, present: true, controls: false });
    expect(read.state.a.dataset).toBe('tiny');
  });

  it('reads a link without the key as closed, and an unknown scene as the first one with a notice', () => {
    expect(splitExplainParams('?step=3').link).toBeNull();
    const bad = splitExplainParams('?explain=%3Cscript%3E');
    expect(bad.link).toEqual({ scene: 'rollouts' });
    expect(bad.notices[0]).toMatch(/^explain=<script>: no such scene/);
  });

  it('round-trips every scene through the written URL', () => {
    for (const scene of SCENES) {
      const query = withExplainParams('v=2&step=4', true, scene);
      expect(splitExplainParams(query).link).toEqual({ scene });
    }
    expect(withExplainParams('v=2&step=4', false, 'fusion')).toBe('v=2&step=4');
  });

  it('gives a cold start only the scenes that have something to show', () => {
    expect(scenesFor(true)).toEqual(['filters', 'update']);
    expect(scenesFor(false)).toEqual(SCENES);
  });
});
