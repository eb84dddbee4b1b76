// One source for the WASM interface: the slot numbers and codes live in src/engine/wasm/layout.ts;
// the AssemblyScript constants are generated from it, the docs list the same slots, SPEC 11's
// defaults exist once (src/engine/config.ts), and the test hooks stay out of the release module.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../src/engine/config.ts';
import { packGraph } from '../src/engine/pack.ts';
import type { Config } from '../src/engine/types.ts';
import { CFG, CFG_SLOTS, CONFIG_NAMES, PRIOR, PTR } from '../src/engine/wasm/layout.ts';
import { ENVSCHED_WASM_URL, loadEnvschedWasmNode } from '../src/engine/wasm/loader-node.ts';
import { WasmScheduler } from '../src/engine/wasm/scheduler.ts';
import { configWith, tinyGraph } from './helpers/reference-graphs.ts';
import { TEST_HOOK_NAMES, TEST_WASM_URL } from './helpers/test-wasm.ts';

const root = new URL('../', import.meta.url);

interface Generator {
  TARGET: string;
  loadLayout(): Promise<unknown>;
  renderLayout(layout: unknown): string;
}

async function exportNames(url: URL): Promise<string[]> {
  return WebAssembly.Module.exports(await WebAssembly.compile(await readFile(url)))
    .map((e) => e.name)
    .sort();
}

describe('one source for the slot numbers', () => {
  it('the AssemblyScript constants are what the generator writes from src/engine/wasm/layout.ts', async () => {
    const generator = (await import(new URL('../scripts/gen-wasm-layout.mjs', import.meta.url).href)) as Generator;
    const committed = await readFile(new URL(generator.TARGET, root), 'utf8');
    expect(committed, 'stale: run node scripts/gen-wasm-layout.mjs').toBe(generator.renderLayout(await generator.loadLayout()));
    expect(committed).toContain(`export const CFG_LAMBDA_SIM = ${CFG.lambda_sim};`);
    expect(committed).toContain(`export const PTR_OBS_REMOVES = ${PTR.obsRemoves};`);
  });

  it('docs/wasm-layout.md lists the configuration slots in slot order', async () => {
    const doc = await readFile(new URL('docs/wasm-layout.md', root), 'utf8');
    const section = doc.slice(doc.indexOf('## Configuration slots'));
    const rows = [...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/^\| (\d+) \| `([^`]+)` \|/gm)];
    expect(rows.map((r) => [Number(r[1]), r[2]])).toEqual(CONFIG_NAMES.map((name, slot) => [slot, name]));
  });

  it('every slot but prior is a SPEC 11 key, whose default is kept in src/engine/config.ts alone', () => {
    expect(CONFIG_NAMES.length).toBeLessThanOrEqual(CFG_SLOTS);
    for (const name of CONFIG_NAMES) if (name !== 'prior') expect(typeof DEFAULT_CONFIG[name], name).toBe('number');
  });
});

describe('the configuration block', () => {
  const graph = tinyGraph({ envOf: [0, 0, 1, 1] });

  it('configure writes each key into its own slot (rho effective, prior as its code)', async () => {
    const scheduler = new WasmScheduler(await loadEnvschedWasmNode());
    scheduler.loadGraph(
      packGraph(graph),
      graph.tasks.map((t) => t.id),
    );
    // A distinct value per key, so a slot that received another key's value shows.
    const distinct = Object.fromEntries(CONFIG_NAMES.filter((n) => n !== 'prior').map((n, k) => [n, 101 + k])) as Partial<Config>;
    for (const [scheduler_, rho, prior] of [
      ['envsched', 0.25, PRIOR.fused],
      ['coverage-only', 1, PRIOR.fused],
      ['cross-only', 0.25, PRIOR.crossOnly],
    ] as const) {
      scheduler.configure({ ...configWith({ ...distinct, rho: 0.25 }), scheduler: scheduler_ });
      const block = new Float64Array(scheduler.wasm.memory.buffer, scheduler.wasm.exports.sched_ptr(PTR.config), CFG_SLOTS);
      for (const name of CONFIG_NAMES) {
        const expected = name === 'rho' ? rho : name === 'prior' ? prior : distinct[name];
        expect(block[CFG[name]], `${scheduler_}: ${name}`).toBe(expected);
      }
    }
  });

  it('a score before any configuration aborts with a clear message (the module has no defaults of its own)', async () => {
    const scheduler = new WasmScheduler(await loadEnvschedWasmNode());
    scheduler.loadGraph(
      packGraph(graph),
      graph.tasks.map((t) => t.id),
    );
    expect(() => scheduler.scoreStep(0)).toThrow(/configuration slot was not written/);
    scheduler.configure(DEFAULT_CONFIG);
    expect(scheduler.scoreStep(0).batchLength).toBe(4); // N < B: the whole pool
  });
});

describe('test hooks', () => {
  it('are exported by the test build only; both builds export everything else alike', async () => {
    const release = await exportNames(ENVSCHED_WASM_URL);
    const test = await exportNames(TEST_WASM_URL);
    for (const hook of TEST_HOOK_NAMES) {
      expect(release).not.toContain(hook);
      expect(test).toContain(hook);
    }
    expect(test.filter((name) => !(TEST_HOOK_NAMES as readonly string[]).includes(name))).toEqual(release);
  });
});
