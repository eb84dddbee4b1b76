// `envsched sweep`: a sensitivity sweep over one or two knobs, seeds per point, run on a pool of
// worker threads. Prints a table of means and 95% bands; --out writes CSV or JSON.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { InputError } from '../../engine/errors.ts';
import { readConfigFile } from '../../engine/files-node.ts';
import { parseKnobText, parseMetrics, SWEEP_METRICS, validateSweep, type SweepDefinition } from '../../sweep/definition.ts';
import { sweepTable, sweepToCsv, sweepToJson } from '../../sweep/output.ts';
import { maxWorkers, NodeSweepPool } from '../../sweep/pool-node.ts';
import { findPreset, presetKnobs, PRESETS } from '../../sweep/presets.ts';
import { runSweep, sweepRunCount } from '../../sweep/runner.ts';
import { parseWorldText } from '../../sim/model-params.ts';
import { mergeShards, parseShard } from '../../sweep/shard.ts';
import { integerFlag, parseFlags } from '../args.ts';
import { openDataset } from '../dataset.ts';
import { STDIO, writeOutput, type Command } from '../io.ts';
import { progressBar } from './simulate.ts';

const USAGE = `usage: envsched sweep (--knob KEY=VALUES [--knob2 KEY=VALUES] | --preset NAME) [--dataset D]
                     [--seeds N] [--steps T] [--config C.json] [--seed S] [--metrics M,...]
                     [--world name=value,...] [--workers N] [--shard i/n] [--out sweep.csv|sweep.json|-]
       envsched sweep-merge SHARD.json... --out sweep.json|sweep.csv|-

Runs every point of a one- or two-knob grid for N seeds (default 3: seeds S, S+1, ..., default
S = 0) on dataset D (default: the configuration's, envscaler-rl; built on first use) and prints, per point, the mean of each metric across seeds and the half-width
of its 95% band (Student's t). VALUES is a list (rho=0,0.25,0.5) or a range start:stop:step
(rho=0:1:0.25); KEY is any SPEC 11 name but alpha, or scheduler (scheduler=random,envsched), or a
world mechanism or fitted constant (w.breadth=0:1:0.25, w.logitScale=3,5; the names are in
docs/simulator.md).
Every other setting comes from --config (default: SPEC 11), steps from --steps (default: T).
--world runs every point in another world (the calibrated one with some world mechanisms or
fitted constants changed, or a fitted world by name, as for simulate; the JSON file and every CSV
row record it). --out writes CSV or JSON (by extension); --out - writes the JSON to standard
output and the table to standard error.

presets:
${PRESETS.map((p) => `  ${p.name.padEnd(11)} ${p.description}`).join('\n')}

metrics (default: all): ${SWEEP_METRICS.join(', ')}
--workers: worker threads (default and maximum: ${maxWorkers()}, the available cores).
--shard i/n: run only points p with p mod n = i (0 <= i < n), e.g. one shard per task of a Slurm
job array (i = $SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (i = $JOB_COMPLETION_INDEX);
write each with --out shard-i.json, then envsched sweep-merge shard-*.json --out sweep.json
gives the file one machine would have written.
Ctrl-C cancels: the workers stop and the points finished so far are written.`;

export const sweepCommand: Command = {
  name: 'sweep',
  summary: 'sensitivity sweep over one or two knobs with seeds, means and 95% bands',
  usage: USAGE,
  async run(args, io) {
    const flags = parseFlags(args, {
      knob: { type: 'string' },
      knob2: { type: 'string' },
      preset: { type: 'string' },
      dataset: { type: 'string' },
      seeds: { type: 'string' },
      steps: { type: 'string' },
      seed: { type: 'string' },
      config: { type: 'string' },
      metrics: { type: 'string' },
      workers: { type: 'string' },
      out: { type: 'string' },
      shard: { type: 'string' },
      world: { type: 'string' },
    });
    const source = 'command line';
    const out = flags.out;
    if (out !== undefined && out !== STDIO && !/\.(json|csv)$/i.test(out))
      throw new InputError(source, '--out', `must end in .json or .csv, or be - (standard output), got ${JSON.stringify(out)}`);
    const definition = await readDefinition(flags);
    const dataset = definition.base.dataset;
    const shard = flags.shard === undefined ? undefined : parseShard(flags.shard, source, '--shard');
    if (shard && (out === undefined || /\.csv$/i.test(out)))
      throw new InputError(source, '--out', 'a shard is written as JSON (--out shard-i.json or -) for sweep-merge');
    const workers = integerFlag(flags, 'workers', 1, 1024);
    if (workers !== undefined && workers > maxWorkers())
      io.stderr(`note: --workers ${workers} capped at ${maxWorkers()} (available cores)\n`);
    await openDataset(io, dataset); // built if need be, and any problem reported here, before a thread starts

    const pool = new NodeSweepPool(workers);
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once('SIGINT', onSigint);
    const bar = progressBar(io, 'sweep');
    try {
      const result = await runSweep(definition, pool, {
        signal: controller.signal,
        shard,
        onProgress: (p) => {
          if (io.stderrIsTTY) bar(p.done, p.total, p.label);
          else io.stderr(`sweep ${p.done}/${p.total} ${p.label}${p.cached ? ' (cached)' : ''}\n`);
        },
      });
      if (out !== undefined)
        await writeOutput(
          io,
          out,
          /\.csv$/i.test(out) ? sweepToCsv(result) : sweepToJson(result, shard && { shard, totalRuns: sweepRunCount(definition) }),
        );
      if (out === STDIO)
        io.stderr(sweepTable(result)); // standard output holds the data
      else io.stdout(sweepTable(result));
      return result.cancelled ? 130 : 0;
    } finally {
      process.removeListener('SIGINT', onSigint);
      await pool.close();
    }
  },
};

