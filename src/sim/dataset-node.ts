// Node-only: `--dataset D` -> a loaded graph. D is a graph file path, a bundled dataset name
// (datasets/D/D.graph.bin or .graph.json, built by scripts/build-datasets.mjs), or `synthetic-51x50` (src/sim/synthetic-pool.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InputError } from '../engine/errors.ts';
import { loadGraph } from '../engine/graph-json.ts';
import type { LoadedGraph } from '../engine/types.ts';
import { readGraphFile } from '../engine/files-node.ts';
import { syntheticPool } from './synthetic-pool.ts';

export const SYNTHETIC_DATASET = 'synthetic-51x50';

const DATASETS_DIR = new URL('../../datasets/', import.meta.url);

export function datasetCandidates(name: string): string[] {
  return [`${name}/${name}.graph.bin`, `${name}/${name}.graph.json`].map((file) => fileURLToPath(new URL(file, DATASETS_DIR)));
}

export async function loadDataset(name: string): Promise<{ loaded: LoadedGraph; source: string }> {
  if (name === SYNTHETIC_DATASET) return { loaded: loadGraph(syntheticPool(), SYNTHETIC_DATASET), source: SYNTHETIC_DATASET };
  if (existsSync(name) && /\.(json|bin)$/.test(name)) return { loaded: await readGraphFile(name), source: name };
  for (const path of datasetCandidates(name)) {
    if (existsSync(path)) return { loaded: await readGraphFile(path), source: path };
  }
  throw new InputError('command line', '--dataset', `no dataset ${JSON.stringify(name)}: not a graph file, and none of ${datasetCandidates(name).join(', ')} exists (build it with "npm run datasets -- ${name}", or use ${SYNTHETIC_DATASET})`);
}
