// What both browser workers (engine.worker.ts, sweep.worker.ts) share: the bundled datasets'
// catalog and files, and the one shape in which a failed request comes back to the page.
import { InputError, isInputError } from '../engine/errors.ts';
import { decodeGraphBytes } from '../engine/graph-bytes.ts';
import type { LoadedGraph } from '../engine/types.ts';

export interface CatalogEntry {
  name: string;
  file: string;
}

/** The site's bundled datasets (datasets/catalog.json); none when the site has no catalog. */
export async function fetchCatalog(base: string): Promise<CatalogEntry[]> {
  const response = await fetch(new URL('datasets/catalog.json', base));
  if (!response.ok) return [];
  return ((await response.json()) as { datasets: CatalogEntry[] }).datasets;
}

/** A bundled dataset's graph, decoded and validated; errors name the dataset or its file. */
export async function fetchBundledGraph(base: string, name: string): Promise<{ loaded: LoadedGraph; source: string }> {
  const catalog = await fetchCatalog(base);
  const entry = catalog.find((d) => d.name === name);
  if (!entry)
    throw new InputError(
      'url',
      'dataset',
      `no bundled dataset named ${JSON.stringify(name)} (available: ${catalog.map((d) => d.name).join(', ') || 'none'})`,
    );
  const file = await fetch(new URL(`datasets/${entry.file}`, base));
  if (!file.ok) throw new InputError(`datasets/${entry.file}`, '-', `HTTP ${file.status}`);
  return { loaded: decodeGraphBytes(new Uint8Array(await file.arrayBuffer()), entry.file), source: entry.file };
}

/** A request that failed: `notice` is the line the page shows; `input` the parts of bad input (null for other errors). */
export interface Failure {
  ok: false;
  notice: string;
  input: { source: string; place: string; problem: string } | null;
  /** The request stopped because it was cancelled (not an error to show). */
  cancelled?: true;
}

export function failureOf(error: unknown, fallbackSource: string): Failure {
  if (isInputError(error))
    return { ok: false, notice: error.message, input: { source: error.source, place: error.place, problem: error.problem } };
  return { ok: false, notice: `${fallbackSource}: ${error instanceof Error ? error.message : String(error)}`, input: null };
}

/** A failure that is not about the input's content (nothing loaded yet, a lane with no run). */
export function noticeOf(notice: string): Failure {
  return { ok: false, notice, input: null };
}

export function cancelled(): Failure {
  return { ok: false, notice: 'run cancelled', input: null, cancelled: true };
}

/**
 * A trap, a WASM abort or a failed allocation: not bad input. The instance's state after it is
 * unknown, so the engine worker throws it on to the page, which replaces the worker.
 */
export function isWasmFault(error: unknown): boolean {
  return error instanceof WebAssembly.RuntimeError || error instanceof RangeError || (error instanceof Error && error.name === 'WasmAbort');
}
