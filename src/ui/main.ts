// Entry point of the web app: one engine worker client, one store, one App.
import { mount } from 'svelte';
import wasmUrl from '../../build/envsched.wasm?url';
import App from './App.svelte';
import { EngineClient } from './engine/client.ts';
import { Lab } from './state/lab.svelte.ts';
import { parseSweepUrl, splitSweepParams } from '../sweep/url.ts';
import type { SweepStore } from './sweep/sweep-store.svelte.ts';
import { ExplainStore } from './explain/explain-store.svelte.ts';
import { splitExplainParams } from './explain/explain-url.ts';
import './styles.css';

const base = new URL('./', window.location.href).href;
const client = new EngineClient(
  new URL(wasmUrl, window.location.href).href,
  base,
  () => new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module' }),
);
// The Sweep tab (src/ui/sweep/README.md): `sweep.*` keys are its own; the app reads the rest.
const { app, sweep } = splitSweepParams(window.location.search);
// Explain mode's lecture link (`explain=<scene>`) is its own key too (src/ui/explain/explain-url.ts).
const explainLink = splitExplainParams(app);
// The result card's seeds run in the sweep's background worker pool (its own chunk, made on first use).
const cardExecutor = () =>
  import('./sweep/browser-pool.ts').then(({ createBrowserSweepPool }) =>
    createBrowserSweepPool(new URL(wasmUrl, window.location.href).href, base),
  );
const lab = new Lab(client, explainLink.app, cardExecutor);
for (const text of explainLink.notices) lab.notify('error', text);
const explain = new ExplainStore(client, explainLink.link);
const read = parseSweepUrl(sweep, lab.state.a);
for (const text of read.notices) lab.notify('error', text);
// The sweep's store and worker pool load with the Sweep tab (a chunk of their own: a shorter first
// task at page load); made once and kept, so a closed and reopened tab keeps its results.
let sweepStore: Promise<SweepStore> | null = null;
const loadSweepStore = (): Promise<SweepStore> =>
  (sweepStore ??= Promise.all([import('./sweep/sweep-store.svelte.ts'), import('./sweep/browser-pool.ts')]).then(
    ([{ SweepStore }, { createBrowserSweepPool }]) =>
      new SweepStore(() => createBrowserSweepPool(new URL(wasmUrl, window.location.href).href, base)),
  ));

mount(App, {
  target: document.getElementById('app') as HTMLElement,
  props: { lab, sweep: { load: loadSweepStore, initial: read.sweep }, explain },
});
