#!/usr/bin/env node
// Builds the bundled datasets (datasets/index.json) into datasets/<name>/: the work is done by
// src/sim/dataset-build-node.ts (compiled to dist/ by `npm install`), which the CLI also uses to
// build a dataset on first use. Usage: node scripts/build-datasets.mjs [names...] [--force]
// (default: tiny envscaler-rl). Exports ensureDatasets for scripts/ensure-built.mjs and the tests.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const builder = new URL('../dist/sim/dataset-build-node.js', import.meta.url);
if (!existsSync(fileURLToPath(builder))) throw new Error(`${fileURLToPath(builder)} is missing: run \`npm run build:node\` first`);
const mod = await import(builder.href);

export const { BUILDER_VERSION, DEFAULT_DATASETS, datasetPaths, ensureDatasets } = mod;
export const readIndex = mod.readDatasetIndex;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const names = args.filter((a) => !a.startsWith('--'));
  ensureDatasets(names.length ? names : DEFAULT_DATASETS, { force, verbose: true }).catch((error) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
