// Figures for slides: every chart, table and view of the app exports through here as a PNG
// (1600 x 900 CSS px drawn at 2x: 3200 x 1800 pixels, opaque) and, when it is made of lines and
// text only, as an SVG. A figure is a list of drawing operations (title, legend, body, axis
// titles, a footer line with the configuration) rendered to a canvas or written as SVG, so both
// formats show the same picture.
//
// The site's Content-Security-Policy allows no `fetch(data:)` (connect-src 'self'): a PNG is made
// with `canvas.toBlob`, and every download goes through `URL.createObjectURL` and an `<a download>`.

export type Align = 'left' | 'center' | 'right';

export type Op =
  | { kind: 'line'; points: [number, number][]; colour: string; width: number; dash?: number[] }
  | { kind: 'poly'; points: [number, number][]; fill: string }
  | { kind: 'rect'; x: number; y: number; w: number; h: number; fill: string; stroke?: string }
  | { kind: 'circle'; x: number; y: number; r: number; fill: string }
  | {
      kind: 'text';
      x: number;
      y: number;
      text: string;
      size: number;
      colour: string;
      align?: Align;
      weight?: number;
      rotate?: boolean;
      mono?: boolean;
    }
  | {
      kind: 'image';
      source: CanvasImageSource;
      x: number;
      y: number;
      w: number;
      h: number;
      smooth: boolean;
      /** The picture as SVG markup (a vector view, such as the relation graph): the SVG export nests it. */
      svg?: string;
    };

export interface Figure {
  width: number;
  height: number;
  background: string;
  ops: Op[];
}

export interface LegendEntry {
  label: string;
  colour: string;
  dash?: number[];
  /** A band (filled) rather than a line. */
  band?: boolean;
}

