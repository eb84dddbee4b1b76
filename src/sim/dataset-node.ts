// Node-only: `--dataset D` -> a loaded graph. D is a graph file path, a bundled dataset name
// (datasets/index.json; built into datasets/D/ by src/sim/dataset-build-node.ts), or
// `synthetic-51x50` (src/sim/synthetic-pool.ts). prepareDataset builds a bundled dataset that is
// missing or stale, so the CLI works before `npm start` has built anything; loadDataset only reads.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../engine/errors.ts';
import { loadGraph } from '../engine/graph-json.ts';
import type { LoadedGraph } from '../engine/types.ts';
import { readGraphFile } from '../engine/files-node.ts';
import { syntheticPool } from './synthetic-pool.ts';

export const SYNTHETIC_DATASET = 'synthetic-51x50';

const PACKAGE_DATASETS = new URL('../../datasets/', import.meta.url);

/** Where built datasets live (see datasetsDir in dataset-build-node.ts; kept here without its imports). */
function datasetsDir(): string {
  return process.env.ENVSCHED_DATASETS_DIR || fileURLToPath(PACKAGE_DATASETS);
}

export function datasetCandidates(name: string): string[] {
  return [`${name}/${name}.graph.bin`, `${name}/${name}.graph.json`].map((file) => join(datasetsDir(), file));
}

const isGraphFile = (name: string) => existsSync(name) && /\.(json|bin)$/.test(name);

/** The names in datasets/index.json (empty when the index is missing). */
export async function bundledDatasetNames(): Promise<string[]> {
  try {
    const index = JSON.parse(await readFile(new URL('index.json', PACKAGE_DATASETS), 'utf8')) as { name: string }[];
    return index.map((d) => d.name);
  } catch {
    return [];
  }
}

export interface PrepareOptions {
  /** Lines such as "datasets: building envscaler-rl (2550 tasks)..." (default: none). */
  log?: (line: string) => void;
  /** Phase and fraction done (0..1) while building. */
  onProgress?: (phase: string, fraction: number) => void;
}

/**
 * Makes a bundled dataset ready to load: builds it when it is missing or stale (a few seconds for
 * envscaler-rl). Returns true when it built. Graph files and the synthetic pool need nothing.
 */
export async function prepareDataset(name: string, opts: PrepareOptions = {}): Promise<boolean> {
  if (name === SYNTHETIC_DATASET || isGraphFile(name)) return false;
  if (!(await bundledDatasetNames()).includes(name)) return false; // loadDataset reports the unknown name
  const { ensureDatasets } = await import('./dataset-build-node.ts');
  const [row] = await ensureDatasets([name], {
    log: opts.log ?? (() => {}),
    onProgress: (_, phase, fraction) => opts.onProgress?.(phase, fraction),
  });
  return row.built;
}

export async function loadDataset(name: string): Promise<{ loaded: LoadedGraph; source: string }> {
  if (name === SYNTHETIC_DATASET) return { loaded: loadGraph(syntheticPool(), SYNTHETIC_DATASET), source: SYNTHETIC_DATASET };
  if (isGraphFile(name)) return { loaded: await readGraphFile(name), source: name };
  for (const path of datasetCandidates(name)) {
    if (existsSync(path)) return { loaded: await readGraphFile(path), source: path };
  }
  const bundled = await bundledDatasetNames();
  if (bundled.includes(name)) {
    throw new InputError(
      'command line',
      '--dataset',
      `the bundled dataset ${JSON.stringify(name)} is not built yet (build it with "npm run datasets -- ${name}")`,
    );
  }
  throw new InputError(
    'command line',
    '--dataset',
    `no dataset ${JSON.stringify(name)}: not a graph file (.graph.json or .graph.bin), a bundled dataset (${bundled.join(', ')}) or ${SYNTHETIC_DATASET}`,
  );
}
