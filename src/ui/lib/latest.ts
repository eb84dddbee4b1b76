// "Latest request wins", once for every on-demand view (inspector, pool scatter): at most one
// request in flight; a newer request replaces the queued one (intermediate requests are dropped,
// never computed) and starts when the one in flight has settled. The one in flight is not aborted
// by a newer request: its answer, at most one request older than the newest, is still shown, so a
// view that follows the player lags it by at most one step instead of showing nothing new while
// each request is superseded before it lands. `cancel()` aborts it (the work checks
// `signal.aborted` before it writes an answer, so a cancelled answer is dropped).
export class Latest<V> {
  private controller: AbortController | null = null;
  private busy = false;
  private next: V | null = null;
  private lastKey: string | null = null;

  constructor(private readonly work: (value: V, signal: AbortSignal) => Promise<void>) {}

  /** Asks for `value`, identified by `key`: the same key as the last request is not asked again. */
  request(key: string, value: V): void {
    if (key === this.lastKey) return;
    this.lastKey = key;
    this.next = value;
    void this.pump();
  }

  /** Aborts the request in flight and forgets the last key (the next request always runs). */
  cancel(): void {
    this.controller?.abort();
    this.next = null;
    this.lastKey = null;
  }

  private async pump(): Promise<void> {
    if (this.busy || this.next === null) return;
    this.busy = true;
    const value = this.next;
    this.next = null;
    const controller = new AbortController();
    this.controller = controller;
    try {
      await this.work(value, controller.signal);
    } finally {
      this.busy = false;
    }
    void this.pump();
  }
}
