// Leading + trailing throttle: the first change runs at once (immediacy), a burst of changes (a
// dragged slider) runs at most once per interval, and the last value always runs.
export function throttle(fn: () => void, interval: number): () => void {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  return () => {
    const now = performance.now();
    if (timer !== null) return;
    const wait = last + interval - now;
    if (wait <= 0) {
      last = now;
      fn();
    } else {
      timer = setTimeout(() => {
        timer = null;
        last = performance.now();
        fn();
      }, wait);
    }
  };
}
