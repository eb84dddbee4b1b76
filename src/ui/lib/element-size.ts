// An element's client size without a forced layout: Svelte's bind:clientWidth reads the size
// synchronously when it mounts, which made the page's first task lay out the whole page (~50 ms on
// the shared machine). A ResizeObserver reports the size after the browser's own layout instead.

/** A Svelte attachment (`{@attach elementSize(...)}`) reporting the client width and height. */
export function elementSize(set: (width: number, height: number) => void): (node: HTMLElement) => () => void {
  return (node) => {
    const observer = new ResizeObserver(() => set(node.clientWidth, node.clientHeight));
    observer.observe(node);
    return () => observer.disconnect();
  };
}
