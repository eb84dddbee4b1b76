// The fitted worlds by name (`--world grpo`, `--world adam`, the app's "fitted worlds" buttons) are
// the fits docs/calibration-report.md prints: fit A's values and what the world fixed before fitting.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIM_MODEL, parseWorldOverrides, parseWorldText } from '../src/sim/model-params.ts';
import { NAMED_WORLD_NAMES, NAMED_WORLDS } from '../src/sim/named-worlds.ts';
import { runCli } from './helpers/cli.ts';

const report = readFileSync(new URL('../docs/calibration-report.md', import.meta.url), 'utf8');

/** Fit A's column (or fit B's) and the fixed values of the report's section whose heading starts with `heading`. */
function reported(heading: string, column: 'A' | 'B' = 'A'): Record<string, number> {
  const start = report.indexOf(`## ${heading}`);
  expect(start, heading).toBeGreaterThan(0);
  const section = report.slice(start, report.indexOf('\n## ', start + 3));
  const values: Record<string, number> = {};
  for (const m of section.matchAll(/^\| `(\w+)` \| \[[^\]]*\] \| ([^ |]+) \| ([^ |]+) \|/gm))
    values[m[1]] = Number(column === 'A' ? m[2] : m[3]);
  const fixed = /Fixed before fitting: (.*)\./.exec(section)?.[1] ?? '';
  for (const m of fixed.matchAll(/`(\w+)` = ([\d.]+)/g)) values[m[1]] = Number(m[2]);
  return values;
}

describe('fitted worlds by name', () => {
  it('are the fits of the calibration report, fit A and the fixed values, as printed', () => {
    for (const name of NAMED_WORLD_NAMES)
      expect(NAMED_WORLDS[name].values, name).toEqual(reported(NAMED_WORLDS[name].fit, NAMED_WORLDS[name].column));
  });

  it('are what --world starts from, and later entries change them', () => {
    expect(parseWorldOverrides('adam', 'command line', '--world')).toEqual({ ...DEFAULT_SIM_MODEL, ...NAMED_WORLDS.adam.values });
    expect(parseWorldOverrides('grpo,breadth=0', 'command line', '--world')).toEqual({
      ...DEFAULT_SIM_MODEL,
      ...NAMED_WORLDS.grpo.values,
      breadth: 0,
    });
    expect(() => parseWorldText('breadth=0,adam', 'command line', '--world')).toThrow(/--world.*expected name=value, got "adam"/);
    expect(() => parseWorldText('sgd', 'command line', '--world')).toThrow(
      /fitted world \(memob, gradcredit, memo, std, decay, third, grpo, adam, noise, envdrift, noisedrift\), got "sgd"/,
    );
  });

  it('give the command line the same run as the values written out', async () => {
    const args = ['simulate', '--dataset', 'tiny', '--steps', '20', '--json', '--world'];
    const spelled = Object.entries(NAMED_WORLDS.adam.values)
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const [named, written] = await Promise.all([runCli([...args, 'adam']), runCli([...args, spelled])]);
    expect(JSON.parse(named.stdout).fingerprint).toBe(JSON.parse(written.stdout).fingerprint);
    expect(JSON.parse(named.stdout).world).toEqual(parseWorldText('adam', 'test', '--world'));
  });
});
