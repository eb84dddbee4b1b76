// `import { createScheduler } from 'envsched-lab'` (Node): the library API (README, "Library").
import { parseConfig } from '../engine/config.ts';
import { readConfigFile, readHistoryFile } from '../engine/files-node.ts';
import { taskIndexOf } from '../engine/history.ts';
import type { Config, LoadedGraph } from '../engine/types.ts';
import { loadGraphFileInto, type LoadProgress } from '../engine/wasm/graph-file-node.ts';
import { compileEnvschedNode } from '../engine/wasm/loader-node.ts';
import { createSchedulerFromModule, loadedGraph, type GraphLoader } from './create.ts';
import type { Scheduler } from './scheduler.ts';

export { Scheduler, MAX_EXTRAS, isServable } from './scheduler.ts';
export type {
  BatchPick,
  GroupInput,
  HistoryEntry,
  Metrics,
  NextResult,
  ObserveResult,
  SchedulerState,
  ScoresResult,
  TaskScoreRow,
} from './scheduler.ts';
export type { CapRule, Config, Phase, SchedulerName, TaskScores } from '../engine/types.ts';
export { InputError } from '../engine/errors.ts';

export interface CreateSchedulerOptions {
  /** A graph file (`.graph.json` or `.graph.bin`; binary graphs load straight into WASM memory) or a graph in memory. */
  graph: string | LoadedGraph;
  /** A configuration file, or configuration keys (SPEC 11-12; missing keys take the defaults). */
  config?: string | Partial<Config>;
  /** A history file (SPEC 12 JSONL) to start from. */
  history?: string;
  onProgress?: LoadProgress;
}

/** Loads the graph (and history) once; then observe / next / scores at memory speed. */
export async function createScheduler(options: CreateSchedulerOptions): Promise<Scheduler> {
  const config: Config =
    typeof options.config === 'string' || options.config === undefined
      ? await readConfigFile(options.config)
      : parseConfig(options.config, 'config');
  const source = typeof options.config === 'string' ? options.config : 'config';
  const graph = options.graph;
  const load: GraphLoader =
    typeof graph === 'string' ? async (w) => (await loadGraphFileInto(w, graph, options.onProgress)).meta : loadedGraph(graph);
  const scheduler = await createSchedulerFromModule(await compileEnvschedNode(), load, config, source);
  if (options.history !== undefined) scheduler.loadHistory(await readHistoryFile(options.history, taskIndexOf(scheduler.meta)));
  return scheduler;
}
