// Chart.js, registered with only what the step charts use (line charts on linear scales), plus
// two small plugins: an opaque background (so exported PNGs are not transparent) and the marker
// of the current step.
import { Chart, LineController, LineElement, LinearScale, PointElement, type Plugin } from 'chart.js';

Chart.register(LineController, LineElement, PointElement, LinearScale);

export const backgroundPlugin: Plugin<'line'> = {
  id: 'envschedBackground',
  beforeDraw(chart) {
    const { ctx } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = getComputedStyle(chart.canvas).getPropertyValue('--panel').trim() || '#ffffff';
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
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
    ctx.stroke();
    ctx.restore();
  },
};

export { Chart };
