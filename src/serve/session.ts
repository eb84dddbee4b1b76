// The serve protocol (docs/serve.md), independent of the transport: one request (a JSON object,
// as text) in, one response out. Bad requests get a structured error naming the request and the
// field (the CLI's source / place / problem) and change nothing; the session never throws.
import { createHash } from 'node:crypto';
import { InputError, isInputError } from '../engine/errors.ts';
import { showValue } from '../engine/groups.ts';
import { isPlainObject, parseJsonText } from '../engine/json-text.ts';
import type { PreparedStep, Scheduler } from '../api/scheduler.ts';
import { readBatch, SimulatedWorld } from '../api/world.ts';
import { LOG_FORMAT, LOG_VERSION, LogWriter, readLog } from './log.ts';

export const PROTOCOL = 'envsched-serve';
export const PROTOCOL_VERSION = 1;
/** Longest request accepted, in bytes (a 64-group observe of K = 8 is about 10 KB). */
export const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

const OPS: Record<string, readonly string[]> = {
  observe: ['step', 'groups'],
  next: ['step', 'extras'],
  scores: ['step', 'tasks'],
  config: ['set'],
  history: ['from'],
  snapshot: [],
  simulate: ['step', 'tasks'],
  shutdown: [],
};
const COMMON = ['v', 'id', 'op'];

export interface ErrorBody {
  source: string;
  place: string;
  problem: string;
}

export type Response =
  { v: 1; id?: string | number; ok: true; op: string; result: unknown } | { v: 1; id?: string | number; ok: false; error: ErrorBody };

export interface Handled {
  response: Response;
  /** The request was `shutdown`: answer it, then stop. */
  shutdown: boolean;
}

/** A stable digest of the graph's task ids (a log belongs to one graph). */
export function taskDigest(taskIds: readonly string[]): string {
  return createHash('sha256').update(taskIds.join('\n')).digest('hex').slice(0, 16);
}

export interface SessionOptions {
  scheduler: Scheduler;
  module: WebAssembly.Module;
  /** The graph file, for the simulator's errors. */
  graphSource: string;
  /** The run log (replayed first when it exists). */
  logPath?: string;
  /** The configuration given on the command line; on a restart it must equal the one the log started with. */
  startConfig?: Record<string, unknown>;
  startConfigSource?: string;
}

export class ServeSession {
  private world: SimulatedWorld | null = null;
  private seq = 0;
  private readonly taskIndex: Map<string, number>;

  private constructor(
    private readonly scheduler: Scheduler,
    private readonly module: WebAssembly.Module,
    private readonly graphSource: string,
    private readonly log: LogWriter | null,
    readonly replayed: { steps: number; droppedBytes: number },
  ) {
    this.taskIndex = new Map(scheduler.taskIds.map((id, i) => [id, i]));
  }

  /** Opens a session: replays the log if it exists (continuing exactly where it stopped), else starts one. */
  static open(options: SessionOptions): ServeSession {
    const { scheduler, logPath } = options;
    const graph = { name: scheduler.meta.name, tasks: scheduler.taskIds.length, taskDigest: taskDigest(scheduler.taskIds) };
    let log: LogWriter | null = null;
    let steps = 0;
    let droppedBytes = 0;
    const existing = logPath === undefined ? null : readLog(logPath);
    if (logPath !== undefined && existing) {
      const g = existing.header.graph;
      if (g.tasks !== graph.tasks || g.taskDigest !== graph.taskDigest) {
        throw new InputError(
          logPath,
          '1:graph',
          `the log was written for graph ${JSON.stringify(g.name)} (${g.tasks} tasks), not this graph ${JSON.stringify(graph.name)} (${graph.tasks} tasks)`,
        );
      }
      if (options.startConfig) {
        // Restarting with the same command line continues the run; another configuration would not.
        const key = Object.keys(options.startConfig).find(
          (k) => JSON.stringify(options.startConfig![k]) !== JSON.stringify(existing.header.config[k]),
        );
        if (key !== undefined)
          throw new InputError(
            options.startConfigSource ?? 'config',
            key,
            `differs from the configuration the log ${logPath} started with (${showValue(existing.header.config[key])}): continue without --config, or change it with a config request`,
          );
      }
      scheduler.setConfig(existing.header.config, `${logPath}:1:config`);
      for (const { line, entry } of existing.entries) {
        if (entry.op === 'observe') {
          scheduler.commit(scheduler.prepareObserve(entry.step, entry.groups, `${logPath}:${line}`));
          steps++;
        } else scheduler.setConfig(entry.config, `${logPath}:${line}:config`);
      }
      droppedBytes = existing.droppedBytes;
      log = LogWriter.open(logPath, null);
    } else {
      if (options.startConfig) scheduler.setConfig(options.startConfig, options.startConfigSource ?? 'config');
      if (logPath !== undefined)
        log = LogWriter.open(logPath, {
          format: LOG_FORMAT,
          version: LOG_VERSION,
          graph,
          config: scheduler.config as unknown as Record<string, unknown>,
        });
    }
    const session = new ServeSession(scheduler, options.module, options.graphSource, log, { steps, droppedBytes });
    return session;
  }

