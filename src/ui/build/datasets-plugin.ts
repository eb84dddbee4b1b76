// Build-time only (imported by vite.config.ts, never by the app): serves the bundled datasets to
// the dev server and copies them into the static site, so the app fetches them with relative
// paths (`datasets/<name>.graph.bin`) from any static file server, offline.
//
// Where datasets come from: datasets/<name>/<name>.graph.{bin,json} (the pool generator's layout)
// or datasets/<name>.graph.{bin,json}. The binary form is preferred (smaller, faster to decode).
// When no dataset has been built yet (a fresh checkout during development), a small synthetic
// pool with simulator parameters is generated into .cache/datasets so the app still runs.
import { createReadStream, existsSync, mkdirSync, readdirSync, statSync, writeFileSync, copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

export interface DatasetFile {
  name: string;
  /** The file name the app fetches, under `datasets/`. */
  file: string;
  /** Absolute path on disk. */
  path: string;
  bytes: number;
}

/** The order datasets are listed in the app's picker; others follow alphabetically. */
const PREFERRED = ['envscaler-rl', 'classroom', 'tiny', 'envscaler-full'];

function pick(dir: string, name: string): string | null {
  for (const ext of ['.graph.bin', '.graph.json']) {
    const path = join(dir, `${name}${ext}`);
    if (existsSync(path)) return path;
  }
  return null;
}

/** Every dataset found under `datasetsDir` (both layouts), binary preferred. */
export function findDatasets(datasetsDir: string): DatasetFile[] {
  const found = new Map<string, string>();
  if (existsSync(datasetsDir)) {
    for (const entry of readdirSync(datasetsDir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const path = pick(join(datasetsDir, entry.name), entry.name);
        if (path) found.set(entry.name, path);
      } else {
        const m = /^(.+)\.graph\.(bin|json)$/.exec(entry.name);
        if (m && !found.has(m[1])) found.set(m[1], pick(datasetsDir, m[1]) ?? join(datasetsDir, entry.name));
      }
    }
  }
  const rank = (n: string) => (PREFERRED.includes(n) ? PREFERRED.indexOf(n) : PREFERRED.length);
  return [...found.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([name, path]) => ({ name, path, file: `${name}${path.endsWith('.bin') ? '.graph.bin' : '.graph.json'}`, bytes: statSync(path).size }));
}

/** A small synthetic pool (with `sim`) for development before the real datasets exist. */
async function ensureFallback(root: string): Promise<DatasetFile[]> {
  const dir = join(root, '.cache', 'datasets');
  const wanted: [string, Record<string, number>][] = [
    ['synthetic-tiny', { envs: 8, tasksPerEnv: 10, mCross: 24, pCross: 8, heldoutSuites: 1, heldoutEnvs: 3, heldoutTasksPerEnv: 8 }],
  ];
  mkdirSync(dir, { recursive: true });
  for (const [name, options] of wanted) {
    const path = join(dir, `${name}.graph.bin`);
    if (existsSync(path)) continue;
    const { syntheticPool } = await import('../../sim/synthetic-pool.ts');
    const { encodeGraphBinary } = await import('../../engine/graph-binary.ts');
    const graph = syntheticPool(options);
    graph.name = name;
    writeFileSync(path, encodeGraphBinary(graph));
  }
  return findDatasets(dir);
}

export async function resolveDatasets(root: string): Promise<DatasetFile[]> {
  const real = findDatasets(join(root, 'datasets'));
  return real.length > 0 ? real : ensureFallback(root);
}

/** The catalogue the app reads first (`datasets/catalog.json`). */
export function catalogJson(datasets: DatasetFile[]): string {
  return JSON.stringify({ datasets: datasets.map((d) => ({ name: d.name, file: d.file, bytes: d.bytes })) });
}

export function datasetsPlugin(): Plugin {
  let config: ResolvedConfig;
  let datasets: DatasetFile[] = [];
  return {
    name: 'envsched-datasets',
    async configResolved(resolved) {
      config = resolved;
      datasets = await resolveDatasets(resolve(resolved.root));
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? '').split('?')[0];
        const m = /\/datasets\/([^/]+)$/.exec(url);
        if (!m) return next();
        if (m[1] === 'catalog.json') {
          datasets = findDatasets(join(config.root, 'datasets')).length > 0 ? findDatasets(join(config.root, 'datasets')) : datasets;
          res.setHeader('Content-Type', 'application/json');
          res.end(catalogJson(datasets));
          return;
        }
        const d = datasets.find((x) => x.file === decodeURIComponent(m[1]));
        if (!d) return next();
        res.setHeader('Content-Type', d.file.endsWith('.bin') ? 'application/octet-stream' : 'application/json');
        createReadStream(d.path).pipe(res);
      });
    },
    writeBundle() {
      // Copied after the bundle is written: large graphs never pass through the bundler.
      const out = resolve(config.root, config.build.outDir, 'datasets');
      mkdirSync(out, { recursive: true });
      for (const d of datasets) copyFileSync(d.path, join(out, d.file));
      writeFileSync(join(out, 'catalog.json'), catalogJson(datasets));
    },
  };
}
