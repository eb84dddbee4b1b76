// Figures for slides: the axes cover the data, and the SVG carries the title, legend, axis titles
// and footer the PNG draws (both come from one list of drawing operations).
import { describe, expect, it } from 'vitest';
import { figure, linePlotBody, niceTicks, tableBody, tickText, toSvg } from '../src/ui/lib/export-image.ts';

describe('figure export', () => {
  it('chooses round ticks that cover the data on both ends', () => {
    for (const [lo, hi] of [
      [47.28, 47.86],
      [0, 1],
      [0.0012, 0.0871],
      [-3, 250],
      [5, 5],
    ]) {
      const ticks = niceTicks(lo, hi);
      expect(ticks[0]).toBeLessThanOrEqual(lo);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(hi);
      expect(ticks.length).toBeLessThanOrEqual(8);
    }
  });

  it('labels ticks with the decimals their spacing needs', () => {
    expect([45, 47.5, 50, 52.5].map((v) => tickText(v, 2.5))).toEqual(['45.0', '47.5', '50.0', '52.5']);
    expect(tickText(150000, 50000)).toBe('150,000');
    expect(tickText(0.02, 0.02)).toBe('0.02');
  });

  it('writes a 1600 x 900 SVG with the title, legend, axis titles and the configuration footer', () => {
    const spec = {
      title: 'Held-out score',
      legend: [{ label: 'A: EnvSched', colour: '#0072B2' }],
      footer: 'EnvSched Lab · tiny · rho=0.7 · fingerprint 0123456789abcdef',
      body: linePlotBody({
        series: [
          {
            label: 'A: EnvSched',
            colour: '#0072B2',
            points: [
              { x: 0, y: 1 },
              { x: 1, y: 2 },
              { x: 2, y: NaN },
              { x: 3, y: 4 },
            ],
          },
        ],
        xTitle: 'training step',
        yTitle: 'held-out score',
      }),
    };
    const svg = toSvg(figure(spec))!;
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1600" height="900"/);
    for (const text of ['Held-out score', 'A: EnvSched', 'training step', 'held-out score', spec.footer])
      expect(svg).toContain(`>${text}<`);
    // The NaN step breaks the line in two (no line drawn through a missing value).
    expect(svg.match(/stroke="#0072B2" stroke-width="4"/g)).toHaveLength(2);
  });

  it('escapes text and lays a table out in columns', () => {
    const svg = toSvg(figure({ title: 'a < b & c', footer: 'f', body: tableBody({ header: ['x', 'y'], rows: [['1', '2']] }) }))!;
    expect(svg).toContain('>a &lt; b &amp; c<');
    expect(svg).toContain('>y<');
  });
});
