// `npm run calibrate` writes its report over docs/calibration-report.md and keeps the fits before
// it below (scripts/report-history.mjs).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withHistory } from '../scripts/report-history.mjs';

const report = readFileSync(new URL('../docs/calibration-report.md', import.meta.url), 'utf8');
const headings = (lines: string[]) => lines.filter((line) => /^#+ /.test(line));
const fresh = [
  '# Calibration report',
  '',
  'Written by `npm run calibrate` on 2027-01-01.',
  '',
  '## Fitted parameters (fit A = the defaults)',
  '',
  '| a |',
  '',
  "## Fit targets (on the fit's own seeds)",
  '',
  '| b |',
  '',
];

describe('the calibration report keeps the earlier fits', () => {
  it('puts the new report first, the one it replaces under one heading a level down, and every earlier section after it unchanged', () => {
    const out = withHistory(fresh, report, 'The previous defaults');
    const before = report.replace(/\n+$/, '').split('\n');
    expect(out.slice(0, fresh.length)).toEqual(fresh);
    const old = headings(before);
    const firstEarlier = old.findIndex((h, k) => k > 0 && h.startsWith('## ') && !/^## (Fitted parameters|Fit targets)/.test(h));
    expect(headings(out)).toEqual([
      ...headings(fresh),
      '## The previous defaults',
      ...old.slice(1, firstEarlier).map((h) => `#${h}`),
      ...old.slice(firstEarlier),
    ]);
    // Nothing of the previous report is lost: every non-heading line is still there, in order.
    const body = (lines: string[]) => lines.filter((line) => line !== '' && !/^#+ /.test(line));
    expect(body(out.slice(fresh.length))).toEqual(body(before));
  });

  it('writes the new report alone when there is no earlier one', () => {
    expect(withHistory(fresh, null, 'x')).toEqual(fresh);
    expect(withHistory(fresh, 'not a report', 'x')).toEqual(fresh);
  });
});
