#!/usr/bin/env node
// Builds what `npm start`, `npm run bench` and `npm test` need and is missing or older than its
// sources: the WASM modules (release and test build), the compiled engine/CLI in dist/, and the
// bundled datasets. Cheap when everything is current.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd) => execSync(cmd, { cwd: root, stdio: 'inherit' });

function newestMtime(path, skip = []) {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return statSync(full).mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(full, { withFileTypes: true, recursive: true })) {
    const file = join(entry.parentPath ?? entry.path, entry.name);
    if (entry.isFile() && !skip.some((dir) => file.startsWith(join(root, dir)))) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

const stale = (outputs, sources, skip = []) => {
  const newest = Math.max(...sources.map((s) => newestMtime(s, skip)));
  return outputs.some((o) => !existsSync(join(root, o)) || statSync(join(root, o)).mtimeMs < newest);
};

/** Rebuilds the stale parts; `datasets` lists the bundled datasets to make sure of. */
export async function ensureBuilt({ datasets = ['tiny', 'classroom', 'envscaler-rl'] } = {}) {
  if (stale(['build/envsched.wasm', 'build/envsched.test.wasm'], ['assembly', 'src/engine/wasm/layout.ts', 'asconfig.json']))
    run('npm run build:wasm');
  // dist/ holds what tsconfig.node.json compiles: everything in src but the browser-only folders.
  if (stale(['dist/cli/main.js'], ['src'], ['src/ui', 'src/worker'])) run('npm run build:node');
  const { ensureDatasets } = await import(new URL('./build-datasets.mjs', import.meta.url).href);
  await ensureDatasets(datasets);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await ensureBuilt();
