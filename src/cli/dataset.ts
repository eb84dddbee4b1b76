// `--dataset D` for simulate, reproduce and sweep: a bundled dataset that is not built yet (a
// fresh install, before `npm start`) is built on first use, with a progress bar on a terminal and
// a line at the start and the end otherwise; then the graph is loaded.
import { InputError, isInputError } from '../engine/errors.ts';
import type { LoadedGraph } from '../engine/types.ts';
import { loadDataset, prepareDataset } from '../sim/dataset-node.ts';
import type { CliIo } from './io.ts';
import { progressReporter } from './progress.ts';

export async function openDataset(io: CliIo, name: string): Promise<{ loaded: LoadedGraph; source: string }> {
  const progress = progressReporter(io, `building dataset ${name}`, { ttyOnly: true });
  try {
    await prepareDataset(name, {
      log: io.stderrIsTTY ? undefined : (line) => io.stderr(`${line}\n`),
      onProgress: (phase, fraction) => progress.update(phase, fraction),
    });
  } catch (error) {
    if (isInputError(error)) throw error;
    // A build that cannot write its folder (a read-only install) is the user's to fix: say how.
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InputError(
      `datasets/${name}`,
      '-',
      `cannot build the bundled dataset (${why}); set ENVSCHED_DATASETS_DIR to a writable folder`,
    );
  } finally {
    progress.finish();
  }
  return loadDataset(name);
}
