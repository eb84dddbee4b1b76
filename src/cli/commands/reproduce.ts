// `envsched reproduce`: the paper's Tables 2, 3(a) and 4 in simulation.
import { DEFAULT_CONFIG } from '../../engine/config.ts';
import type { Config } from '../../engine/types.ts';
import { reproduce, reproduceJson, reproduceTable } from '../../sim/reproduce.ts';
import { loadRunWasmNode } from '../../sim/wasm-node.ts';
import { integerFlag, parseFlags } from '../args.ts';
import { openDataset } from '../dataset.ts';
import type { Command } from '../io.ts';
import { progressBar } from './simulate.ts';

const USAGE = `usage: envsched reproduce [--seeds N] [--dataset D] [--steps T] [--table4-runs R] [--json]

Runs the paper's Table 2 and Table 3(a) configurations (random, dapo, mopps, dps, envsched and its
four ablations) on D (default envscaler-rl, built on first use) for T steps (default 200),
averages over N seeds (default 3), and prints one table with the paper's figures beside the
simulated ones; then Table 4: R (default 100) seven-step EnvSched runs from random cold-start
batches. --json prints the same results as one JSON object.`;

export const reproduceCommand: Command = {
  name: 'reproduce',
  summary: "reproduce the paper's Tables 2, 3(a) and 4 in simulation",
  usage: USAGE,
  async run(args, io) {
    const flags = parseFlags(args, {
      seeds: { type: 'string' },
      dataset: { type: 'string' },
      steps: { type: 'string' },
      'table4-runs': { type: 'string' },
      json: { type: 'boolean' },
    });
    const seeds = integerFlag(flags, 'seeds', 1, 1000) ?? 3;
    const steps = integerFlag(flags, 'steps', 1, 100_000) ?? 200;
    const table4Runs = integerFlag(flags, 'table4-runs', 0, 100_000) ?? 100;
    const dataset = flags.dataset ?? DEFAULT_CONFIG.dataset;
    const { loaded, source } = await openDataset(io, dataset);
    const base: Config = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'], dataset };
    const bar = progressBar(io, 'reproduce');
    const result = await reproduce(loadRunWasmNode, loaded, base, source, { seeds, steps, table4Runs, onProgress: bar });
    io.stdout(flags.json ? reproduceJson(result) : reproduceTable(result));
    return 0;
  },
};
