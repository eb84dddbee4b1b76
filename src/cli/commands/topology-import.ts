// `envsched topology-import`: LLM answers to the topology prompts, each validated on its own, into
// a `--topology` file for build-graph; rejected answers with their reasons (docs/graph.md,
// "Topology from an LLM").
import { InputError } from '../../engine/errors.ts';
import { oneStdinAtMost, readInputText, readPool } from '../../graph/read-node.ts';
import { importResponses, importSummary, poolIndex, serializeRejects, serializeTopologies } from '../../graph/responses.ts';
import { parseFlags, requireFlag } from '../args.ts';
import { standardInput, writeOutput, type Command } from '../io.ts';

export const topologyImportCommand: Command = {
  name: 'topology-import',
  summary: 'import LLM answers to the topology prompts, keeping the valid ones, as a --topology file',
  usage: [
    'usage: envsched topology-import --responses R.jsonl --out topology.json [--rejects bad.jsonl]',
    '                                [--env-metadata F --scenarios F] [--skip-unverifiable]',
    '',
    'Reads one answer per line (OpenAI Batch output lines, {"task_id", "content"} or {"task_id",',
    '"topology"}; JSON with or without code fences), validates each on its own and writes the valid',
    'topologies to --out (for build-graph --topology). --rejects writes each rejected answer with its',
    'reason, one per line. With the pool (--env-metadata and --scenarios), answers for task ids not in',
    'it and answers naming tools its environment lacks are rejected too. - reads stdin / writes stdout.',
  ].join('\n'),
  async run(args, io) {
    const flags = parseFlags(args, {
      responses: { type: 'string' },
      out: { type: 'string' },
      rejects: { type: 'string' },
      'env-metadata': { type: 'string' },
      scenarios: { type: 'string' },
      'skip-unverifiable': { type: 'boolean' },
    });
    const out = requireFlag(flags, 'out');
    const responsesPath = requireFlag(flags, 'responses');
    oneStdinAtMost(flags, ['responses', 'env-metadata', 'scenarios']);
    const hasEnv = typeof flags['env-metadata'] === 'string';
    const hasScen = typeof flags.scenarios === 'string';
    if (hasEnv !== hasScen)
      throw new InputError(
        'command line',
        hasEnv ? '--scenarios' : '--env-metadata',
        'is required with ' + (hasEnv ? '--env-metadata' : '--scenarios') + ' (the pool is both files)',
      );
    if (typeof flags.rejects === 'string' && flags.rejects === out)
      throw new InputError('command line', '--rejects', 'must differ from --out');
    const stdinFor = (flag: string) => () => standardInput(io, flag);
    const pool = hasEnv
      ? poolIndex(
          (
            await readPool(
              flags['env-metadata'] as string,
              flags.scenarios as string,
              flags['skip-unverifiable'] === true,
              stdinFor(flags['env-metadata'] === '-' ? '--env-metadata' : '--scenarios'),
            )
          ).release,
        )
      : null;
    const responses = await readInputText(responsesPath, stdinFor('--responses'));
    const result = importResponses(responses.text, responses.source, pool);
    if (typeof flags.rejects === 'string') await writeOutput(io, flags.rejects, serializeRejects(result.rejects));
    const summary = `topology-import: ${importSummary(result)}${pool ? '' : ' (no pool given: task ids and tools not checked)'}`;
    if (result.accepted.size === 0) {
      throw new InputError(
        responses.source,
        '(all answers)',
        `none of the ${result.answers} answers yields a valid topology (first: ${result.rejects[0].place}: ${result.rejects[0].reason.slice(0, 160)})`,
      );
    }
    await writeOutput(io, out, serializeTopologies(result.accepted));
    io.stderr(`${summary}\n`);
    if (typeof flags.rejects !== 'string')
      for (const r of result.rejects.slice(0, 10)) io.stderr(`rejected: ${responses.source}:${r.place}: ${r.reason}\n`);
    if (typeof flags.rejects !== 'string' && result.rejects.length > 10)
      io.stderr(`rejected: ... and ${result.rejects.length - 10} more (--rejects F writes them all)\n`);
    return 0;
  },
};
