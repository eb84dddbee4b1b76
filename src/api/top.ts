// Ranked extras (oversampling): the best few of a large pool without sorting all of it.

/**
 * The `count` indices i < n with `keep(i)` of largest key (ties: lower index), in that order: a
 * bounded min-heap, O(n log count), so a few extras cost little on a 100K pool.
 */
export function topByKey(n: number, count: number, keep: (i: number) => boolean, key: (i: number) => number): number[] {
  const heap: number[] = [];
  // worse(a, b): a ranks below b
  const worse = (a: number, b: number) => key(a) < key(b) || (key(a) === key(b) && a > b);
  const down = (at: number) => {
    for (;;) {
      const l = 2 * at + 1;
      const r = l + 1;
      let m = at;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === at) return;
      [heap[at], heap[m]] = [heap[m], heap[at]];
      at = m;
    }
  };
  for (let i = 0; i < n && count > 0; i++) {
    if (!keep(i)) continue;
    if (heap.length < count) {
      heap.push(i);
      for (let at = heap.length - 1; at > 0;) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at], heap[parent])) break;
        [heap[at], heap[parent]] = [heap[parent], heap[at]];
        at = parent;
      }
    } else if (worse(heap[0], i)) {
      heap[0] = i;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
