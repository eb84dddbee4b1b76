// The on-demand views' request queue (src/ui/lib/latest.ts), as a view that follows the player
// sees it: requests arriving faster than answers never starve the view (the answer in flight is
// shown, at most one request behind), the requests in between are never computed, the newest
// always ends up shown, and a cancelled request's answer is dropped.
import { describe, expect, it } from 'vitest';
import { Latest } from '../src/ui/lib/latest.ts';

/** A view over a Latest whose work answers only when the test says so. */
function view() {
  const started: number[] = [];
  const shown: number[] = [];
  const pending: (() => void)[] = [];
  const latest = new Latest<number>(async (step, signal) => {
    started.push(step);
    await new Promise<void>((resolve) => pending.push(resolve));
    if (!signal.aborted) shown.push(step);
  });
  const answer = async () => {
    pending.shift()?.();
    for (let k = 0; k < 5; k++) await Promise.resolve();
  };
  return { latest, started, shown, answer, ask: (step: number) => latest.request(String(step), step) };
}

describe('Latest (the inspector and the scatter follow the player)', () => {
  it('shows the answer in flight when newer requests arrive, skips the ones in between, and ends on the newest', async () => {
    const v = view();
    v.ask(1);
    v.ask(2); // the player moves on while step 1 is computed
    v.ask(3);
    v.ask(4);
    await v.answer();
    expect(v.shown).toEqual([1]); // step 1 is shown: one behind the player, not nothing
    await v.answer();
    expect(v.started).toEqual([1, 4]); // steps 2 and 3 were never computed
    expect(v.shown).toEqual([1, 4]);
  });

  it('lags a player that moves on while each answer is being computed by at most one step', async () => {
    const v = view();
    let worst = 0;
    v.ask(0);
    for (let player = 1; player <= 20; player++) {
      v.ask(player); // the player moves on; the previous step's answer lands just after
      await v.answer();
      worst = Math.max(worst, player - (v.shown.at(-1) ?? -1));
    }
    expect(worst).toBe(1);
    await v.answer();
    expect(v.shown.at(-1)).toBe(20);
  });

  it('drops the answer of a cancelled request and asks the same key again afterwards', async () => {
    const v = view();
    v.ask(5);
    v.latest.cancel();
    await v.answer();
    expect(v.shown).toEqual([]);
    v.ask(5);
    await v.answer();
    expect(v.shown).toEqual([5]);
  });
});
