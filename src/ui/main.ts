// Entry point of the web app. Until the full app lands (issue 5) it mounts a placeholder.
import { mount } from 'svelte';
import App from './App.svelte';

mount(App, { target: document.getElementById('app') as HTMLElement });
