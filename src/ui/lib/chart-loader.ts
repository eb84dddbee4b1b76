// Chart.js is the largest part of the app's script; it is loaded as a chunk of its own right after
// the first render, so parsing it is not part of the page's first (longest) task. The step charts
// draw once it is here (the first run takes longer than that anyway).
export type ChartLib = typeof import('./charts.ts');

let loaded: ChartLib | null = null;
let loading: Promise<ChartLib> | null = null;

/** Chart.js and our plugins if already loaded, else null. */
export function chartLib(): ChartLib | null {
  return loaded;
}

/** Loads Chart.js and our plugins once. */
export function loadChartLib(): Promise<ChartLib> {
  loading ??= import('./charts.ts').then((lib) => (loaded = lib));
  return loading;
}
