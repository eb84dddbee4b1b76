// Entry point of the web app: one engine worker client, one store, one App.
import { mount } from 'svelte';
import wasmUrl from '../../build/envsched.wasm?url';
import App from './App.svelte';
import { EngineClient } from './engine/client.ts';
import { Lab } from './state/lab.svelte.ts';
import './styles.css';

const base = new URL('./', window.location.href).href;
const client = new EngineClient(new URL(wasmUrl, window.location.href).href, base, () => new Worker(new URL('../worker/engine.worker.ts', import.meta.url), { type: 'module' }));
const lab = new Lab(client, window.location.search);

mount(App, { target: document.getElementById('app') as HTMLElement, props: { lab } });
