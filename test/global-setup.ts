// Runs once before the suite: builds the bundled datasets the tests use (tiny, envscaler-rl) if
// they are missing or stale. On a fresh clone this takes about 20 s; afterwards it is a no-op.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureDistFresh } from './helpers/dist.ts';

export default async function setup(): Promise<void> {
  const script = fileURLToPath(new URL('../scripts/build-datasets.mjs', import.meta.url));
  if (!existsSync(fileURLToPath(new URL('../dist/pool/generate.js', import.meta.url)))) {
    throw new Error('dist/ is missing: run `npm install` (or `npm run prepare`) before `npm test`');
  }
  const { ensureDatasets } = (await import(pathToFileURL(script).href)) as {
    ensureDatasets(names: string[], opts?: { log?: (line: string) => void }): Promise<unknown>;
  };
  // Tests that spawn the CLI as a process (serve, the packed package) run the compiled dist/.
  ensureDistFresh();
  await ensureDatasets(['tiny', 'envscaler-rl'], { log: () => {} });
}
