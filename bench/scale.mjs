#!/usr/bin/env node
// The scheduler at industry pool sizes. For each pool (bench/lib/bench-files.mjs: 2,550,
// 25,000, 100,000 and 750,000 tasks), in its own process: graph load time (binary file straight
// into linear memory), median wall and CPU time of one full scheduling step in a run (append the
// step's 64 groups, score the next step: both half-lives, filters, batch of 64), time per task,
// peak memory (max RSS). Prints the table that docs/benchmarks.md records.
// `node bench/scale.mjs [max tasks]` limits the sizes (e.g. 100000 skips the 750K pool).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBenchGraph, SIZES } from './lib/bench-files.mjs';

const PAPER_STEP_S = 34.93; // the paper's scheduler, one step at 2,550 tasks

export async function run(maxTasks = Number(process.env.SCALE_MAX_TASKS ?? Infinity)) {
  const rows = [];
  const results = [];
  for (const size of SIZES) {
    if (size.envs * size.perEnv > maxTasks) continue;
    const path = ensureBenchGraph(size);
    process.stderr.write(`scale: ${size.label} tasks ...\n`);
    const out = execFileSync(
      process.execPath,
      [fileURLToPath(new URL('./lib/scale-one.mjs', import.meta.url)), JSON.stringify(size), path],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 1 << 20,
      },
    );
    results.push(JSON.parse(out.toString().trim().split('\n').pop()));
  }
  console.log(
    '\n| pool (tasks) | M_cross / P_cross | step, median wall | step, median CPU | CPU per task | peak memory (RSS) | graph load | vs paper (34.93 s) |',
  );
  console.log('| ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    console.log(
      `| ${r.tasks.toLocaleString('en-US')} | ${r.mCross} / ${r.pCross} | ${r.stepMs.toFixed(1)} ms | ${r.cpuMs.toFixed(1)} ms | ${r.cpuUsPerTask.toFixed(2)} µs | ${r.peakRssMiB.toFixed(0)} MiB | ${(r.loadMs / 1000).toFixed(1)} s | ${Math.round((PAPER_STEP_S * 1000) / r.stepMs).toLocaleString('en-US')}x |`,
    );
    const target = r.tasks === 100_000 ? '<= 60 ms' : r.tasks === 750_000 ? '<= 600 ms' : undefined;
    rows.push({ name: `scale ${r.label}: step median (wall)`, value: r.stepMs, unit: 'ms', target });
    rows.push({ name: `scale ${r.label}: step median (CPU)`, value: r.cpuMs, unit: 'ms' });
    rows.push({ name: `scale ${r.label}: CPU time per task`, value: r.cpuUsPerTask, unit: 'µs' });
    rows.push({
      name: `scale ${r.label}: peak memory (max RSS)`,
      value: r.peakRssMiB,
      unit: 'MiB',
      target: r.tasks === 750_000 ? '<= 2048 MiB' : undefined,
    });
    rows.push({ name: `scale ${r.label}: graph load (binary)`, value: r.loadMs / 1000, unit: 's' });
  }
  const small = results.find((r) => r.tasks === 25_000);
  const big = results.find((r) => r.tasks === 750_000);
  if (small && big)
    rows.push({ name: 'scale: CPU per task 750K / 25K', value: big.cpuUsPerTask / small.cpuUsPerTask, unit: 'x', target: '<= 2x' });
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await run(process.argv[2] ? Number(process.argv[2]) : undefined);
  for (const r of rows) console.log(`${r.name}: ${r.value.toFixed(3)} ${r.unit}${r.target ? ` (target ${r.target})` : ''}`);
}
