// `envsched topology-prompts`: the Appendix E prompt of every task, one LLM request per line
// (docs/graph.md, "Topology from an LLM"). Answers come back through `topology-import`.
import { InputError } from '../../engine/errors.ts';
import { DEFAULT_MODEL, PROMPT_FORMATS, promptLine, type PromptFormat } from '../../graph/prompts.ts';
import { oneStdinAtMost, readPool } from '../../graph/read-node.ts';
import { parseFlags, requireFlag } from '../args.ts';
import { standardInput, writeOutput, type Command } from '../io.ts';

export const topologyPromptsCommand: Command = {
  name: 'topology-prompts',
  summary: 'write the Appendix E topology prompt of every task, one LLM request per line',
  usage: [
    'usage: envsched topology-prompts --env-metadata F --scenarios F --out prompts.jsonl',
    '                                 [--format messages|openai-batch] [--model NAME] [--skip-unverifiable]',
    '',
    "Writes one request per scenario (graph order) asking for the task's topology: operations with",
    'families, gates with type and provenance, reward groups, conflicts. --format messages (default):',
    '{"task_id", "messages"}; openai-batch: OpenAI Batch API input lines (custom_id = task_id, POST',
    `/v1/chat/completions, body with model and messages). --model defaults to ${DEFAULT_MODEL}, a placeholder.`,
    '--out - writes to stdout. Answers go back in with envsched topology-import.',
  ].join('\n'),
  async run(args, io) {
    const flags = parseFlags(args, {
      'env-metadata': { type: 'string' },
      scenarios: { type: 'string' },
      out: { type: 'string' },
      format: { type: 'string' },
      model: { type: 'string' },
      'skip-unverifiable': { type: 'boolean' },
    });
    const format = (flags.format ?? 'messages') as PromptFormat;
    if (!PROMPT_FORMATS.includes(format))
      throw new InputError('command line', '--format', `must be ${PROMPT_FORMATS.join(' or ')}, got ${JSON.stringify(flags.format)}`);
    const model = flags.model ?? DEFAULT_MODEL;
    if (model === '') throw new InputError('command line', '--model', 'must not be empty');
    const out = requireFlag(flags, 'out');
    oneStdinAtMost(flags, ['env-metadata', 'scenarios']);
    const { release, skipped } = await readPool(
      requireFlag(flags, 'env-metadata'),
      requireFlag(flags, 'scenarios'),
      flags['skip-unverifiable'] === true,
      () => standardInput(io, flags['env-metadata'] === '-' ? '--env-metadata' : '--scenarios'),
    );
    const text = release.tasks.map((t) => `${promptLine(format, t, release.envs[t.env], model)}\n`).join('');
    await writeOutput(io, out, text);
    io.stderr(
      `topology-prompts: ${release.tasks.length} prompts (${format}${format === 'openai-batch' ? `, model ${model}` : ''}) for ${release.envs.length} environments${skipped ? `; ${skipped} scenarios without verifier functions left out` : ''}${out === '-' ? '' : `; wrote ${out}`}\n`,
    );
    return 0;
  },
};
