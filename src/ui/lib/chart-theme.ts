// The step charts' two themes. Kept apart from lib/charts.ts so that the page can pick a theme
// before Chart.js (a chunk of its own, loaded after the first render) has arrived.

/** Colours and sizes of the step charts in each theme (normal: light; presentation: dark, large). */
export interface ChartTheme {
  background: string;
  tick: string;
  tickSize: number;
  grid: string;
  lineWidth: number;
  /** The random scheduler's reference line: grey, thinner, but >= 3:1 against the background (WCAG 1.4.11). */
  reference: string;
  referenceWidth: number;
  marker: number;
}

// '#858585' on white: 3.7:1.
const LIGHT: ChartTheme = {
  background: '#ffffff',
  tick: '#4b5563',
  tickSize: 11,
  grid: 'rgba(128,128,128,0.18)',
  lineWidth: 2.25,
  reference: '#858585',
  referenceWidth: 1.5,
  marker: 1.5,
};
// Presentation mode (projectors): ticks >= 14 px at 1920 x 1080, thicker lines, light ink on
// --panel #101214 ('#a3a3a3' on it: 7.4:1).
const PRESENT: ChartTheme = {
  background: '#101214',
  tick: '#d0d4da',
  tickSize: 16,
  grid: 'rgba(200,200,200,0.18)',
  lineWidth: 3.5,
  reference: '#a3a3a3',
  referenceWidth: 2.25,
  marker: 2.5,
};

export function chartTheme(present: boolean): ChartTheme {
  return present ? PRESENT : LIGHT;
}
