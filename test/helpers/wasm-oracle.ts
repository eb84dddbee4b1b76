// The WASM scheduler next to the TypeScript reference, set up so that the two agree to the bit:
// the oracle's reference runs on the module's own exp / pow / log.
import { beforeAll } from 'vitest';
import type { Config, Graph, Observation, Scores } from '../../src/engine/types.ts';
import { nativeMathOf, type EnvschedWasm } from '../../src/engine/wasm/loader.ts';
import { loadEnvschedWasmNode } from '../../src/engine/wasm/loader-node.ts';
import { WasmScheduler } from '../../src/engine/wasm/scheduler.ts';
import { packGraph } from '../../src/engine/pack.ts';
import { referenceScore, type ScalarMath } from '../../src/reference/index.ts';
import { loadTestWasm, type TestHooks } from './test-wasm.ts';

export interface WasmOracle {
  readonly wasm: EnvschedWasm;
  readonly scheduler: WasmScheduler;
  /** The module's exp / pow / log, for reference functions called directly. */
  readonly math: ScalarMath;
  /** The test build's hooks (wasmOracle({ testBuild: true }) only). */
  readonly hooks: TestHooks;
  /** The reference's scores of step t (default: one past the history), on the module's math. */
  referenceScore(graph: Graph, observations: readonly Observation[], config: Config, step?: number): Scores;
  /** Loads `graph` (packed as it is, unvalidated) into the scheduler and gives it `observations` as its history. */
  load(graph: Graph, observations: readonly Observation[]): void;
}

/**
 * Registers the file's beforeAll hook; the fields are ready inside tests. The release module by
 * default; `testBuild` loads the test build instead, for tests that force paths with its hooks.
 */
export function wasmOracle(options: { testBuild?: boolean } = {}): WasmOracle {
  let wasm: EnvschedWasm | undefined;
  let hooks: TestHooks | undefined;
  let scheduler: WasmScheduler | undefined;
  let math: ScalarMath | undefined;
  beforeAll(async () => {
    if (options.testBuild) {
      const test = await loadTestWasm();
      wasm = test;
      hooks = test.hooks;
    } else {
      wasm = await loadEnvschedWasmNode();
    }
    scheduler = new WasmScheduler(wasm);
    math = nativeMathOf(wasm);
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('wasmOracle() is used before its beforeAll hook ran');
    return value;
  };
  return {
    get wasm() {
      return ready(wasm);
    },
    get scheduler() {
      return ready(scheduler);
    },
    get math() {
      return ready(math);
    },
    get hooks() {
      if (!options.testBuild) throw new Error('hooks need wasmOracle({ testBuild: true })');
      return ready(hooks);
    },
    referenceScore(graph, observations, config, step) {
      return referenceScore(graph, observations, config, step, ready(math));
    },
    load(graph, observations) {
      const s = ready(scheduler);
      s.loadGraph(
        packGraph(graph),
        graph.tasks.map((t) => t.id),
      );
      s.setHistory(observations);
    },
  };
}
