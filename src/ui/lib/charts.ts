// The step charts' themes (drawn by lib/line-chart.ts), and Chart.js registered with line charts
// on linear scales for the sweep view (src/ui/sweep), with two small plugins: an opaque background
// (so exported PNGs are not transparent) and the marker of the current step.
import { Chart, LineController, LineElement, LinearScale, PointElement, type Plugin } from 'chart.js';

Chart.register(LineController, LineElement, PointElement, LinearScale);

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

const LIGHT: ChartTheme = { background: '#ffffff', tick: '#4b5563', tickSize: 11, grid: 'rgba(128,128,128,0.18)', lineWidth: 2.25, reference: '#858585', referenceWidth: 1.5, marker: 1.5 };
// Presentation mode (projectors): ticks >= 14 px at 1920 x 1080, thicker lines, light ink on --panel #101214.
const PRESENT: ChartTheme = { background: '#101214', tick: '#d0d4da', tickSize: 16, grid: 'rgba(200,200,200,0.18)', lineWidth: 3.5, reference: '#a3a3a3', referenceWidth: 2.25, marker: 2.5 };

export function chartTheme(present: boolean): ChartTheme {
  return present ? PRESENT : LIGHT;
}

export const backgroundPlugin: Plugin<'line'> = {
  id: 'envschedBackground',
  beforeDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    // A chart may set $background (no getComputedStyle per draw: that forces a style recalculation).
    ctx.fillStyle = (chart as unknown as { $background?: string }).$background ?? (getComputedStyle(chart.canvas).getPropertyValue('--panel').trim() || '#ffffff');
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** Draws a vertical line at `chart.$step` (set by the component before update). */
export const stepMarkerPlugin: Plugin<'line'> = {
  id: 'envschedStep',
  afterDatasetsDraw(chart) {
    const step = (chart as unknown as { $step?: number }).$step;
    if (step === undefined) return;
    const x = chart.scales.x.getPixelForValue(step);
    const { top, bottom } = chart.chartArea;
    const { ctx } = chart;
    ctx.save();
    ctx.strokeStyle = '#D55E00';
    ctx.lineWidth = (chart as unknown as { $marker?: number }).$marker ?? 1.5;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.restore();
  },
};

export { Chart };
