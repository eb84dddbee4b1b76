// `envsched score`: scores a rollout history at step t and prints the SPEC 12 scores object, or
// with --batch-only just the batch (what a pipeline needs). Binary graphs load straight into WASM
// memory; the scheduler is the library's (src/api), the same one `envsched serve` runs.
import { createSchedulerFromModule } from '../../api/create.ts';
import { isBaseline } from '../../api/baselines.ts';
import { servableConfig } from '../../api/scheduler.ts';
import { InputError } from '../../engine/errors.ts';
import { readConfigFile, readGraphFile } from '../../engine/files-node.ts';
import { unpackGraph } from '../../engine/graph-json.ts';
import { defaultScoreStep, MAX_STEP, taskIndexOf } from '../../engine/history.ts';
import { serializeScores } from '../../engine/scores-json.ts';
import { loadGraphFileInto } from '../../engine/wasm/graph-file-node.ts';
import { compileEnvschedNode } from '../../engine/wasm/loader-node.ts';
import { referenceScore } from '../../reference/index.ts';
import { integerFlag, parseFlags, requireFlag } from '../args.ts';
import { readHistoryInput, STDIO, writeOutput, type Command } from '../io.ts';
import { progressReporter } from '../progress.ts';

const USAGE = `usage: envsched score --graph G.graph.json|G.graph.bin --history H.jsonl|- [--config C.json] [--step t] [--batch-only] [--out F|-] [--implementation wasm|reference]

Scores the history for step t (default: one past its last step) and writes the SPEC 12 scores
object to F (default -: standard output): every task's predictions under both half-lives, u, q,
filter flags, and the batch EnvSched picks for step t. --history - reads the history from
standard input. --batch-only writes only {step, scheduler, batch, relaxed}, each pick with its
index, environment, phase, q and predicted variance (the shape of envsched serve's next). The
configuration's scheduler may also be random, dps or mopps (run from the history; their output
is the --batch-only shape). --implementation reference runs the plain TypeScript oracle instead
of the WASM kernels (slow; for cross-checking).`;

export const scoreCommand: Command = {
  name: 'score',
  summary: 'score a rollout history and print the next batch (SPEC 12 scores)',
  usage: USAGE,
  async run(args, io) {
    const flags = parseFlags(args, {
      graph: { type: 'string' },
      history: { type: 'string' },
      config: { type: 'string' },
      step: { type: 'string' },
      out: { type: 'string' },
      'batch-only': { type: 'boolean' },
      implementation: { type: 'string', default: 'wasm' },
    });
    const implementation = flags.implementation;
    if (implementation !== 'wasm' && implementation !== 'reference')
      throw new InputError('command line', '--implementation', `must be wasm or reference, got ${JSON.stringify(implementation)}`);
    const graphPath = requireFlag(flags, 'graph');
    const historyPath = requireFlag(flags, 'history');
    const stepFlag = integerFlag(flags, 'step', 0, MAX_STEP);
    const config = await readConfigFile(flags.config);
    const source = flags.config ?? 'defaults';
    servableConfig(config, source);
    const batchOnly = flags['batch-only'] === true || isBaseline(config.scheduler);
    if (implementation === 'reference' && batchOnly)
      throw new InputError(
        'command line',
        '--implementation',
        'the reference implementation writes the full SPEC 12 scores of the EnvSched family only',
      );
    // Large pools and histories take seconds to read: show where the time goes (a bar on a terminal).
    const progress = progressReporter(io, 'score', { ttyOnly: true });
    let text: string;
    try {
      progress.update('reading the graph', 0);
      if (implementation === 'reference') {
        const loaded = await readGraphFile(graphPath);
        progress.update('reading the history', 0.3);
        const observations = await readHistoryInput(io, historyPath, taskIndexOf(loaded.meta));
        progress.update('scoring', 0.8);
        text = serializeScores(referenceScore(unpackGraph(loaded), observations, config, stepFlag ?? defaultScoreStep(observations)));
      } else {
        const scheduler = await createSchedulerFromModule(
          await compileEnvschedNode(),
          async (w) =>
            (
              await loadGraphFileInto(w, graphPath, (_phase, done, total) =>
                progress.update('reading the graph', 0.3 * (total > 0 ? done / total : 0)),
              )
            ).meta,
          config,
          source,
        );
        progress.update('reading the history', 0.3);
        const observations = await readHistoryInput(io, historyPath, taskIndexOf(scheduler.meta), (read, total) =>
          progress.update('reading the history', 0.3 + 0.5 * (total > 0 ? read / total : 0)),
        );
        scheduler.loadHistory(observations);
        progress.update('scoring', 0.8);
        const step = stepFlag ?? scheduler.lastStep + 1;
        if (batchOnly) {
          const { scheduler: name, batch, relaxed } = scheduler.next(step);
          text = `${JSON.stringify({ step, scheduler: name, batch, relaxed })}\n`;
        } else text = serializeScores(scheduler.fullScores(step));
      }
      progress.update('done', 1);
    } finally {
      progress.finish();
    }
    await writeOutput(io, flags.out ?? STDIO, text);
    return 0;
  },
};
