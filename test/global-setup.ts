// Runs once before the suite. First the browsers the end-to-end and cross-engine tests drive
// (installed with apt-get when missing and possible, else one line saying what to run: see
// test/browsers.ts), then the bundled datasets the tests use (tiny, envscaler-rl), built if they
// are missing or stale. On a fresh clone the datasets take about 20 s; afterwards this is a no-op.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
  const script = fileURLToPath(new URL('../scripts/build-datasets.mjs', import.meta.url));
  if (!existsSync(fileURLToPath(new URL('../dist/pool/generate.js', import.meta.url)))) {
    throw new Error('dist/ is missing: run `npm install` (or `npm run prepare`) before `npm test`');
  }
  const { ensureDatasets } = (await import(pathToFileURL(script).href)) as {
    ensureDatasets(names: string[], opts?: { log?: (line: string) => void }): Promise<unknown>;
  };
  await ensureDatasets(['tiny', 'envscaler-rl'], { log: () => {} });
}
