// Chart.js parts the sweep's line chart needs beyond the app's (src/ui/lib/charts.ts): the filler
// (the 95% band between two lines) and a marker of the knob's default (SPEC 11's, or the calibrated world's).
import { Filler, type Plugin } from 'chart.js';
import { Chart } from '../lib/charts.ts';

Chart.register(Filler);

/** A dashed vertical line at `chart.$default` (x value), labelled "default". */
export const defaultMarkerPlugin: Plugin<'line'> = {
  id: 'envschedSweepDefault',
  afterDatasetsDraw(chart) {
    const x0 = (chart as unknown as { $default?: number }).$default;
    if (x0 === undefined) return;
    const x = chart.scales.x.getPixelForValue(x0);
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
    ctx.setLineDash([]);
    ctx.fillStyle = '#D55E00';
    ctx.font = '11px sans-serif';
    ctx.fillText('default', x + 4, top + 11);
    ctx.restore();
  },
};

export { Chart };
