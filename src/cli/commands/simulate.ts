// `envsched simulate`: one simulated training run (SPEC 10).
import { InputError } from '../../engine/errors.ts';
import { parseWorldOverrides } from '../../sim/model-params.ts';
import { runSimulation } from '../../sim/run.ts';
import { runSummaryText, runToCsv, runToJson } from '../../sim/run-output.ts';
import { loadRunWasmNode } from '../../sim/wasm-node.ts';
import { integerFlag, parseFlags } from '../args.ts';
import { openDataset } from '../dataset.ts';
import { readConfigFile } from '../../engine/files-node.ts';
import { STDIO, writeOutput, type CliIo, type Command } from '../io.ts';

const USAGE = `usage: envsched simulate [--dataset D] [--config C.json] [--seed S] [--steps T] [--world name=value,...] [--out run.json|run.csv|-] [--json]

Runs T steps (default: the configuration's T, 200) of the configuration's scheduler against the
rollout simulator on dataset D (default: the configuration's dataset, envscaler-rl; a bundled
dataset name, built on first use; a graph file with a \`sim\` field; or synthetic-51x50) in the
calibrated world (docs/simulator.md) and prints a summary, or with --json the whole run (every
step's metrics, the summary, the fingerprint) as one JSON object. --out writes every step's
metrics as JSON or CSV (by extension); --out - writes the JSON to standard output and the summary
to standard error. --seed overrides the configuration's seed. --world runs in another world: the
calibrated one with some world mechanisms or fitted constants changed (for example breadth=0; the
names are in docs/simulator.md; the app's link sets them as w.<name>), or a fitted world by name,
decay, third, grpo or adam, optionally followed by changes (adam,breadth=0). Same seed,
configuration and world, same fingerprint, in Node and in the browser.`;

/** A one-line progress bar on stderr, redrawn in place (terminals only). */
export function progressBar(io: CliIo, label: string): (done: number, total: number, note?: string) => void {
  if (!io.stderrIsTTY) return () => {};
  let last = -1;
  return (done, total, note = '') => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    if (filled === last && done !== total) return;
    last = filled;
    io.stderr(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${note}`.padEnd(80));
    if (done === total) io.stderr('\n');
  };
}

export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'run a scheduler against the rollout simulator and report per-step metrics',
  usage: USAGE,
  async run(args, io) {
    const flags = parseFlags(args, {
      dataset: { type: 'string' },
      config: { type: 'string' },
      seed: { type: 'string' },
      steps: { type: 'string' },
      world: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean' },
    });
    const config = await readConfigFile(flags.config);
    const dataset = flags.dataset ?? config.dataset;
    const seed = integerFlag(flags, 'seed', 0, 0xffff_ffff);
    const steps = integerFlag(flags, 'steps', 1, 100_000);
    const model = flags.world === undefined ? undefined : parseWorldOverrides(flags.world, 'command line', '--world');
    const out = flags.out;
    if (out !== undefined && out !== STDIO && !/\.(json|csv)$/i.test(out))
      throw new InputError('command line', '--out', `must end in .json or .csv, or be - (standard output), got ${JSON.stringify(out)}`);
    const { loaded, source } = await openDataset(io, dataset);
    const run = { ...config, dataset, seed: seed ?? config.seed, T: steps ?? config.T };
    const bar = progressBar(io, `simulate ${run.scheduler}`);
    const result = runSimulation(await loadRunWasmNode(), loaded, run, source, { model, onStep: (m) => bar(m.step + 1, run.T) });
    if (flags.json) {
      io.stdout(runToJson(result));
      return 0;
    }
    if (out !== undefined) await writeOutput(io, out, /\.csv$/i.test(out) ? runToCsv(result) : runToJson(result));
    if (out === STDIO)
      io.stderr(runSummaryText(result)); // standard output holds the data
    else io.stdout(runSummaryText(result));
    return 0;
  },
};
