// Bench pool files: generated once per shape into the OS temp folder (a 750K pool takes ~15 s to
// draw and ~0.9 GB on disk), in a child process so the generator's memory never counts against
// the measured run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = join(tmpdir(), 'envsched-bench');

export const SIZES = [
  { label: '2,550', envs: 51, perEnv: 50, mCross: 256, pCross: 32 },
  { label: '25,000', envs: 500, perEnv: 50, mCross: 256, pCross: 32 },
  { label: '100,000', envs: 2000, perEnv: 50, mCross: 256, pCross: 32 },
  { label: '750,000', envs: 15000, perEnv: 50, mCross: 32, pCross: 8 },
];

/** The 100K pool with simulator parameters: the browser simulation (bench/browser/). */
export const SIM_100K = { label: '100,000 (sim)', envs: 2000, perEnv: 50, mCross: 256, pCross: 32, sim: true };

export function benchGraphPath(size) {
  return join(BENCH_DIR, `bench-${size.envs}x${size.perEnv}-m${size.mCross}-p${size.pCross}${size.sim ? '-sim' : ''}-v1.graph.bin`);
}

/** The pool's binary graph file, generated if missing. */
export function ensureBenchGraph(size) {
  const path = benchGraphPath(size);
  if (existsSync(path)) return path;
  mkdirSync(BENCH_DIR, { recursive: true });
  process.stderr.write(`generating ${path} ...\n`);
  execFileSync(process.execPath, [fileURLToPath(new URL('./make-bench-graph.mjs', import.meta.url)), JSON.stringify(size), path], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return path;
}
