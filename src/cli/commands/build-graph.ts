// `envsched build-graph`: release files -> graph file (SPEC 12 JSON) + binary beside it, and a
// build report on stderr (and as JSON with --report).
import { basename } from 'node:path';
import { isInputError, InputError } from '../../engine/errors.ts';
import { buildGraph, type BuildResult } from '../../graph/build.ts';
import { buildReport, formatBuildReport } from '../../graph/build-report.ts';
import { oneStdinAtMost, readInputText } from '../../graph/read-node.ts';
import { parseVariants } from '../../graph/release.ts';
import { progressReporter } from '../progress.ts';
import { writeGraphFiles } from '../../graph/write-node.ts';
import { integerFlag, parseFlags, requireFlag } from '../args.ts';
import { standardInput, writeOutput, type Command } from '../io.ts';

const INPUTS = ['env-metadata', 'scenarios', 'topology', 'sim', 'categories'] as const;

export const buildGraphCommand: Command = {
  name: 'build-graph',
  summary: 'build the dual-relation graph (SPEC 1, 9, 12) from EnvScaler release files',
  usage: [
    'usage: envsched build-graph --env-metadata F --scenarios F --out G.graph.json',
    '                            [--topology F] [--sim F] [--categories F] [--name NAME] [--m-cross 256] [--p-cross 32]',
    '                            [--skip-unverifiable] [--variants conv,nonconv] [--report R.json]',
    '',
    'Writes G.graph.json and G.graph.bin, and a build report on stderr (--report: also as JSON; - is stdout).',
    'Every input may be JSON or JSON Lines (told apart by content); one of them may be - (stdin).',
    "Without --topology, each task's topology is derived from its checks and instruction (docs/graph.md);",
    'with it, tasks missing from the file get the derived one. --sim embeds the simulator sidecar.',
    '--categories maps env_id to a category (an object, or records {env_id, category}); without it every',
    'environment is its own category. --skip-unverifiable leaves out scenarios without verifier functions',
    '(the SFT part of the release) and lists them. --variants makes one task per scenario and variant,',
    'with ids <task_id>-conv / <task_id>-nonconv in the same environment.',
  ].join('\n'),
  async run(args, io) {
    const flags = parseFlags(args, {
      'env-metadata': { type: 'string' },
      scenarios: { type: 'string' },
      topology: { type: 'string' },
      sim: { type: 'string' },
      categories: { type: 'string' },
      name: { type: 'string' },
      out: { type: 'string' },
      'm-cross': { type: 'string' },
      'p-cross': { type: 'string' },
      'skip-unverifiable': { type: 'boolean' },
      variants: { type: 'string' },
      report: { type: 'string' },
    });
    const out = requireFlag(flags, 'out');
    if (out === '-')
      throw new InputError('command line', '--out', 'must be a file name (the graph is written as two files, .graph.json and .graph.bin)');
    oneStdinAtMost(flags, INPUTS);
    const variants = typeof flags.variants === 'string' ? parseVariants(flags.variants, 'command line', '--variants') : undefined;
    const mCross = integerFlag(flags, 'm-cross', 0, 100_000);
    const pCross = integerFlag(flags, 'p-cross', 0, 100_000);
    const input = (name: (typeof INPUTS)[number], path: string) => readInputText(path, () => standardInput(io, `--${name}`));
    const envMetadata = await input('env-metadata', requireFlag(flags, 'env-metadata'));
    const scenarios = await input('scenarios', requireFlag(flags, 'scenarios'));
    const optional = async (name: (typeof INPUTS)[number]) =>
      typeof flags[name] === 'string' ? await input(name, flags[name] as string) : undefined;
    const topology = await optional('topology');
    const sim = await optional('sim');
    const categories = await optional('categories');
    const name = typeof flags.name === 'string' ? flags.name : basename(out).replace(/(\.graph)?\.json$/, '');
    const progress = progressReporter(io, 'build-graph');
    const started = Date.now();
    let result: BuildResult;
    try {
      result = buildGraph({
        envMetadata,
        scenarios,
        topology,
        sim,
        categories,
        name,
        mCross,
        pCross,
        skipUnverifiable: flags['skip-unverifiable'] === true,
        variants,
        onProgress: progress.update,
      });
    } catch (error) {
      // A raw LLM answer file fails here on its first bad entry: say where the lenient path is.
      if (isInputError(error) && topology && error.source === topology.source && !/duplicate/.test(error.problem)) {
        throw new InputError(
          error.source,
          error.place,
          `${error.problem} (envsched topology-import checks LLM answers one by one and keeps the valid ones)`,
        );
      }
      throw error;
    } finally {
      progress.finish();
    }
    const report = buildReport(result);
    if (typeof flags.report === 'string') await writeOutput(io, flags.report, `${JSON.stringify(report, null, 2)}\n`);
    const written = await writeGraphFiles(result.graph, out);
    io.stderr(formatBuildReport(report));
    io.stderr(
      `wrote ${written.json} (${written.jsonBytes} bytes) and ${written.bin} (${written.binBytes} bytes) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
    return 0;
  },
};
