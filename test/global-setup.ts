// Runs once before the suite. First the browsers the end-to-end and cross-engine tests drive
// (installed with apt-get when missing and possible, else one line saying what to run: see
// test/browsers.ts); then whatever is missing or older than its sources (the WASM modules, the
// compiled CLI in dist/, the bundled datasets tiny and envscaler-rl: scripts/ensure-built.mjs).
// On a fresh clone the datasets take about 20 s; afterwards this is a no-op.
import { pathToFileURL } from 'node:url';
import { BrowsersMissing, ensureBrowsers } from './browsers.ts';

export default async function setup(): Promise<void> {
  try {
    ensureBrowsers();
  } catch (error) {
    if (!(error instanceof BrowsersMissing)) throw error;
    // Stop before any test starts, with the one line that says what to run (no stack, no noise).
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  }
  const script = new URL('../scripts/ensure-built.mjs', import.meta.url);
  const { ensureBuilt } = (await import(pathToFileURL(script.pathname).href)) as {
    ensureBuilt(opts?: { datasets?: string[] }): Promise<void>;
  };
  await ensureBuilt({ datasets: ['tiny', 'classroom', 'envscaler-rl'] });
}
