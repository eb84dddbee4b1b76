// The contract between the page and the engine worker (comlink). Everything here is plain,
// structured-cloneable data: the page never holds WASM memory or engine objects.
import type { CapRule, Config, Phase, Scores } from '../engine/types.ts';
import type { TaskExplanation } from '../reference/index.ts';
import type { StepMetrics } from '../sim/run.ts';
import type { ReproduceResult } from '../sim/reproduce.ts';
import type { ExplainApi, TaskWhy } from './explain.ts';
import type { Failure } from './host.ts';
import type { WorldSettings } from '../sim/model-params.ts';

/** A run's lane: configuration A, configuration B (compare mode), or the random reference. */
export type Lane = 'a' | 'b' | 'ref';

export interface EnvInfo {
  id: string;
  name: string;
  category: string | null;
}

export interface TaskInfo {
  id: string;
  env: number;
  tools: string[];
  checks: number;
  text: string;
}

/** What the page needs to know of a loaded graph (no neighbour lists). */
export interface DatasetInfo {
  name: string;
  /** Where it came from: a bundled dataset name or an imported file name. */
  source: string;
  envs: EnvInfo[];
  tasks: TaskInfo[];
  /** False for graphs without simulator parameters: they can be scored, not simulated (SPEC 12). */
  simulable: boolean;
  suites: string[];
}

/** One computed step as streamed to the page. */
export interface StepRecord {
  metrics: StepMetrics;
  /** Phase of each pick (EnvSched family), null for baselines. */
  phases: Phase[] | null;
  /** Mean predicted variance (long half-life vhat) of the selected groups; null without predictions. */
  predictedBatchVariance: number | null;
}

export interface StepChunk {
  lane: Lane;
  runId: number;
  steps: StepRecord[];
}

export interface RunDone {
  lane: Lane;
  runId: number;
  fingerprint: string;
  steps: number;
  millis: number;
}

/** Predicted vs true expected variance over the whole pool at one step (scatter view). */
export interface PoolSnapshot {
  step: number;
  /** null when the scheduler has no prediction (cold start, random). */
  predicted: Float32Array | null;
  truth: Float32Array;
  truthMean: Float32Array;
}

export interface Inspection {
  lane: Lane;
  step: number;
  task: number;
  /** The configuration scored (baselines are explained as EnvSched would see their history). */
  scoredAs: Config['scheduler'];
  explanation: TaskExplanation;
  /** Why it was picked (phase, criterion, runner-up) or what kept it out (src/reference/why.ts). */
  why: TaskWhy;
  /** The simulator's exact expected reward and variance of this task at this step (null for imported data). */
  truth: { mean: number; variance: number } | null;
  /** The rollouts the task got at this step, if it was in the batch. */
  rollouts: { rewards: number[]; flags?: boolean[] } | null;
  millis: number;
}

/** Result of scoring an imported history (SPEC 12 scores, trimmed to what the page shows). */
export interface ImportedScores {
  step: number;
  observations: number;
  batch: Scores['batch'];
  batchTasks: number[];
  relaxed: CapRule[];
  removed: number;
  progressExcluded: number;
}

/** A value, or the one failure shape of both workers (src/worker/host.ts): `cancelled` when cancel() stopped it. */
export type Result<T> = { ok: true; value: T } | Failure;

/** Faults the test hook can arm (docs/reliability.md, "Faults in the app"). */
export type FaultKind = 'trap' | 'abort' | 'oom' | 'hang' | 'crash';

export interface EngineApi extends ExplainApi {
  /** Compiles the WASM module once. `base` is the site's base URL (datasets are fetched relative to it). */
  init(wasmUrl: string, base: string): Promise<void>;
  datasetNames(): Promise<string[]>;
  loadDataset(name: string): Promise<Result<DatasetInfo>>;
  /** Loads an imported graph file (.json or .bin); errors name the file and the field or line. */
  loadGraphFile(bytes: Uint8Array, fileName: string): Promise<Result<DatasetInfo>>;
  /** Runs a whole simulation, streaming its steps (the first alone, then one chunk per ~40 ms slice). */
  /** `world`: the simulated world's mechanisms (default: the calibrated world). */
  run(lane: Lane, runId: number, config: Config, onChunk: (chunk: StepChunk) => void, world?: WorldSettings): Promise<Result<RunDone>>;
  /** Stops every run in progress at its next slice boundary (they resolve with `cancelled`). */
  cancel(): Promise<void>;
  /** Answers at once when the worker's event loop is free: the page's heartbeat (a hung worker never answers). */
  ping(): Promise<number>;
  /**
   * Test hook: the next run (after its first slice) or graph import fails with `kind`. Present
   * only in test builds (VITE_ENVSCHED_TEST_HOOKS=1; production workers refuse), and reached only
   * through the page's debug handle, which exists only with `?debug=1` (lab.svelte.ts).
   */
  armFault(kind: FaultKind): Promise<void>;
  pool(lane: Lane, step: number): Promise<PoolSnapshot | null>;
  inspect(lane: Lane | 'imported', step: number, task: number): Promise<Result<Inspection>>;
  /** The lane's history as SPEC 12 JSONL (observations with s < beforeStep). */
  exportHistory(lane: Lane, beforeStep: number): Promise<string>;
  exportGraphJson(): Promise<string>;
  /** The lane's run as `envsched run` writes it: run.json and run.csv (src/sim/run-output.ts). */
  exportRun(lane: Lane): Promise<{ json: string; csv: string } | null>;
  importHistory(text: string, fileName: string, config: Config): Promise<Result<ImportedScores>>;
  reproduce(
    config: Config,
    seeds: number,
    steps: number,
    table4Runs: number,
    onProgress: (done: number, total: number, label: string) => void,
    world?: WorldSettings,
  ): Promise<Result<ReproduceResult>>;
}
