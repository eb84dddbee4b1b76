// `envsched reproduce`: the paper's Tables 2, 3 and 4 in simulation, with the calibration's checks.
import { DEFAULT_CONFIG } from '../../engine/config.ts';
import type { Config } from '../../engine/types.ts';
import { DEFAULT_SIM_MODEL, parseWorldOverrides } from '../../sim/model-params.ts';
import { reproduce } from '../../sim/reproduce.ts';
import { reproduceJson, reproduceTable } from '../../sim/reproduce-text.ts';
import { loadRunWasmNode } from '../../sim/wasm-node.ts';
import { integerFlag, parseFlags } from '../args.ts';
import { openDataset } from '../dataset.ts';
import type { Command } from '../io.ts';
import { progressBar } from './simulate.ts';

const USAGE = `usage: envsched reproduce [--seeds N] [--dataset D] [--steps T] [--table4-runs R] [--world name=value,...] [--json]

Runs the paper's Table 2 and Table 3(a) configurations (random, dapo, mopps, dps, envsched and its
four ablations) and Table 3(b)'s (K_within 3 / 12, K_cross 6 / 24) on D (default envscaler-rl,
built on first use) for T steps (default 200), seeds 0..N-1 (default 5), and prints them beside
the paper's figures with agree / disagree marks, rollouts spent and held-out scores at matched
rollout budgets; Table 4: R (default 100) runs of a random cold-start batch then 7 EnvSched steps;
random training on 1..51 environments; then the calibration's fit targets and checks
(docs/calibration.md) as a table of target, tolerance, simulated value and verdict. --json prints
the same results as one JSON object. --world runs them in another world: the calibrated one with
some world mechanisms or fitted constants changed (for example breadth=0,forgetting=0; the names
are in docs/simulator.md), or a fitted world by name, decay, third, grpo or adam, optionally followed
by changes (adam,breadth=0).`;

export const reproduceCommand: Command = {
  name: 'reproduce',
  summary: "reproduce the paper's Tables 2, 3 and 4 in simulation and check them",
  usage: USAGE,
  async run(args, io) {
    const flags = parseFlags(args, {
      seeds: { type: 'string' },
      dataset: { type: 'string' },
      steps: { type: 'string' },
      'table4-runs': { type: 'string' },
      world: { type: 'string' },
      json: { type: 'boolean' },
    });
    const seeds = integerFlag(flags, 'seeds', 1, 1000) ?? 5;
    const steps = integerFlag(flags, 'steps', 1, 100_000) ?? 200;
    const table4Runs = integerFlag(flags, 'table4-runs', 0, 100_000) ?? 100;
    const model = flags.world === undefined ? DEFAULT_SIM_MODEL : parseWorldOverrides(flags.world, 'command line', '--world');
    const dataset = flags.dataset ?? DEFAULT_CONFIG.dataset;
    const { loaded, source } = await openDataset(io, dataset);
    const base: Config = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'], dataset };
    const bar = progressBar(io, 'reproduce');
    const result = await reproduce(loadRunWasmNode, loaded, base, source, { seeds, steps, table4Runs, model, onProgress: bar });
    io.stdout(flags.json ? reproduceJson(result) : reproduceTable(result));
    return 0;
  },
};
