// `envsched build-graph`: release files -> graph file (SPEC 12 JSON) + binary beside it.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { InputError } from '../../engine/errors.ts';
import { buildGraph, type TextFile } from '../../graph/build.ts';
import { progressReporter } from '../progress.ts';
import { writeGraphFiles } from '../../graph/write-node.ts';
import { integerFlag, parseFlags, requireFlag } from '../args.ts';
import type { Command } from '../io.ts';

export async function readTextFile(path: string): Promise<TextFile> {
  try {
    return { text: await readFile(path, 'utf8'), source: path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException)?.code;
    throw new InputError(path, '-', `cannot read the file (${code === 'ENOENT' ? 'no such file' : code ?? String(error)})`);
  }
}

export const buildGraphCommand: Command = {
  name: 'build-graph',
  summary: 'build the dual-relation graph (SPEC 1, 9, 12) from EnvScaler release files',
  usage: [
    'usage: envsched build-graph --env-metadata F --scenarios F --out G.graph.json',
    '                            [--topology F] [--sim F] [--categories F] [--name NAME] [--m-cross 256] [--p-cross 32]',
    '',
    'Writes G.graph.json and G.graph.bin. Without --topology, each task\'s topology is derived from its',
    'checks and instruction (docs/graph.md). --sim embeds the simulator sidecar; --categories maps env_id',
    'to a category.',
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
    });
    const out = requireFlag(flags, 'out');
    const envMetadata = await readTextFile(requireFlag(flags, 'env-metadata'));
    const scenarios = await readTextFile(requireFlag(flags, 'scenarios'));
    const topology = typeof flags.topology === 'string' ? await readTextFile(flags.topology) : undefined;
    const sim = typeof flags.sim === 'string' ? await readTextFile(flags.sim) : undefined;
    const categories = typeof flags.categories === 'string' ? await readTextFile(flags.categories) : undefined;
    const name = typeof flags.name === 'string' ? flags.name : basename(out).replace(/(\.graph)?\.json$/, '');
    const progress = progressReporter(io, 'build-graph');
    const started = Date.now();
    const result = buildGraph({ envMetadata, scenarios, topology, sim, categories, name, mCross: integerFlag(flags, 'm-cross', 0, 100_000), pCross: integerFlag(flags, 'p-cross', 0, 100_000), onProgress: progress.update });
    progress.finish();
    const written = await writeGraphFiles(result.graph, out);
    const g = result.graph;
    io.stderr(
      `built ${g.envs.length} environments, ${g.tasks.length} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s` +
        `${result.droppedEnvs ? ` (${result.droppedEnvs} environments without scenarios left out)` : ''}` +
        `; topology: ${g.tasks.length - result.derivedTopologies} from file, ${result.derivedTopologies} derived` +
        `; wrote ${written.json} (${written.jsonBytes} bytes) and ${written.bin} (${written.binBytes} bytes)\n`,
    );
    return 0;
  },
};
