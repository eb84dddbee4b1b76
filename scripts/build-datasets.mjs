#!/usr/bin/env node
// Builds the datasets listed in datasets/index.json into datasets/<name>/ (gitignored):
//   pool/            the generated EnvScaler-format release files (+ topology, categories, sim)
//   <name>.graph.json, <name>.graph.bin   the graph (SPEC 12) and the binary the app loads
//   stamp.json       generator/builder versions and the dataset's parameters
// A dataset is rebuilt only when its stamp differs (stale or missing), so `npm start` is fast
// after the first time. Usage: node scripts/build-datasets.mjs [names...] (default: tiny envscaler-rl).
// Needs the compiled sources in dist/ (`npm run build:node`, run by `npm install`).
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Bump when the builder's output changes for the same input. */
export const BUILDER_VERSION = 1;
export const DEFAULT_DATASETS = ['tiny', 'envscaler-rl'];

async function load(rel) {
  const path = join(root, 'dist', rel);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build:node\` first`);
  return import(pathToFileURL(path).href);
}

export async function readIndex() {
  return JSON.parse(await readFile(join(root, 'datasets', 'index.json'), 'utf8'));
}

/** The paths of a dataset's files. */
export function datasetPaths(name) {
  const dir = join(root, 'datasets', name);
  return { dir, pool: join(dir, 'pool'), json: join(dir, `${name}.graph.json`), bin: join(dir, `${name}.graph.bin`), stamp: join(dir, 'stamp.json') };
}

async function readStamp(path) {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Ensures each named dataset is built and current. Returns one row per dataset:
 * { name, built: boolean, seconds, tasks }. `opts.log(line)` receives progress lines;
 * `opts.force` rebuilds even when current.
 */
export async function ensureDatasets(names = DEFAULT_DATASETS, opts = {}) {
  const log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
  const index = await readIndex();
  const { generatePool, poolFiles, GENERATOR_VERSION } = await load('pool/generate.js');
  const { buildGraph } = await load('graph/build.js');
  const { writeGraphFiles } = await load('graph/write-node.js');
  const rows = [];
  for (const name of names) {
    const spec = index.find((d) => d.name === name);
    if (!spec) throw new Error(`unknown dataset ${JSON.stringify(name)} (datasets/index.json lists ${index.map((d) => d.name).join(', ')})`);
    const paths = datasetPaths(name);
    const stamp = JSON.stringify({ generator: GENERATOR_VERSION, builder: BUILDER_VERSION, envs: spec.envs, tasksPerEnv: spec.tasksPerEnv, totalTasks: spec.totalTasks ?? null, seed: spec.seed }, null, 1) + '\n';
    if (!opts.force && (await readStamp(paths.stamp)) === stamp && existsSync(paths.bin) && existsSync(paths.json)) {
      rows.push({ name, built: false, seconds: 0, tasks: spec.tasks });
      continue;
    }
    const started = Date.now();
    log(`datasets: building ${name} (${spec.tasks} tasks)...`);
    await rm(paths.dir, { recursive: true, force: true });
    await mkdir(paths.pool, { recursive: true });
    const pool = generatePool({ envs: spec.envs, tasksPerEnv: spec.tasksPerEnv, seed: spec.seed, totalTasks: spec.totalTasks });
    const files = poolFiles(pool);
    for (const [file, text] of Object.entries(files)) await writeFile(join(paths.pool, file), text);
    const text = (file) => ({ text: files[file], source: join('datasets', name, 'pool', file) });
    let lastPhase = '';
    const result = buildGraph({
      envMetadata: text('env_metadata.json'),
      scenarios: text('rl_scenario_metadata.json'),
      topology: text('topology.json'),
      categories: text('categories.json'),
      sim: text('sim.json'),
      name,
      onProgress: (phase) => {
        if (phase !== lastPhase && opts.verbose) log(`datasets: ${name}: ${phase}`);
        lastPhase = phase;
      },
    });
    await writeGraphFiles(result.graph, paths.json);
    await writeFile(paths.stamp, stamp);
    const seconds = (Date.now() - started) / 1000;
    log(`datasets: ${name} built in ${seconds.toFixed(1)} s`);
    rows.push({ name, built: true, seconds, tasks: spec.tasks });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const names = args.filter((a) => !a.startsWith('--'));
  ensureDatasets(names.length ? names : DEFAULT_DATASETS, { force, verbose: true }).catch((error) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
