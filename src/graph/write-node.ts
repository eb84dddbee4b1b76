// Writing a built graph: the SPEC 12 JSON at `path` and the compact binary beside it
// (same basename, `.graph.bin`), which is what the app loads.
import { writeFile } from 'node:fs/promises';
import { InputError } from '../engine/errors.ts';
import { serializeGraphJson } from '../engine/graph-json.ts';
import { encodeGraphBinary } from '../engine/graph-binary.ts';
import type { Graph } from '../engine/types.ts';

export function binaryPathFor(jsonPath: string): string {
  return jsonPath.replace(/(\.graph)?\.json$/, '') + '.graph.bin';
}

export async function writeGraphFiles(
  graph: Graph,
  jsonPath: string,
): Promise<{ json: string; bin: string; jsonBytes: number; binBytes: number }> {
  const text = serializeGraphJson(graph);
  const bytes = encodeGraphBinary(graph);
  const bin = binaryPathFor(jsonPath);
  for (const [path, content] of [
    [jsonPath, text],
    [bin, bytes],
  ] as const) {
    try {
      await writeFile(path, content);
    } catch (error) {
      throw new InputError(path, '-', `cannot write the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  return { json: jsonPath, bin, jsonBytes: Buffer.byteLength(text), binBytes: bytes.byteLength };
}
