// Node-only: builds the bundled datasets listed in datasets/index.json into datasets/<name>/
// (gitignored): pool/ (the generated EnvScaler-format release files, topology, categories, sim),
// <name>.graph.json and <name>.graph.bin, and stamp.json (generator and builder versions and the
// dataset's parameters). A dataset is rebuilt only when its stamp differs or a file is missing.
// Used by scripts/build-datasets.mjs (npm start, npm test) and by the CLI on first use.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGraph } from '../graph/build.ts';
import { writeGraphFiles } from '../graph/write-node.ts';
import { GENERATOR_VERSION, generatePool, poolFiles } from '../pool/generate.ts';

/** Bump when the builder's output changes for the same input. */
export const BUILDER_VERSION = 1;
export const DEFAULT_DATASETS: readonly string[] = ['tiny', 'classroom', 'envscaler-rl'];

const PACKAGE_DATASETS = fileURLToPath(new URL('../../datasets/', import.meta.url));

/**
 * Where bundled datasets are built and read: the package's datasets/ folder, or the folder in
 * ENVSCHED_DATASETS_DIR (e.g. when the package folder is read-only). The index is always the package's.
 */
export function datasetsDir(): string {
  return process.env.ENVSCHED_DATASETS_DIR || PACKAGE_DATASETS;
}

/** One entry of datasets/index.json. */
export interface DatasetSpec {
  name: string;
  description: string;
  envs: number;
  tasksPerEnv: number;
  totalTasks?: number;
  tasks: number;
  seed: number;
}

export interface BuiltDataset {
  name: string;
  built: boolean;
  seconds: number;
  tasks: number;
}

export interface EnsureOptions {
  /** Rebuild even when current. */
  force?: boolean;
  /** Log every build phase, not only start and end. */
  verbose?: boolean;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
  /** Phase and fraction done (0..1) of the dataset being built, for a progress bar. */
  onProgress?: (name: string, phase: string, fraction: number) => void;
}

export async function readDatasetIndex(): Promise<DatasetSpec[]> {
  return JSON.parse(await readFile(join(PACKAGE_DATASETS, 'index.json'), 'utf8')) as DatasetSpec[];
}

/** The paths of a dataset's files. */
export function datasetPaths(name: string): { dir: string; pool: string; json: string; bin: string; stamp: string } {
  const dir = join(datasetsDir(), name);
  return {
    dir,
    pool: join(dir, 'pool'),
    json: join(dir, `${name}.graph.json`),
    bin: join(dir, `${name}.graph.bin`),
    stamp: join(dir, 'stamp.json'),
  };
}

async function readStamp(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

function stampOf(spec: DatasetSpec): string {
  const fields = {
    generator: GENERATOR_VERSION,
    builder: BUILDER_VERSION,
    envs: spec.envs,
    tasksPerEnv: spec.tasksPerEnv,
    totalTasks: spec.totalTasks ?? null,
    seed: spec.seed,
  };
  return `${JSON.stringify(fields, null, 1)}\n`;
}

/** True when the dataset is built and current (its stamp matches and its graph files exist). */
export async function isDatasetCurrent(spec: DatasetSpec): Promise<boolean> {
  const paths = datasetPaths(spec.name);
  return (await readStamp(paths.stamp)) === stampOf(spec) && existsSync(paths.bin) && existsSync(paths.json);
}

/** Ensures each named dataset is built and current; one row per dataset. */
export async function ensureDatasets(names: readonly string[] = DEFAULT_DATASETS, opts: EnsureOptions = {}): Promise<BuiltDataset[]> {
  const log = opts.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const index = await readDatasetIndex();
  const rows: BuiltDataset[] = [];
  for (const name of names) {
    const spec = index.find((d) => d.name === name);
    if (!spec)
      throw new Error(`unknown dataset ${JSON.stringify(name)} (datasets/index.json lists ${index.map((d) => d.name).join(', ')})`);
    if (!opts.force && (await isDatasetCurrent(spec))) {
      rows.push({ name, built: false, seconds: 0, tasks: spec.tasks });
      continue;
    }
    const started = Date.now();
    log(`datasets: building ${name} (${spec.tasks} tasks)...`);
    const progress = (phase: string, fraction: number) => opts.onProgress?.(name, phase, fraction);
    const paths = datasetPaths(name);
    await rm(paths.dir, { recursive: true, force: true });
    await mkdir(paths.pool, { recursive: true });
    progress('generating the pool', 0);
    const pool = generatePool({ envs: spec.envs, tasksPerEnv: spec.tasksPerEnv, seed: spec.seed, totalTasks: spec.totalTasks });
    const files = poolFiles(pool);
    for (const [file, text] of Object.entries(files)) await writeFile(join(paths.pool, file), text);
    const text = (file: string) => ({ text: files[file], source: join('datasets', name, 'pool', file) });
    let lastPhase = '';
    const result = buildGraph({
      envMetadata: text('env_metadata.json'),
      scenarios: text('rl_scenario_metadata.json'),
      topology: text('topology.json'),
      categories: text('categories.json'),
      sim: text('sim.json'),
      name,
      onProgress: (phase, fraction) => {
        if (phase !== lastPhase && opts.verbose) log(`datasets: ${name}: ${phase}`);
        lastPhase = phase;
        progress(phase, 0.1 + 0.8 * fraction);
      },
    });
    progress('writing the graph', 0.9);
    await writeGraphFiles(result.graph, paths.json);
    await writeFile(paths.stamp, stampOf(spec));
    progress('done', 1);
    const seconds = (Date.now() - started) / 1000;
    log(`datasets: ${name} built in ${seconds.toFixed(1)} s`);
    rows.push({ name, built: true, seconds, tasks: spec.tasks });
  }
  return rows;
}
