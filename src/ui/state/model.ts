// The shapes the orchestrator writes (plain TypeScript: the runes stores in stores.svelte.ts
// implement them in the page, plain objects in the Node tests).
import type { Config } from '../../engine/types.ts';
import type { ReproduceResult } from '../../sim/reproduce.ts';
import type { DatasetInfo, ImportedScores, Inspection, PoolSnapshot, StepRecord } from '../../worker/api.ts';
import type { EngineFault } from '../engine/client.ts';
import type { AppState } from './url-state.ts';

export interface LaneRun {
  runId: number;
  config: Config;
  steps: StepRecord[];
  done: boolean;
  fingerprint: string | null;
  millis: number | null;
}

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface LaneFields {
  a: LaneRun | null;
  b: LaneRun | null;
  ref: LaneRun | null;
  ghostA: LaneRun | null;
  ghostB: LaneRun | null;
  running: boolean;
  pending: boolean;
  refIsB: boolean;
}

export interface DataFields {
  datasets: string[];
  dataset: DatasetInfo | null;
  source: 'sim' | 'imported';
  imported: ImportedScores | null;
  importing: string | null;
  faults: EngineFault[];
}

export interface ViewFields {
  inspection: Inspection | null;
  inspectError: string | null;
  inspecting: boolean;
  pool: PoolSnapshot | null;
}

export interface ReproduceProgress {
  running: boolean;
  done: number;
  total: number;
  label: string;
  result: ReproduceResult | null;
}

export interface ReproduceFields {
  reproduce: ReproduceProgress;
}

export interface NoticeFields {
  notify(kind: Notice['kind'], text: string): void;
}

/** Everything the orchestrator reads and writes. */
export interface LabModel {
  state: AppState;
  lanes: LaneFields;
  data: DataFields;
  view: ViewFields;
  repro: ReproduceFields;
  notices: NoticeFields;
}

/** A plain copy of a configuration (works on a Svelte state proxy too: every field is read). */
export function copyConfig(config: Config): Config {
  return { ...config, alpha: [...config.alpha] as Config['alpha'] };
}

/** The keys the random scheduler's run depends on (its picks ignore every EnvSched knob). */
export function randomKey(config: Config): string {
  return JSON.stringify([config.dataset, config.seed, config.B, config.K, config.T]);
}

/** True when `b` is exactly the random reference of `a` (same pool, seed, B, K, T; random scheduler). */
export function isRandomReferenceOf(b: Config, a: Config): boolean {
  return b.scheduler === 'random' && randomKey(b) === randomKey(a);
}

export function configKey(config: Config): string {
  return JSON.stringify(config);
}
