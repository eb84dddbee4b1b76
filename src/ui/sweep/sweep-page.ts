// The standalone sweep page (sweep.html): the sweep view over the app's URL state, with the pool
// of Web Workers. Also exposes `window.envschedSweep` for the browser benchmark and test.
import { mount } from 'svelte';
import wasmUrl from '../../../build/envsched.wasm?url';
import { DEFAULT_CONFIG } from '../../engine/config.ts';
import type { SimModelParams } from '../../sim/model-params.ts';
import { worldChangesOf, worldSettingsOf } from '../state/world-url.ts';
import type { Config } from '../../engine/types.ts';
import { expandPoints, SWEEP_METRICS, type SweepDefinition, type SweepMetric } from '../../sweep/definition.ts';
import { findPreset, presetKnobs } from '../../sweep/presets.ts';
import { runSweep } from '../../sweep/runner.ts';
import { parseSweepUrl, splitSweepParams, withSweepParams } from '../../sweep/url.ts';
import { defaultState, parseUrlState, serializeUrlState } from '../state/url-state.ts';
import { createBrowserSweepPool, defaultBrowserWorkers } from './browser-pool.ts';
import { SweepStore } from './sweep-store.svelte.ts';
import SweepPanel from './SweepPanel.svelte';

/** The site's root (this page lives at src/ui/sweep/ of it): datasets/ and the app are there. */
const siteRoot = new URL('../../../', window.location.href).href;
const wasm = new URL(wasmUrl, window.location.href).href;

const { app, sweep } = splitSweepParams(window.location.search);
const appState = parseUrlState(app);
const read = parseSweepUrl(sweep, appState.state.a);
const notices = [...appState.info, ...appState.notices, ...read.notices];
const store = new SweepStore(() => createBrowserSweepPool(wasm, siteRoot));

// The link's simulated world (w.<knob> keys) is the world of every run, and stays in the links.
const world = appState.state.world;

function writeUrl(def: SweepDefinition): void {
  const query = withSweepParams(serializeUrlState({ ...defaultState(), a: def.base, world }), def);
  history.replaceState(null, '', `?${query}`);
}

function openRun(config: Config, pointWorld: Partial<SimModelParams>): void {
  window.location.href = `${siteRoot}?${serializeUrlState({ ...defaultState(), a: config, world: worldSettingsOf(pointWorld) })}`;
}

const target = document.getElementById('sweep') as HTMLElement;
if (notices.length > 0) {
  const list = document.createElement('ul');
  list.className = 'notices';
  for (const n of notices) list.append(Object.assign(document.createElement('li'), { textContent: n }));
  target.before(list);
}
mount(SweepPanel, {
  target,
  props: {
    store,
    base: appState.state.a,
    world: worldChangesOf(world),
    initial: read.sweep,
    autorun: read.sweep !== null,
    onopen: openRun,
    onchange: writeUrl,
  },
});

interface BenchRun {
  seconds: number;
  runs: number;
  fingerprints: string[][];
}

/** Runs a preset on a fresh pool of `workers` Web Workers (no cache): the browser benchmark. */
async function bench(
  preset: string,
  workers: number,
  options: { dataset: string; steps: number; seeds: number; metrics?: SweepMetric[] },
): Promise<BenchRun> {
  const base: Config = {
    ...DEFAULT_CONFIG,
    alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'],
    dataset: options.dataset,
    T: options.steps,
  };
  const definition: SweepDefinition = {
    knobs: presetKnobs(findPreset(preset)!),
    seeds: options.seeds,
    base,
    metrics: options.metrics ?? [...SWEEP_METRICS],
    preset,
  };
  const pool = createBrowserSweepPool(wasm, siteRoot, { workers });
  const t0 = performance.now();
  const result = await runSweep(definition, pool);
  const seconds = (performance.now() - t0) / 1000;
  pool.terminate();
  return { seconds, runs: result.runs, fingerprints: result.points.map((p) => p.fingerprints) };
}

(window as unknown as { envschedSweep: unknown }).envschedSweep = { store, bench, defaultWorkers: defaultBrowserWorkers(), expandPoints };