async function readDefinition(flags: Record<string, string | boolean | undefined | (string | boolean)[]>): Promise<SweepDefinition> {
  const source = 'command line';
  const str = (name: string) => (typeof flags[name] === 'string' ? (flags[name] as string) : undefined);
  const config = await readConfigFile(str('config'));
  const steps = integerFlag(flags, 'steps', 1, 100_000);
  const seed = integerFlag(flags, 'seed', 0, 0xffff_ffff);
  const seeds = integerFlag(flags, 'seeds', 1, 1000) ?? 3;
  const base = { ...config, dataset: str('dataset') ?? config.dataset, T: steps ?? config.T, seed: seed ?? config.seed };
  const presetName = str('preset');
  let knobs;
  if (presetName !== undefined) {
    const preset = findPreset(presetName);
    if (!preset)
      throw new InputError(
        source,
        '--preset',
        `unknown preset ${JSON.stringify(presetName)} (known: ${PRESETS.map((p) => p.name).join(', ')})`,
      );
    if (str('knob') !== undefined || str('knob2') !== undefined)
      throw new InputError(source, '--preset', 'give either --preset or --knob/--knob2, not both');
    knobs = presetKnobs(preset);
  } else {
    const knob = str('knob');
    if (knob === undefined) throw new InputError(source, '--knob', 'is required (or use --preset)');
    knobs = [parseKnobText(knob, source, '--knob')];
    const knob2 = str('knob2');
    if (knob2 !== undefined) knobs.push(parseKnobText(knob2, source, '--knob2'));
  }
  const metricsText = str('metrics');
  const metrics = metricsText === undefined ? [...SWEEP_METRICS] : parseMetrics(metricsText, source, '--metrics');
  const worldText = str('world');
  const world = worldText === undefined ? {} : parseWorldText(worldText, source, '--world');
  return validateSweep({ knobs, seeds, base, metrics, preset: presetName ?? null, world }, source);
}

const MERGE_USAGE = `usage: envsched sweep-merge SHARD.json... --out sweep.json|sweep.csv|-

Joins the files of envsched sweep --shard 0/n ... --shard n-1/n (every shard exactly once, all of
one sweep) into the JSON or CSV file the unsharded sweep writes, byte for byte (- : JSON on
standard output).`;

export const sweepMergeCommand: Command = {
  name: 'sweep-merge',
  summary: 'join the shard files of a sharded sweep into one sweep file',
  usage: MERGE_USAGE,
  async run(args, io) {
    let parsed;
    try {
      parsed = parseArgs({ args, options: { out: { type: 'string' } }, allowPositionals: true, strict: true });
    } catch (error) {
      throw new InputError('command line', 'arguments', (error as Error).message.split('\n')[0]);
    }
    const { values, positionals } = parsed;
    const out = values.out;
    if (typeof out !== 'string' || (out !== STDIO && !/\.(json|csv)$/i.test(out)))
      throw new InputError('command line', '--out', 'is required and must end in .json or .csv, or be - (standard output)');
    const files = await Promise.all(
      positionals.map(async (source) => {
        try {
          return { source, text: await readFile(source, 'utf8') };
        } catch (error) {
          throw new InputError(source, '-', `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
        }
      }),
    );
    const merged = mergeShards(files);
    await writeOutput(io, out, /\.csv$/i.test(out) ? sweepToCsv(merged.table) : merged.json);
    io.stderr(`sweep-merge: ${files.length} shard(s), ${merged.table.points.length} point(s) -> ${out}\n`);
    return 0;
  },
};
