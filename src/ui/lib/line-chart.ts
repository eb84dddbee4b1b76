// The step charts' renderer: a few polylines over steps on a 2D canvas. It replaces Chart.js for
// these five small charts because a Chart.js update re-merges and re-resolves every option and
// re-measures every tick label (10-40 ms per chart on the shared 2-core machine while a run
// streams); drawing 200 points x a few lines and ~10 labels here takes about a millisecond.
import type { ChartTheme } from './charts.ts';

export interface LineSeries {
  points: readonly { x: number; y: number }[];
  colour: string;
  width: number;
  dash: number[];
}

export interface LineChartState {
  series: LineSeries[];
  /** The x axis spans [0, xMax] (steps). */
  xMax: number;
  /** Current step marker (dashed vertical line); null for none. */
  step: number | null;
  theme: ChartTheme;
}

/** "Nice" tick values (1, 2, 2.5, 5 x 10^k) covering [min, max] with at most `maxCount` ticks. */
export function niceTicks(min: number, max: number, maxCount: number): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max < min) [min, max] = [max, min];
  if (max === min) {
    const pad = min === 0 ? 1 : Math.abs(min) * 0.1;
    min -= pad;
    max += pad;
  }
  maxCount = Math.max(2, maxCount);
  const raw = (max - min) / (maxCount - 1);
  // The smallest nice step whose ticks cover [min, max] in at most maxCount ticks.
  for (let exp = Math.floor(Math.log10(raw)); ; exp++) {
    for (const m of [1, 2, 2.5, 5]) {
      const step = m * 10 ** exp;
      if (step < raw * (1 - 1e-9)) continue;
      const first = Math.floor(min / step + 1e-9) * step;
      const last = Math.ceil(max / step - 1e-9) * step;
      const n = Math.round((last - first) / step) + 1;
      if (n > maxCount) continue;
      const out: number[] = [];
      for (let k = 0; k < n; k++) out.push(Number((first + k * step).toPrecision(12)));
      return out;
    }
  }
}

/** Tick labels as Chart.js prints them: grouped thousands, as many decimals as the step needs. */
export function tickLabel(value: number, step: number): string {
  let decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  while (decimals < 6 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6) decimals++;
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export class LineChart {
  private plot = { left: 0, top: 0, width: 1, height: 1 };
  private xMax = 1;

  constructor(private readonly canvas: HTMLCanvasElement) {}

  /** Draws `state` at the canvas's CSS size (width x height) and device pixel ratio. */
  draw(state: LineChartState, width: number, height: number): void {
    const { canvas } = this;
    if (width <= 0 || height <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(width * dpr);
    const h = Math.round(height * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const { theme } = state;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, width, height);

    let yMin = Infinity;
    let yMax = -Infinity;
    for (const s of state.series) {
      for (const p of s.points) {
        if (!Number.isFinite(p.y)) continue;
        if (p.y < yMin) yMin = p.y;
        if (p.y > yMax) yMax = p.y;
      }
    }
    const font = `${theme.tickSize}px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif`;
    ctx.font = font;
    const yTicks = Number.isFinite(yMin) ? niceTicks(yMin, yMax, 5) : [0, 1];
    const yStep = yTicks.length > 1 ? yTicks[1] - yTicks[0] : 1;
    const yLabels = yTicks.map((v) => tickLabel(v, yStep));
    const labelWidth = Math.max(...yLabels.map((l) => ctx.measureText(l).width));
    const xTicks = niceTicks(0, Math.max(1, state.xMax), 6).filter((v) => v <= state.xMax + 1e-9);
    if (xTicks[xTicks.length - 1] !== state.xMax) xTicks.push(state.xMax); // the last step, as Chart.js shows it
    const pad = Math.round(theme.tickSize * 0.5);
    const left = Math.ceil(labelWidth) + pad + 2;
    const bottom = theme.tickSize + pad + 2;
    const right = Math.ceil(ctx.measureText(String(state.xMax)).width / 2) + 2;
    const top = Math.ceil(theme.tickSize / 2) + 1;
    const plot = { left, top, width: Math.max(1, width - left - right), height: Math.max(1, height - top - bottom) };
    this.plot = plot;
    this.xMax = Math.max(1, state.xMax);
    const y0 = yTicks[0];
    const y1 = yTicks[yTicks.length - 1];
    const sx = (x: number) => plot.left + (x / this.xMax) * plot.width;
    const sy = (y: number) => plot.top + plot.height - ((y - y0) / (y1 - y0 || 1)) * plot.height;

    // Grid and tick labels.
    ctx.lineWidth = 1;
    ctx.strokeStyle = theme.grid;
    ctx.fillStyle = theme.tick;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    yTicks.forEach((v, k) => {
      const y = Math.round(sy(v)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(plot.left, y);
      ctx.lineTo(plot.left + plot.width, y);
      ctx.stroke();
      ctx.fillText(yLabels[k], plot.left - pad, y);
    });
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    let lastRight = -Infinity;
    for (const v of xTicks) {
      const label = String(v);
      const x = sx(v);
      const half = ctx.measureText(label).width / 2;
      if (x - half < lastRight + 4) continue; // no overlapping labels (the last step may be close to a round tick)
      ctx.fillText(label, x, plot.top + plot.height + pad);
      lastRight = x + half;
    }

    // Lines (gaps at NaN are spanned, as before).
    ctx.save();
    ctx.beginPath();
    ctx.rect(plot.left, plot.top - 2, plot.width, plot.height + 4);
    ctx.clip();
    ctx.lineJoin = 'round';
    for (const s of state.series) {
      ctx.strokeStyle = s.colour;
      ctx.lineWidth = s.width;
      ctx.setLineDash(s.dash);
      ctx.beginPath();
      let started = false;
      for (const p of s.points) {
        if (!Number.isFinite(p.y)) continue;
        if (started) ctx.lineTo(sx(p.x), sy(p.y));
        else ctx.moveTo(sx(p.x), sy(p.y));
        started = true;
      }
      ctx.stroke();
    }
    ctx.restore();

    if (state.step !== null) {
      const x = sx(state.step);
      ctx.save();
      ctx.strokeStyle = '#D55E00';
      ctx.lineWidth = theme.marker;
      ctx.setLineDash([4, 3]);
      ctx.beginPath();
      ctx.moveTo(x, plot.top);
      ctx.lineTo(x, plot.top + plot.height);
      ctx.stroke();
      ctx.restore();
    }
  }

  /** The step under a CSS-pixel x offset (clamped to the axis). */
  stepAt(offsetX: number): number {
    const f = (offsetX - this.plot.left) / this.plot.width;
    return Math.round(Math.max(0, Math.min(1, f)) * this.xMax);
  }
}
