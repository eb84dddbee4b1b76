#!/usr/bin/env node
// Builds what `npm start` / `npm run bench` need and is missing: the WASM module, the compiled
// engine/CLI, and the bundled datasets. Cheap when everything is already there.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd) => execSync(cmd, { cwd: root, stdio: 'inherit' });

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

const stale = (output, sourceDir) => !existsSync(join(root, output)) || statSync(join(root, output)).mtimeMs < newestMtime(sourceDir);

if (stale('build/envsched.wasm', 'assembly')) run('npm run build:wasm');
if (stale('dist/cli/main.js', 'src')) run('npm run build:node');

const datasetsScript = join(root, 'scripts/build-datasets.mjs');
if (existsSync(datasetsScript)) {
  const { ensureDatasets } = await import(datasetsScript);
  await ensureDatasets(['tiny', 'envscaler-rl']);
}
