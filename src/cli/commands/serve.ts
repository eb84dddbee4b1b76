// `envsched serve`: one scheduler process per training job (docs/serve.md). Loads the graph once,
// keeps the history incrementally, answers observe / next / scores / config / snapshot /
// simulate / shutdown over JSON Lines on stdio, or over HTTP on a loopback address.
import { DEFAULT_CONFIG, parseConfig } from '../../engine/config.ts';
import { readConfigFile } from '../../engine/files-node.ts';
import { loadGraphFileInto } from '../../engine/wasm/graph-file-node.ts';
import { compileEnvschedNode } from '../../engine/wasm/loader-node.ts';
import { createSchedulerFromModule } from '../../api/create.ts';
import { ServeSession } from '../../serve/session.ts';
import { parseListen, serveHttp, serveLines } from '../../serve/transports.ts';
import { parseFlags, requireFlag } from '../args.ts';
import type { Command } from '../io.ts';

const USAGE = `usage: envsched serve --graph G.graph.json|G.graph.bin [--config C.json] [--log run.jsonl] [--listen 127.0.0.1:PORT]

Loads the graph once and answers requests, one JSON object per line on stdin (answers on stdout),
or with --listen, POSTed to http://HOST:PORT/ (loopback addresses only). Operations: observe, next,
scores, config, history, snapshot, simulate, shutdown (protocol: docs/serve.md). --log appends
every committed step to a log, flushed to disk before it is acknowledged; started again with the
same log, the server replays it and continues exactly where it stopped.`;

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve a scheduler to a training loop (JSON Lines on stdio, or HTTP on loopback)',
  usage: USAGE,
  async run(args, io) {
    const flags = parseFlags(args, {
      graph: { type: 'string' },
      config: { type: 'string' },
      log: { type: 'string' },
      listen: { type: 'string' },
    });
    const graphPath = requireFlag(flags, 'graph');
    const listen = flags.listen === undefined ? null : parseListen(flags.listen);
    const startConfig =
      flags.config === undefined ? undefined : ((await readConfigFile(flags.config)) as unknown as Record<string, unknown>);
    const started = performance.now();
    const module = await compileEnvschedNode();
    const scheduler = await createSchedulerFromModule(
      module,
      async (w) => (await loadGraphFileInto(w, graphPath)).meta,
      parseConfig({ ...DEFAULT_CONFIG }, 'defaults'),
      'defaults',
    );
    const session = ServeSession.open({
      scheduler,
      module,
      graphSource: graphPath,
      logPath: flags.log,
      startConfig,
      startConfigSource: flags.config,
    });
    const state = scheduler.state();
    const replayed = session.replayed.steps > 0 ? `, replayed ${session.replayed.steps} steps from ${flags.log}` : '';
    const torn =
      session.replayed.droppedBytes > 0 ? ` (dropped an unacknowledged partial line of ${session.replayed.droppedBytes} bytes)` : '';
    const ready = `envsched serve: ready in ${Math.round(performance.now() - started)} ms: ${state.graph.name}, ${state.graph.tasks} tasks, ${state.config.scheduler}${replayed}${torn}`;
    try {
      if (listen) {
        let stop: () => void = () => {};
        const stopped = new Promise<void>((resolve) => (stop = resolve));
        const server = await serveHttp(session, listen.host, listen.port, () => stop());
        const address = server.address();
        const port = typeof address === 'object' && address ? address.port : listen.port;
        const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
        io.stderr(`${ready}; listening on http://${host}:${port}/\n`);
        process.once('SIGTERM', () => stop());
        process.once('SIGINT', () => stop());
        await stopped;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      } else {
        io.stderr(`${ready}; reading requests on stdin\n`);
        await serveLines(session, process.stdin, (line) => io.stdout(line));
      }
    } finally {
      session.close();
    }
    return 0;
  },
};
