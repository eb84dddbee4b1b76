// The world of the third calibration fit (docs/calibration.md) is still there, bit for bit: with
// its constants and the mechanism added after it (normalised drift) off, runs on the bundled pools
// give the fingerprints recorded from that world before the mechanism existed.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import type { Config, SchedulerName } from '../src/engine/types.ts';
import { loadDataset } from '../src/sim/dataset-node.ts';
import { PREVIOUS_SIM_MODEL, type SimModelParams } from '../src/sim/model-params.ts';
import { runSimulation } from '../src/sim/run.ts';
import { loadRunWasmNode } from '../src/sim/wasm-node.ts';

/** The third fit's defaults (its src/sim/calibrated.ts), normalised drift off. */
const THIRD_FIT: SimModelParams = {
  ...PREVIOUS_SIM_MODEL,
  signalExponent: 0.5,
  competence0: 0.671,
  logitScale: 4.5645,
  partialCredit: 0.84257,
  etaCompetence: 0.00050456,
  forgetting: 0.03826,
  breadth: 0.50739,
  hiddenNoise: 0.524,
  repeatDiscount: 0.12711,
  etaFamiliarity: 0.012212,
  normalisedDrift: 0,
};

/** Recorded from the third fit's world (30 steps, B = 64 on envscaler-rl, B = 8 on tiny). */
const RECORDED: Record<string, string> = {
  'envscaler-rl/random/T30/seed0': 'ec728f1f6273a02b',
  'envscaler-rl/dapo/T30/seed1': '6e3d6ef82476a471',
  'envscaler-rl/dps/T30/seed0': '44b4725a10a036ec',
  'envscaler-rl/envsched/T30/seed0': '634dc48065af2c0e',
  'envscaler-rl/envsched/T30/seed1': '1eb3d9ebe029fa19',
  'envscaler-rl/coverage-only/T30/seed0': 'df5de0adfbbe3938',
  'tiny/random/T30/seed0': 'b87f31d2eb67d99b',
  'tiny/mopps/T30/seed1': '08eb2a9f15b21fbd',
  'tiny/envsched/T30/seed0': '950f5a319ab6160b',
  'tiny/exploitation-only/T30/seed1': '87609a8da46c7a1a',
};

const datasets: Record<string, Awaited<ReturnType<typeof loadDataset>>> = {};
beforeAll(async () => {
  for (const name of ['envscaler-rl', 'tiny']) datasets[name] = await loadDataset(name);
});

describe("the third fit's world with normalised drift off", () => {
  it('reproduces the fingerprints recorded before the mechanism existed', async () => {
    for (const [key, expected] of Object.entries(RECORDED)) {
      const [name, scheduler, , seedText] = key.split('/');
      const { loaded, source } = datasets[name];
      const config: Config = {
        ...DEFAULT_CONFIG,
        alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'],
        scheduler: scheduler as SchedulerName,
        seed: Number(seedText.slice(4)),
        B: name === 'tiny' ? 8 : 64,
      };
      const run = runSimulation(await loadRunWasmNode(), loaded, config, source, { model: THIRD_FIT, steps: 30 });
      expect(run.fingerprint, key).toBe(expected);
    }
  });
});
