// Chart.js for the app: the five step charts (components/StepChart.svelte) and the sweep view (src/ui/sweep). Registered: only what a line chart on
// linear scales needs (tree-shaken bundle, less per-update work), the decimation plugin for long
// runs, and three small plugins of our own: an opaque background (exported PNGs are not
// transparent), the marker of the current step, and click-to-step.
import { Chart, Decimation, LineController, LineElement, LinearScale, PointElement, type Plugin } from 'chart.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, Decimation);
Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

export { chartTheme, type ChartTheme } from './chart-theme.ts';

/**
 * A tick label as Chart.js prints it (grouped thousands, the decimals the tick spacing needs), without
 * Intl.NumberFormat: Chart.js builds one per chart and format on the first update, which cost ~30 ms
 * of the first chart's task here.
 */
export function tickLabel(value: number, spacing: number): string {
  if (value === 0) return '0'; // as Chart.js prints it
  let decimals = 0;
  const step = Math.abs(spacing);
  if (step > 0 && Number.isFinite(step)) {
    while (decimals < 8 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6 * 10 ** decimals * step) decimals++;
  }
  const text = value.toFixed(decimals);
  const [whole, frac] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** Chart.js tick callback using tickLabel with the spacing of the ticks around the value. */
export function tickCallback(value: number | string, index: number, ticks: { value: number }[]): string {
  const v = Number(value);
  const next = ticks[index + 1] ?? ticks[index - 1];
  // The last step (a bound, not a round value) is labelled as an integer on the x axis.
  const spacing =
    index > 0 && index === ticks.length - 1 && ticks.length > 2 ? ticks[1].value - ticks[0].value : next ? Math.abs(next.value - v) : 1;
  return tickLabel(v, spacing);
}

/** What the step charts keep on the Chart.js instance for the plugins below (no getComputedStyle per draw). */
export interface StepChartExtras {
  $background?: string;
  $step?: number;
  $marker?: number;
  $onstep?: (step: number) => void;
}

function extras(chart: Chart): StepChartExtras {
  return chart as unknown as StepChartExtras;
}

export const backgroundPlugin: Plugin<'line'> = {
  id: 'envschedBackground',
  beforeDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    // A chart may set $background (no getComputedStyle per draw: that forces a style recalculation).
    ctx.fillStyle = extras(chart).$background ?? (getComputedStyle(chart.canvas).getPropertyValue('--panel').trim() || '#ffffff');
    ctx.fillRect(0, 0, chart.width, chart.height);
    ctx.restore();
  },
};

/** Draws a vertical line at `chart.$step` (set by the component before update). */
export const stepMarkerPlugin: Plugin<'line'> = {
  id: 'envschedStep',
  afterDatasetsDraw(chart) {
    const step = extras(chart).$step;
    if (step === undefined) return;
    const x = chart.scales.x.getPixelForValue(step);
    const { top, bottom } = chart.chartArea;
    const { ctx } = chart;
    ctx.save();
    ctx.strokeStyle = '#D55E00';
    ctx.lineWidth = extras(chart).$marker ?? 1.5;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.restore();
  },
};

/** The step under a click (clamped to the x axis), handed to `chart.$onstep`. */
export const clickToStepPlugin: Plugin<'line'> = {
  id: 'envschedClickStep',
  afterEvent(chart, args) {
    const { event } = args;
    const onstep = extras(chart).$onstep;
    if (event.type !== 'click' || !onstep || event.x === null) return;
    const x = chart.scales.x;
    const value = x.getValueForPixel(Math.max(x.left, Math.min(x.right, event.x)));
    if (value !== undefined && Number.isFinite(value)) onstep(Math.max(0, Math.round(value)));
  },
};

export { Chart };
