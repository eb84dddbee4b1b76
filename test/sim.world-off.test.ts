// With every world mechanism off, the simulator is the one this project shipped before the
// mechanisms existed: the fingerprints below were recorded from that version (same pools, same
// configurations) before any mechanism was added, and the runs must reproduce them bit for bit.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import { loadGraph } from '../src/engine/graph-json.ts';
import type { Config, LoadedGraph, SchedulerName } from '../src/engine/types.ts';
import { buildGraph } from '../src/graph/build.ts';
import { generatePool, poolFiles } from '../src/pool/generate.ts';
import { PREVIOUS_SIM_MODEL } from '../src/sim/model-params.ts';
import { runSimulation, type RunOptions } from '../src/sim/run.ts';
import { syntheticPool } from '../src/sim/synthetic-pool.ts';
import { loadRunWasmNode } from '../src/sim/wasm-node.ts';

/** Recorded before the world mechanisms (pool generator seed 1, 6 x 8 tasks, no inspection calls; synthetic pool). */
const RECORDED: Record<string, string> = {
  'gen6x8s1/random/B16/T60/seed0': '0032d98c33408b61',
  'gen6x8s1/random/B16/T60/seed1': 'a905c84a02f2154e',
  'gen6x8s1/dapo/B16/T60/seed0': 'a388f5047045a8c2',
  'gen6x8s1/dapo/B16/T60/seed1': '310b476c33696f1f',
  'gen6x8s1/mopps/B16/T60/seed0': 'd486f2a57019a5e1',
  'gen6x8s1/mopps/B16/T60/seed1': '885dd2a434a1b58b',
  'gen6x8s1/dps/B16/T60/seed0': 'c1f8ab574fdf7491',
  'gen6x8s1/dps/B16/T60/seed1': '05783295af8dfb42',
  'gen6x8s1/envsched/B16/T60/seed0': 'e441c4d296464df4',
  'gen6x8s1/envsched/B16/T60/seed1': '4eb60805e3618df5',
  'gen6x8s1/within-only/B16/T60/seed0': 'e4338d7957dfe709',
  'gen6x8s1/within-only/B16/T60/seed1': 'e7adb233a2c8ae10',
  'gen6x8s1/cross-only/B16/T60/seed0': '6b669f7fa45ec4a9',
  'gen6x8s1/cross-only/B16/T60/seed1': '09525a5ef1269cb4',
  'gen6x8s1/coverage-only/B16/T60/seed0': 'dfde5c8e5b530cda',
  'gen6x8s1/coverage-only/B16/T60/seed1': 'adef5b74541a3dba',
  'gen6x8s1/exploitation-only/B16/T60/seed0': '05b739fdfbe821fb',
  'gen6x8s1/exploitation-only/B16/T60/seed1': '8e5202efedb24599',
  'gen6x8s1/envsched/B16/T7/seed5/coldstart': 'edd479e50529efb4',
  'synthetic16x8/random/T10/seed3': 'd2d85e4fe0740cb6',
  'synthetic16x8/dapo/T10/seed3': '4a410e927225a5d9',
  'synthetic16x8/envsched/T10/seed3': 'bf6f4dd1fb4a2e54',
};

const config = (overrides: Partial<Config>): Config => ({
  ...DEFAULT_CONFIG,
  alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'],
  ...overrides,
});

function generated(envs: number, tasksPerEnv: number, seed: number): LoadedGraph {
  const files = poolFiles(generatePool({ envs, tasksPerEnv, seed, inspectionCalls: false }));
  const file = (name: string) => ({ text: files[name], source: name });
  const { graph } = buildGraph({
    envMetadata: file('env_metadata.json'),
    scenarios: file('rl_scenario_metadata.json'),
    topology: file('topology.json'),
    categories: file('categories.json'),
    sim: file('sim.json'),
    name: 'gen',
  });
  return loadGraph(graph);
}

async function fingerprint(loaded: LoadedGraph, overrides: Partial<Config>, options: RunOptions = {}): Promise<string> {
  return runSimulation(await loadRunWasmNode(), loaded, config(overrides), 'test pool', { model: PREVIOUS_SIM_MODEL, ...options })
    .fingerprint;
}

describe('every world mechanism off = the simulator as it was', () => {
  const schedulers: SchedulerName[] = [
    'random',
    'dapo',
    'mopps',
    'dps',
    'envsched',
    'within-only',
    'cross-only',
    'coverage-only',
    'exploitation-only',
  ];

  it('reproduces the recorded fingerprints on a generated 6 x 8 pool, every scheduler, two seeds', async () => {
    const pool = generated(6, 8, 1);
    for (const scheduler of schedulers) {
      for (const seed of [0, 1]) {
        const key = `gen6x8s1/${scheduler}/B16/T60/seed${seed}`;
        expect(await fingerprint(pool, { scheduler, seed, B: 16, T: 60 }), key).toBe(RECORDED[key]);
      }
    }
    expect(await fingerprint(pool, { scheduler: 'envsched', seed: 5, B: 16, T: 7 }, { randomColdStart: true })).toBe(
      RECORDED['gen6x8s1/envsched/B16/T7/seed5/coldstart'],
    );
  });

  it('reproduces the recorded fingerprints on the synthetic 51 x 50 pool', async () => {
    const pool = loadGraph(syntheticPool({ mCross: 16, pCross: 8 }));
    for (const scheduler of ['random', 'dapo', 'envsched'] as const) {
      const key = `synthetic16x8/${scheduler}/T10/seed3`;
      expect(await fingerprint(pool, { scheduler, seed: 3, T: 10 }), key).toBe(RECORDED[key]);
    }
  });
});
