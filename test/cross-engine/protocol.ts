// What the test server and the harness page exchange (test/cross-engine/): the cases to run and
// the fingerprints the page reports back. Plain JSON, so any browser can take part.
import type { WorldKnob } from '../../src/sim/model-params.ts';

export interface CrossEngineCase {
  /** Stable key of the case, e.g. `tiny/envsched/seed 1`. */
  key: string;
  /** Served at `/data/<dataset>.graph.bin`. */
  dataset: string;
  scheduler: string;
  seed: number;
  steps: number;
  /** World knobs over the calibrated defaults (docs/simulator.md); absent: the calibrated world. */
  world?: Partial<Record<WorldKnob, number>>;
}

export interface CaseResult {
  key: string;
  fingerprint: string;
  /** Mean reward of the last step's batch: a second, human-readable witness. */
  lastMeanReward: number;
  millis: number;
}

export interface EngineReport {
  engine: string;
  userAgent: string;
  results: CaseResult[];
  /** Set when the page failed: the report then carries the message instead of results. */
  error?: string;
}
