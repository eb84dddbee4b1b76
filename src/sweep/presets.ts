// The paper's own sensitivity questions as ready-made sweeps. Defaults (SPEC 11) sit
// inside every grid so the views can mark them.
import type { SweepKnob } from './definition.ts';

export interface SweepPreset {
  name: string;
  description: string;
  knobs: SweepKnob[];
}

export const PRESETS: readonly SweepPreset[] = [
  {
    name: 'table3b',
    description: 'Table 3(b): neighbourhood sizes K_within in {3, 6, 12} x K_cross in {6, 12, 24} (paper: stable within about 1 point)',
    knobs: [
      { key: 'K_within', values: [3, 6, 12] },
      { key: 'K_cross', values: [6, 12, 24] },
    ],
  },
  {
    name: 'rho',
    description: "coverage fraction rho from 0 to 1; the ends are Table 3(a)'s exploitation-only (rho = 0) and coverage-only (rho = 1)",
    knobs: [{ key: 'rho', values: [0, 0.25, 0.5, 0.75, 1] }],
  },
  {
    name: 'lambda_sim',
    description: 'batch similarity penalty lambda_sim from 0 (no penalty) to 4x the default',
    knobs: [{ key: 'lambda_sim', values: [0, 0.04, 0.08, 0.16, 0.32] }],
  },
  {
    name: 'half-lives',
    description: 'the two half-lives: h_long in {4, 8, 16} x h_short in {1, 2, 4} steps',
    knobs: [
      { key: 'h_long', values: [4, 8, 16] },
      { key: 'h_short', values: [1, 2, 4] },
    ],
  },
];

export function findPreset(name: string): SweepPreset | undefined {
  return PRESETS.find((p) => p.name === name);
}

/** A fresh copy of a preset's knobs (definitions are edited by the views). */
export function presetKnobs(preset: SweepPreset): SweepKnob[] {
  return preset.knobs.map((k) => ({ key: k.key, values: [...k.values] }));
}
