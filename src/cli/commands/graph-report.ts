// `envsched graph-report`: the quality report of a built graph (docs/graph.md shows one).
import { InputError } from '../../engine/errors.ts';
import { unpackGraph } from '../../engine/graph-json.ts';
import { isPlainObject } from '../../engine/json-text.ts';
import { readInputText } from '../../graph/read-node.ts';
import { readSingleObject } from '../../graph/records.ts';
import type { SimParams } from '../../engine/sim-params.ts';
import { formatReport, qualityReport } from '../../graph/report.ts';
import { parseFlags, requireFlag } from '../args.ts';
import { readGraphFile } from '../../engine/files-node.ts';
import { standardInput, type Command } from '../io.ts';

export const graphReportCommand: Command = {
  name: 'graph-report',
  summary: 'measure a graph: neighbour tool overlap and hidden-difficulty correlation, with examples',
  usage:
    "usage: envsched graph-report --graph G [--sim F] [--json]\n\nUses the graph's own `sim` field unless --sim gives a sidecar (tasks in graph order; - reads stdin).",
  async run(args, io) {
    const flags = parseFlags(args, { graph: { type: 'string' }, sim: { type: 'string' }, json: { type: 'boolean' } });
    const path = requireFlag(flags, 'graph');
    const graph = unpackGraph(await readGraphFile(path));
    let sim = (isPlainObject(graph.sim) ? graph.sim : null) as SimParams | null;
    if (typeof flags.sim === 'string') {
      const file = await readInputText(flags.sim, () => standardInput(io, '--sim'));
      const raw = readSingleObject(file.text, file.source, 'SimParams');
      if (!Array.isArray(raw.tasks) || raw.tasks.length !== graph.tasks.length)
        throw new InputError(file.source, 'tasks', `must hold one entry per graph task (${graph.tasks.length})`);
      sim = raw as unknown as SimParams;
    }
    const report = qualityReport(graph, sim);
    io.stdout(flags.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report, graph.name)}\n`);
    return 0;
  },
};
