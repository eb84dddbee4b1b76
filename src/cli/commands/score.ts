// `envsched score`: scores a rollout history at step t and prints the SPEC 12 scores object.
import { InputError } from '../../engine/errors.ts';
import { unpackGraph } from '../../engine/graph-json.ts';
import { defaultScoreStep, MAX_STEP, taskIndexOf } from '../../engine/history.ts';
import { serializeScores } from '../../engine/scores-json.ts';
import { SCORABLE_SCHEDULERS, type Scores } from '../../engine/types.ts';
import { createWasmScheduler } from '../../engine/wasm/index.ts';
import { loadEnvschedWasmNode } from '../../engine/wasm/loader-node.ts';
import { referenceScore } from '../../reference/index.ts';
import { integerFlag, parseFlags, requireFlag } from '../args.ts';
import { readConfigFile, readGraphFile } from '../../engine/files-node.ts';
import { readHistoryInput, STDIO, writeOutput, type Command } from '../io.ts';
import { progressReporter } from '../progress.ts';

const USAGE = `usage: envsched score --graph G.graph.json|G.graph.bin --history H.jsonl|- [--config C.json] [--step t] [--out F|-] [--engine wasm|reference]

Scores the history for step t (default: one past its last step) and writes the SPEC 12 scores
object to F (default -: standard output): every task's predictions under both half-lives, u, q,
filter flags, and the batch EnvSched picks for step t. --history - reads the history from
standard input. --engine reference runs the plain TypeScript oracle instead of the WASM kernels
(slow; for cross-checking).`;

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
      engine: { type: 'string', default: 'wasm' },
    });
    const engine = flags.engine;
    if (engine !== 'wasm' && engine !== 'reference') throw new InputError('command line', '--engine', `must be wasm or reference, got ${JSON.stringify(engine)}`);
    const graphPath = requireFlag(flags, 'graph');
    const historyPath = requireFlag(flags, 'history');
    const stepFlag = integerFlag(flags, 'step', 0, MAX_STEP);
    const config = await readConfigFile(flags.config);
    if (!(SCORABLE_SCHEDULERS as readonly string[]).includes(config.scheduler)) {
      throw new InputError(flags.config ?? 'defaults', 'scheduler', `score is defined for ${SCORABLE_SCHEDULERS.join(', ')} (SPEC 12), got ${config.scheduler}`);
    }
    // Large pools and histories take seconds to read: show where the time goes (a bar on a terminal).
    const progress = progressReporter(io, 'score', { ttyOnly: true });
    let scores: Scores;
    try {
      progress.update('reading the graph', 0);
      const loaded = await readGraphFile(graphPath);
      progress.update('reading the history', 0.3);
      const observations = await readHistoryInput(io, historyPath, taskIndexOf(loaded.meta), (read, total) =>
        progress.update('reading the history', 0.3 + 0.5 * (total > 0 ? read / total : 0)),
      );
      progress.update('scoring', 0.8);
      const step = stepFlag ?? defaultScoreStep(observations);

      if (engine === 'reference') {
        scores = referenceScore(unpackGraph(loaded), observations, config, step);
      } else {
        const scheduler = createWasmScheduler(await loadEnvschedWasmNode());
        scheduler.loadGraph(loaded.packed, loaded.meta.tasks.map((t) => t.id));
        scheduler.setHistory(observations);
        scores = scheduler.score(config, step);
      }
      progress.update('done', 1);
    } finally {
      progress.finish();
    }
    await writeOutput(io, flags.out ?? STDIO, serializeScores(scores));
    return 0;
  },
};
