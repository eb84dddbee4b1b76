// Runs the result card's seeds in the background worker pool: latest configuration wins (an
// AbortSignal per request), started once a change has settled (a dragged knob does not start
// pool work at every position) and the page's own run has finished (the charts come first). The pool is made on first use and kept while idle; a change that
// arrives while seeds are running terminates it (a WASM run cannot be interrupted), so stale runs
// never compete for the cores with the new configuration's first steps.
import type { Config } from '../../engine/types.ts';
import { copyConfig } from '../state/model.ts';
import { runCard, type CardExecutor, type SeedPair } from './card.ts';

export interface CardFields {
  /** What the card compares (null: nothing to compare, e.g. A is random with compare off). */
  a: Config | null;
  b: Config | null;
  pairs: SeedPair[];
  seeds: number;
  running: boolean;
  error: string | null;
}

export const DEFAULT_CARD_SEEDS = 5;
/** A change must have settled this long before the pool starts on it. */
export const CARD_SETTLE_MS = 250;

export class CardRunner {
  private controller: AbortController | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private executor: Promise<CardExecutor> | null = null;
  /** The executor once made (`executor` resolved): terminated synchronously on a change. */
  private made: CardExecutor | null = null;
  private key: string | null = null;
  /** True while the page's own run computes: the seeds wait for it (see setForeground). */
  private foregroundBusy = false;
  private waitingStart: (() => void) | null = null;

  constructor(
    private readonly fields: CardFields,
    private readonly makeExecutor: () => Promise<CardExecutor>,
  ) {}

  /** The configurations to compare changed (or the number of seeds): restart once it settles. */
  want(a: Config | null, b: Config | null, seeds: number): void {
    const key = JSON.stringify([a, b, seeds]);
    if (key === this.key) return;
    this.key = key;
    if (this.controller) {
      this.controller.abort();
      this.controller = null;
      const busy = this.executor;
      this.executor = null;
      // Now, not in a later microtask: the page re-renders for the change in between, and the stale
      // seeds would keep both cores busy while the new configuration's first step waits.
      if (this.made) this.made.terminate();
      else
        void busy?.then(
          (e) => e.terminate(),
          () => {},
        );
      this.made = null;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.waitingStart = null;
    const f = this.fields;
    f.a = a ? copyConfig(a) : null;
    f.b = b ? copyConfig(b) : null;
    f.seeds = seeds;
    f.pairs = [];
    f.error = null;
    f.running = a !== null && b !== null;
    if (!a || !b) return;
    const ca = copyConfig(a);
    const cb = copyConfig(b);
    this.timer = setTimeout(() => {
      this.timer = null;
      const go = () => void this.start(ca, cb, seeds);
      if (this.foregroundBusy) this.waitingStart = go;
      else go();
    }, CARD_SETTLE_MS);
  }

  /**
   * The page's own run (the charts) is computing or not. Seeds start only once it is done: on two
   * cores, two background seeds beside it made the 200-step run take about twice as long.
   */
  setForeground(busy: boolean): void {
    this.foregroundBusy = busy;
    const go = this.waitingStart;
    if (busy || !go) return;
    this.waitingStart = null;
    go();
  }

  private async start(a: Config, b: Config, seeds: number): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const f = this.fields;
    try {
      const making = (this.executor ??= this.makeExecutor());
      const executor = await making;
      if (this.executor === making) this.made = executor;
      await runCard(executor, a, b, seeds, controller.signal, (progress) => {
        f.pairs = progress.pairs;
      });
    } catch (error) {
      if (!controller.signal.aborted) f.error = (error as Error).message;
    } finally {
      if (this.controller === controller) {
        f.running = false;
        this.controller = null;
      }
    }
  }

  cancel(): void {
    this.controller?.abort();
    this.key = null;
    this.waitingStart = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.fields.running = false;
  }
}