  close(): void {
    this.log?.close();
  }

  /** Handles one request; never throws. */
  async handle(text: string): Promise<Handled> {
    const seq = ++this.seq;
    let id: string | number | undefined;
    let source = `request #${seq}`;
    try {
      const raw = parseJsonText(text, source);
      if (!isPlainObject(raw)) throw new InputError(source, '(top level)', 'a request is a JSON object {"v": 1, "id"?, "op", ...}');
      if (raw.id !== undefined) {
        if ((typeof raw.id !== 'string' || raw.id.length > 200) && (typeof raw.id !== 'number' || !Number.isFinite(raw.id)))
          throw new InputError(source, 'id', `must be a string (at most 200 characters) or a number, got ${showValue(raw.id)}`);
        id = raw.id;
        source = `request ${JSON.stringify(id)}`;
      }
      if (raw.v !== undefined && raw.v !== PROTOCOL_VERSION)
        throw new InputError(
          source,
          'v',
          `protocol version ${showValue(raw.v)} is not supported (this server speaks ${PROTOCOL} version ${PROTOCOL_VERSION})`,
        );
      const op = raw.op;
      if (typeof op !== 'string' || !Object.hasOwn(OPS, op))
        throw new InputError(source, 'op', `unknown operation ${showValue(op)} (known: ${Object.keys(OPS).join(', ')})`);
      for (const key of Object.keys(raw)) {
        if (!COMMON.includes(key) && !OPS[op].includes(key))
          throw new InputError(source, key, `unknown field for ${op} (it takes ${OPS[op].join(', ') || 'no fields'})`);
      }
      const result = await this.dispatch(op, raw, source);
      return { response: { v: 1, ...(id !== undefined ? { id } : {}), ok: true, op, result }, shutdown: op === 'shutdown' };
    } catch (error) {
      const body: ErrorBody = isInputError(error)
        ? { source: error.source, place: error.place, problem: error.problem }
        : { source, place: '-', problem: `internal error (please report): ${error instanceof Error ? error.message : String(error)}` };
      return { response: { v: 1, ...(id !== undefined ? { id } : {}), ok: false, error: body }, shutdown: false };
    }
  }

  private async dispatch(op: string, raw: Record<string, unknown>, source: string): Promise<unknown> {
    const s = this.scheduler;
    switch (op) {
      case 'observe': {
        const prepared = s.prepareObserve(raw.step, raw.groups, source);
        this.appendToLog(prepared, source);
        return s.commit(prepared);
      }
      case 'next':
        return s.next(raw.step as number | undefined, { extras: raw.extras as number | undefined }, source);
      case 'scores':
        return s.scores(raw.step as number | undefined, raw.tasks as string[] | undefined, source);
      case 'config': {
        if (raw.set === undefined) return { config: s.config };
        const before = s.config;
        const config = s.setConfig(raw.set, source);
        if (this.log) {
          try {
            this.log.append({ op: 'config', config: config as unknown as Record<string, unknown> });
          } catch (error) {
            s.setConfig(before, source);
            throw new InputError(source, 'log', `cannot write the log, nothing changed (${(error as Error).message})`);
          }
        }
        return { config };
      }
      case 'history': {
        const from = raw.from === undefined ? 0 : raw.from;
        if (typeof from !== 'number' || !Number.isInteger(from) || from < 0)
          throw new InputError(source, 'from', `must be an integer >= 0, got ${showValue(from)}`);
        return { history: s.history().filter((h) => h.step >= from) };
      }
      case 'snapshot':
        return {
          protocol: `${PROTOCOL}/${PROTOCOL_VERSION}`,
          ...s.state(),
          log: this.log?.path ?? null,
          world: this.world ? { nextStep: this.world.nextStep, fingerprint: this.world.fingerprint() } : null,
        };
      case 'simulate': {
        const step = raw.step;
        if (typeof step !== 'number' || !Number.isInteger(step) || step < 0)
          throw new InputError(source, 'step', `must be an integer >= 0, got ${showValue(step)}`);
        const batch = readBatch(raw.tasks, this.taskIndex, source);
        if (!this.world && step !== 0)
          throw new InputError(source, 'step', 'the simulated world is at step 0: steps are simulated in order, once each');
        this.world ??= await SimulatedWorld.create(this.module, s.meta, s.config, this.graphSource);
        return this.world.rollout(step, batch, source);
      }
      case 'shutdown':
        return { lastStep: s.lastStep };
    }
    throw new InputError(source, 'op', `unknown operation ${showValue(op)}`);
  }

  private appendToLog(prepared: PreparedStep, source: string): void {
    if (!this.log) return;
    const groups = prepared.observations.map((o, k) => {
      const g: Record<string, unknown> = { task: this.scheduler.taskIds[o.task], rewards: o.rewards };
      if (o.flags) g.flags = o.flags;
      if (prepared.costs[k] !== undefined) g.cost = prepared.costs[k];
      return g;
    });
    try {
      this.log.append({ op: 'observe', step: prepared.step, groups });
    } catch (error) {
      throw new InputError(source, 'log', `cannot write the log, the step is not committed (${(error as Error).message})`);
    }
  }
}