export interface Area {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface FigureSpec {
  title: string;
  subtitle?: string;
  legend?: LegendEntry[];
  /** The configuration (or data source) the figure shows, one line at the bottom. */
  footer: string;
  width?: number;
  height?: number;
  /** Draws the body into `area` (the figure's coordinates, CSS px). */
  body(area: Area, ops: Op[], theme: FigureTheme): void;
}

export interface FigureTheme {
  background: string;
  text: string;
  muted: string;
  grid: string;
  font: string;
}

export const LIGHT: FigureTheme = {
  background: '#ffffff',
  text: '#111111',
  muted: '#555555',
  grid: '#d9d9d9',
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
};

export const FIGURE_WIDTH = 1600;
export const FIGURE_HEIGHT = 900;
export const FIGURE_SCALE = 2;

/** Lays out title, subtitle, legend, body and footer. */
export function figure(spec: FigureSpec, theme: FigureTheme = LIGHT): Figure {
  const width = spec.width ?? FIGURE_WIDTH;
  const height = spec.height ?? FIGURE_HEIGHT;
  const ops: Op[] = [];
  const pad = 40;
  let y = pad + 34;
  ops.push({ kind: 'text', x: pad, y, text: spec.title, size: 38, colour: theme.text, weight: 700 });
  if (spec.subtitle) {
    y += 36;
    ops.push({ kind: 'text', x: pad, y, text: spec.subtitle, size: 24, colour: theme.muted });
  }
  if (spec.legend && spec.legend.length > 0) {
    y += 42;
    let x = pad;
    for (const entry of spec.legend) {
      const w = 44;
      if (entry.band) ops.push({ kind: 'rect', x, y: y - 16, w, h: 16, fill: entry.colour });
      else
        ops.push({
          kind: 'line',
          points: [
            [x, y - 8],
            [x + w, y - 8],
          ],
          colour: entry.colour,
          width: 5,
          dash: entry.dash,
        });
      ops.push({ kind: 'text', x: x + w + 10, y, text: entry.label, size: 24, colour: theme.text });
      x += w + 30 + textWidth(entry.label, 24);
      if (x > width - 300) {
        x = pad;
        y += 34;
      }
    }
  }
  const footerY = height - pad + 8;
  ops.push({
    kind: 'line',
    points: [
      [pad, footerY - 34],
      [width - pad, footerY - 34],
    ],
    colour: theme.grid,
    width: 1.5,
  });
  ops.push({ kind: 'text', x: pad, y: footerY, text: clip(spec.footer, 150), size: 19, colour: theme.muted, mono: true });
  const top = y + 28;
  spec.body({ x: pad, y: top, w: width - 2 * pad, h: footerY - 56 - top }, ops, theme);
  return { width, height, background: theme.background, ops };
}

function clip(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

/** A width estimate for layout (no canvas needed: the SVG and the PNG share the layout). */
export function textWidth(text: string, size: number): number {
  return text.length * size * 0.54;
}

// ---- rendering ----

export function toCanvas(fig: Figure, scale = FIGURE_SCALE, theme: FigureTheme = LIGHT): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(fig.width * scale);
  canvas.height = Math.round(fig.height * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gave no 2D canvas for the export');
  ctx.scale(scale, scale);
  ctx.fillStyle = fig.background; // opaque: a slide's own background never shows through
  ctx.fillRect(0, 0, fig.width, fig.height);
  for (const op of fig.ops) drawOp(ctx, op, theme);
  return canvas;
}

function drawOp(ctx: CanvasRenderingContext2D, op: Op, theme: FigureTheme): void {
  ctx.save();
  switch (op.kind) {
    case 'line':
      ctx.strokeStyle = op.colour;
      ctx.lineWidth = op.width;
      ctx.lineJoin = 'round';
      ctx.setLineDash(op.dash ?? []);
      ctx.beginPath();
      op.points.forEach(([x, y], k) => (k === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
      ctx.stroke();
      break;
    case 'poly':
      ctx.fillStyle = op.fill;
      ctx.beginPath();
      op.points.forEach(([x, y], k) => (k === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
      ctx.closePath();
      ctx.fill();
      break;
    case 'rect':
      ctx.fillStyle = op.fill;
      ctx.fillRect(op.x, op.y, op.w, op.h);
      if (op.stroke) {
        ctx.strokeStyle = op.stroke;
        ctx.strokeRect(op.x, op.y, op.w, op.h);
      }
      break;
    case 'circle':
      ctx.fillStyle = op.fill;
      ctx.beginPath();
      ctx.arc(op.x, op.y, op.r, 0, 2 * Math.PI);
      ctx.fill();
      break;
    case 'text':
      ctx.fillStyle = op.colour;
      ctx.font = `${op.weight ?? 400} ${op.size}px ${op.mono ? 'ui-monospace, Menlo, Consolas, monospace' : theme.font}`;
      ctx.textAlign = op.align ?? 'left';
      ctx.textBaseline = 'alphabetic';
      if (op.rotate) {
        ctx.translate(op.x, op.y);
        ctx.rotate(-Math.PI / 2);
        ctx.fillText(op.text, 0, 0);
      } else ctx.fillText(op.text, op.x, op.y);
      break;
    case 'image':
      ctx.imageSmoothingEnabled = op.smooth;
      ctx.drawImage(op.source, op.x, op.y, op.w, op.h);
      break;
  }
  ctx.restore();
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const n2 = (v: number): string => (Math.round(v * 100) / 100).toString();

/** The figure as SVG, or null when it holds a raster image (the heatmap, the scatter). */
export function toSvg(fig: Figure, theme: FigureTheme = LIGHT): string | null {
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${fig.width}" height="${fig.height}" viewBox="0 0 ${fig.width} ${fig.height}" font-family="${esc(theme.font)}">`,
    `<rect width="100%" height="100%" fill="${fig.background}"/>`,
  ];
  for (const op of fig.ops) {
    switch (op.kind) {
      case 'line':
        out.push(
          `<polyline fill="none" stroke="${op.colour}" stroke-width="${op.width}" stroke-linejoin="round"${op.dash?.length ? ` stroke-dasharray="${op.dash.join(' ')}"` : ''} points="${op.points.map(([x, y]) => `${n2(x)},${n2(y)}`).join(' ')}"/>`,
        );
        break;
      case 'poly':
        out.push(`<polygon fill="${op.fill}" points="${op.points.map(([x, y]) => `${n2(x)},${n2(y)}`).join(' ')}"/>`);
        break;
      case 'rect':
        out.push(
          `<rect x="${n2(op.x)}" y="${n2(op.y)}" width="${n2(op.w)}" height="${n2(op.h)}" fill="${op.fill}"${op.stroke ? ` stroke="${op.stroke}"` : ''}/>`,
        );
        break;
      case 'circle':
        out.push(`<circle cx="${n2(op.x)}" cy="${n2(op.y)}" r="${n2(op.r)}" fill="${op.fill}"/>`);
        break;
      case 'text': {
        const anchor = op.align === 'center' ? 'middle' : op.align === 'right' ? 'end' : 'start';
        const transform = op.rotate ? ` transform="rotate(-90 ${n2(op.x)} ${n2(op.y)})"` : '';
        out.push(
          `<text x="${n2(op.x)}" y="${n2(op.y)}" font-size="${op.size}" fill="${op.colour}" text-anchor="${anchor}"${op.weight ? ` font-weight="${op.weight}"` : ''}${op.mono ? ' font-family="ui-monospace, Menlo, Consolas, monospace"' : ''}${transform}>${esc(op.text)}</text>`,
        );
        break;
      }
      case 'image':
        if (op.svg === undefined) return null;
        out.push(op.svg.replace(/^<svg/, `<svg x="${n2(op.x)}" y="${n2(op.y)}" width="${n2(op.w)}" height="${n2(op.h)}"`));
        break;
    }
  }
  out.push('</svg>');
  return out.join('\n');
}

// ---- downloads (CSP-safe) ----

export function canvasBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the browser could not encode the PNG'))), 'image/png'),
  );
}

/** Saves a blob through an object URL and an `<a download>` (no fetch, no data: URL). */
export function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function exportPng(fileName: string, spec: FigureSpec): Promise<void> {
  saveBlob(fileName.endsWith('.png') ? fileName : `${fileName}.png`, await canvasBlob(toCanvas(figure(spec))));
}

/** Returns false (and saves nothing) when the figure holds a raster image. */
export function exportSvg(fileName: string, spec: FigureSpec): boolean {
  const svg = toSvg(figure(spec));
  if (svg === null) return false;
  saveBlob(fileName.endsWith('.svg') ? fileName : `${fileName}.svg`, new Blob([svg], { type: 'image/svg+xml' }));
  return true;
}

// ---- bodies ----

/** Round tick values covering [lo, hi] (about `count` of them). */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi <= lo) {
    const d = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
    lo -= d;
    hi += d;
  }
  const raw = (hi - lo) / Math.max(1, count - 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const first = Math.floor(lo / step) * step;
  const out: number[] = [];
  // Up to the first tick at or above `hi`: no data above the top of the axis.
  for (let k = 0; k < 100; k++) {
    const v = first + k * step;
    out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    if (v >= hi - step * 1e-9) break;
  }
  return out;
}

export function tickText(v: number, step: number): string {
  // As many decimals as the tick spacing needs (a spacing of 2.5 labels 52.5, not 53).
  let decimals = 0;
  while (decimals < 8 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6 * step * 10 ** decimals) decimals++;
  const text = v.toFixed(decimals);
  const [whole, frac] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

export interface PlotSeries {
  label: string;
  colour: string;
  points: { x: number; y: number }[];
  dash?: number[];
  width?: number;
  /** A 95% band around the line: [lo, hi] per point (same x). */
  band?: { x: number; lo: number; hi: number }[];
}

export interface LinePlot {
  series: PlotSeries[];
  xTitle: string;
  yTitle: string;
  xMin?: number;
  xMax?: number;
  /** A vertical marker (the current step). */
  marker?: number | null;
}

export interface Axes {
  xMin: number;
  xMax: number;
  yMin: number;
  yMax: number;
  xTitle: string;
  yTitle: string;
  /** Category labels of the y axis instead of numbers (the heatmap's environments), bottom to top. */
  yLabels?: { at: number; text: string }[];
}

/** Draws axes with ticks, grid and titles into `area`; returns the data-to-figure mappings. */
export function drawAxes(
  area: Area,
  ops: Op[],
  theme: FigureTheme,
  axes: Axes,
): { px: (x: number) => number; py: (y: number) => number; top: number; bottom: number; left: number; right: number } {
  const yTicks = axes.yLabels ? [] : niceTicks(axes.yMin, axes.yMax);
  const xTicks = niceTicks(axes.xMin, axes.xMax, 7).filter((v) => v >= axes.xMin - 1e-9 && v <= axes.xMax + 1e-9);
  const yLo = axes.yLabels ? axes.yMin : yTicks[0];
  const yHi = axes.yLabels ? axes.yMax : yTicks[yTicks.length - 1];
  const yStep = yTicks.length > 1 ? yTicks[1] - yTicks[0] : 1;
  const xStep = xTicks.length > 1 ? xTicks[1] - xTicks[0] : 1;
  const yTexts = axes.yLabels ? axes.yLabels.map((l) => l.text) : yTicks.map((v) => tickText(v, yStep));
  const left = area.x + 70 + Math.max(0, ...yTexts.map((t) => textWidth(t, 22)));
  const bottom = area.y + area.h - 78;
  const right = area.x + area.w - 20;
  const top = area.y + 8;
  const px = (x: number) => left + ((x - axes.xMin) / Math.max(1e-12, axes.xMax - axes.xMin)) * (right - left);
  const py = (y: number) => bottom - ((y - yLo) / Math.max(1e-12, yHi - yLo)) * (bottom - top);
  for (const v of yTicks) {
    ops.push({
      kind: 'line',
      points: [
        [left, py(v)],
        [right, py(v)],
      ],
      colour: theme.grid,
      width: 1,
    });
    ops.push({ kind: 'text', x: left - 12, y: py(v) + 8, text: tickText(v, yStep), size: 22, colour: theme.text, align: 'right' });
  }
  for (const l of axes.yLabels ?? [])
    ops.push({ kind: 'text', x: left - 12, y: py(l.at) + 8, text: l.text, size: 22, colour: theme.text, align: 'right' });
  ops.push({
    kind: 'line',
    points: [
      [left, bottom],
      [right, bottom],
    ],
    colour: theme.muted,
    width: 1.5,
  });
  for (const v of xTicks) {
    ops.push({
      kind: 'line',
      points: [
        [px(v), bottom],
        [px(v), bottom + 8],
      ],
      colour: theme.muted,
      width: 1.5,
    });
    ops.push({ kind: 'text', x: px(v), y: bottom + 34, text: tickText(v, xStep), size: 22, colour: theme.text, align: 'center' });
  }
  ops.push({
    kind: 'text',
    x: (left + right) / 2,
    y: bottom + 70,
    text: axes.xTitle,
    size: 24,
    colour: theme.text,
    align: 'center',
    weight: 600,
  });
  // The y title runs along the axis: smaller type when the plot is short, never cut off.
  const ySize = Math.max(12, Math.min(24, (bottom - top) / Math.max(1, axes.yTitle.length * 0.56)));
  ops.push({
    kind: 'text',
    x: area.x + 26,
    y: (top + bottom) / 2 + ySize * 0.3,
    text: axes.yTitle,
    size: ySize,
    colour: theme.text,
    align: 'center',
    weight: 600,
    rotate: true,
  });
  return { px, py, top, bottom, left, right };
}

/** A line chart body: axes with titles, ticks, grid, bands, then the lines (NaN breaks a line). */
export function linePlotBody(plot: LinePlot): FigureSpec['body'] {
  return (area, ops, theme) => {
    const xs: number[] = [];
    const ys: number[] = [];
    for (const s of plot.series) {
      for (const p of s.points) if (Number.isFinite(p.y)) (xs.push(p.x), ys.push(p.y));
      for (const b of s.band ?? []) if (Number.isFinite(b.lo) && Number.isFinite(b.hi)) ys.push(b.lo, b.hi);
    }
    const xMin = plot.xMin ?? (xs.length ? Math.min(...xs) : 0);
    const xMax = plot.xMax ?? (xs.length ? Math.max(...xs) : 1);
    const { px, py, top, bottom } = drawAxes(area, ops, theme, {
      xMin,
      xMax,
      yMin: ys.length ? Math.min(...ys) : 0,
      yMax: ys.length ? Math.max(...ys) : 1,
      xTitle: plot.xTitle,
      yTitle: plot.yTitle,
    });
    for (const s of plot.series) {
      if (!s.band || s.band.length === 0) continue;
      const ok = s.band.filter((b) => Number.isFinite(b.lo) && Number.isFinite(b.hi));
      const upper = ok.map((b): [number, number] => [px(b.x), py(b.hi)]);
      const lower = ok.map((b): [number, number] => [px(b.x), py(b.lo)]).reverse();
      ops.push({ kind: 'poly', points: [...upper, ...lower], fill: withAlpha(s.colour, 0.25) });
    }
    if (plot.marker !== undefined && plot.marker !== null && plot.marker >= xMin && plot.marker <= xMax) {
      ops.push({
        kind: 'line',
        points: [
          [px(plot.marker), top],
          [px(plot.marker), bottom],
        ],
        colour: '#D55E00',
        width: 2,
        dash: [8, 6],
      });
    }
    for (const s of plot.series) {
      let run: [number, number][] = [];
      const flush = () => {
        if (run.length > 0) ops.push({ kind: 'line', points: run, colour: s.colour, width: s.width ?? 4, dash: s.dash });
        run = [];
      };
      for (const p of s.points) {
        if (Number.isFinite(p.y)) run.push([px(p.x), py(p.y)]);
        else flush();
      }
      flush();
    }
  };
}

export interface ScatterPoint {
  x: number;
  y: number;
  colour: string;
  r: number;
}

/** A scatter body (points drawn in order: the last on top). */
export function scatterBody(points: ScatterPoint[], axes: Omit<Axes, 'yLabels'>): FigureSpec['body'] {
  return (area, ops, theme) => {
    const { px, py } = drawAxes(area, ops, theme, axes);
    for (const p of points) ops.push({ kind: 'circle', x: px(p.x), y: py(p.y), r: p.r, fill: p.colour });
  };
}

/** A grid of cells (the heatmap): cells[x][y] is a colour or null (background). */
export function cellsBody(columns: (string | null)[][], axes: Axes): FigureSpec['body'] {
  return (area, ops, theme) => {
    const { px, py } = drawAxes(area, ops, theme, axes);
    const w = px(1) - px(0);
    const h = py(0) - py(1);
    columns.forEach((column, x) =>
      column.forEach((colour, y) => {
        if (colour !== null) ops.push({ kind: 'rect', x: px(x), y: py(y + 1), w: w + 0.3, h: h + 0.3, fill: colour });
      }),
    );
  };
}

/** A colour (#rrggbb) at the given opacity, as rgba(). */
export function withAlpha(colour: string, alpha: number): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour);
  if (!m) return colour;
  return `rgba(${parseInt(m[1], 16)}, ${parseInt(m[2], 16)}, ${parseInt(m[3], 16)}, ${alpha})`;
}

export interface TableBody {
  header: string[];
  rows: string[][];
  /** Columns drawn in the muted colour (e.g. the paper's figures). */
  muted?: number[];
}

/** A table body: the header bold, the rows below, each column as wide as it needs. */
export function tableBody(table: TableBody): FigureSpec['body'] {
  return (area, ops, theme) => {
    const rows = [table.header, ...table.rows];
    const size = Math.max(16, Math.min(30, Math.floor(area.h / (rows.length * 1.7))));
    // Bold header text is wider than the estimate for regular text: 15% more, and a gap of 1.6 em.
    const widths = table.header.map(
      (_, c) => Math.max(textWidth(table.header[c] ?? '', size) * 1.15, ...table.rows.map((r) => textWidth(r[c] ?? '', size))) + size * 1.6,
    );
    const total = widths.reduce((s, w) => s + w, 0);
    const k = total > area.w ? area.w / total : 1;
    const lineH = size * 1.65;
    rows.forEach((row, r) => {
      let x = area.x;
      const y = area.y + (r + 1) * lineH;
      if (r === 1)
        ops.push({
          kind: 'line',
          points: [
            [area.x, y - lineH + size * 0.45],
            [area.x + Math.min(area.w, total * k), y - lineH + size * 0.45],
          ],
          colour: theme.muted,
          width: 1.5,
        });
      row.forEach((cell, c) => {
        const muted = table.muted?.includes(c) && r > 0;
        ops.push({
          kind: 'text',
          x: c === 0 ? x : x + widths[c] * k - size * 0.7,
          y,
          text: cell,
          size: size * Math.min(1, k + 0.15),
          colour: muted ? theme.muted : theme.text,
          weight: r === 0 ? 700 : 400,
          align: c === 0 ? 'left' : 'right',
        });
        x += widths[c] * k;
      });
    });
  };
}

/** A raster body (the heatmap, the scatter): the view's own canvas, scaled into the plot area, with axis titles. */
export function imageBody(
  source: CanvasImageSource,
  size: { width: number; height: number },
  titles: { x: string; y: string },
  smooth = true,
): FigureSpec['body'] {
  return (area, ops, theme) => {
    const inner = { x: area.x + 50, y: area.y, w: area.w - 50, h: area.h - 50 };
    const k = Math.min(inner.w / size.width, inner.h / size.height);
    const w = size.width * k;
    const h = size.height * k;
    const x = inner.x + (inner.w - w) / 2;
    ops.push({ kind: 'image', source, x, y: inner.y, w, h, smooth });
    ops.push({
      kind: 'text',
      x: x + w / 2,
      y: inner.y + h + 40,
      text: titles.x,
      size: 24,
      colour: theme.text,
      align: 'center',
      weight: 600,
    });
    ops.push({
      kind: 'text',
      x: x - 20,
      y: inner.y + h / 2,
      text: titles.y,
      size: 24,
      colour: theme.text,
      align: 'center',
      weight: 600,
      rotate: true,
    });
  };
}

/** The computed properties an SVG view's stylesheet may set (inlined so the copy looks the same alone). */
const SVG_STYLE = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

/**
 * An SVG element (the relation graph) as a picture: a copy with the page's computed styles
 * inlined (the stylesheet and its variables do not travel with it), without animations, as
 * markup (for an SVG export) and as a decoded image through a blob URL (for a PNG; CSP: img-src blob:).
 */
export async function svgElementImage(
  svg: SVGSVGElement,
): Promise<{ image: HTMLImageElement; width: number; height: number; markup: string }> {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((el, k) => {
    const style = getComputedStyle(el);
    const target = to[k] as SVGElement;
    target.removeAttribute('class');
    target.setAttribute('style', SVG_STYLE.map((p) => `${p}:${style.getPropertyValue(p)}`).join(';'));
  });
  copy.querySelectorAll('title').forEach((t) => t.remove());
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const box = svg.getBoundingClientRect();
  const width = box.width || Number(svg.getAttribute('width')) || 800;
  const height = box.height || Number(svg.getAttribute('height')) || 600;
  if (!copy.getAttribute('viewBox')) copy.setAttribute('viewBox', `0 0 ${width} ${height}`);
  copy.removeAttribute('width');
  copy.removeAttribute('height');
  const markup = new XMLSerializer().serializeToString(copy);
  const sized = markup.replace(/^<svg/, `<svg width="${width}" height="${height}"`);
  const url = URL.createObjectURL(new Blob([sized], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return { image, width, height, markup };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The first opaque background behind an element (a view drawn in the dark theme keeps its backdrop). */
function backdropOf(el: Element): string {
  for (let e: Element | null = el; e; e = e.parentElement) {
    const c = getComputedStyle(e).backgroundColor;
    if (c && c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c)) return c;
  }
  return LIGHT.background;
}

/**
 * A figure of a vector view (the relation graph, the pool graph): the view's SVG with its own
 * backdrop, scaled into the body, under the figure's title and legend and above its footer.
 * PNG and SVG alike (the SVG nests the view's markup).
 */
export async function svgViewFigure(
  svg: SVGSVGElement,
  head: { title: string; subtitle?: string; legend: LegendEntry[]; footer: string },
): Promise<FigureSpec> {
  const shot = await svgElementImage(svg);
  const backdrop = backdropOf(svg);
  return {
    ...head,
    body(area, ops) {
      const k = Math.min(area.w / shot.width, area.h / shot.height);
      const w = shot.width * k;
      const h = shot.height * k;
      const x = area.x + (area.w - w) / 2;
      ops.push({ kind: 'rect', x: area.x, y: area.y, w: area.w, h: area.h, fill: backdrop });
      ops.push({ kind: 'image', source: shot.image, x, y: area.y, w, h, smooth: true, svg: shot.markup });
    },
  };
}

/** The dark theme of presentation mode (on-screen figures only: exports are always light, for slides). */
export const DARK: FigureTheme = { background: '#101214', text: '#ffffff', muted: '#d0d4da', grid: '#3a4048', font: LIGHT.font };

/** A body alone on a canvas of the element's size (the on-screen copy of an exported figure). */
export function drawBare(
  canvas: HTMLCanvasElement,
  cssWidth: number,
  cssHeight: number,
  logicalWidth: number,
  body: FigureSpec['body'],
  theme: FigureTheme,
): void {
  const dpr = Math.min(3, globalThis.devicePixelRatio || 1);
  const k = cssWidth / logicalWidth;
  const logicalHeight = cssHeight / k;
  canvas.width = Math.max(1, Math.round(cssWidth * dpr));
  canvas.height = Math.max(1, Math.round(cssHeight * dpr));
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr * k, 0, 0, dpr * k, 0, 0);
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, logicalWidth, logicalHeight);
  const ops: Op[] = [];
  body({ x: 0, y: 0, w: logicalWidth, h: logicalHeight }, ops, theme);
  for (const op of ops) drawOp(ctx, op, theme);
}
