#!/usr/bin/env node
// `envsched serve` and `score --batch-only` as a trainer meets them, on the bench pools
// (bench/lib/bench-files.mjs) at 2,550 and 100,000 tasks:
//   - server start: spawn to the first answer (binary graph), median of 3;
//   - round trip through stdio of one training step: observe 64 groups of 8, then next 64,
//     median over 40 steps after 10 warm-up steps (without and with --log, which flushes every
//     step to disk before answering);
//   - `score --batch-only` end to end (spawn to exit) on the 100K pool with a 200-step history,
//     beside the full SPEC 12 output for the ratio.
// `node bench/serve.mjs [max tasks]` limits the sizes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { BENCH_DIR, ensureBenchGraph, SIZES } from './lib/bench-files.mjs';
import { generateBenchHistory } from './lib/bench-graph.mjs';

const CLI = fileURLToPath(new URL('../bin/envsched.js', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function startServer(graph, extra = []) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve', '--graph', graph, ...extra], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(JSON.parse(line)));
  const send = (request) =>
    new Promise((resolve, reject) => {
      waiting.push((r) => (r.ok ? resolve(r.result) : reject(new Error(JSON.stringify(r.error)))));
      child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  return { child, send, t0 };
}

async function stop(server) {
  await server.send({ op: 'shutdown' });
  await new Promise((resolve) => server.child.on('exit', resolve));
}

/** Rewards on the grid 1/8, a fixed function of (step, position). */
function rewards(step, b) {
  return Array.from({ length: 8 }, (_, k) => Math.min(1, ((step * 131 + b * 17 + k * 7) % 9) / 8));
}

async function measure(size) {
  const graph = ensureBenchGraph(size);
  const starts = [];
  for (let k = 0; k < 3; k++) {
    const s = startServer(graph);
    await s.send({ op: 'snapshot' });
    starts.push(performance.now() - s.t0);
    await stop(s);
  }
  return {
    startMs: median(starts),
    tripMs: await roundTrip(graph, []),
    loggedTripMs: await roundTrip(graph, ['--log', join(BENCH_DIR, `serve-bench-${process.pid}.jsonl`)]),
  };
}

/** Median time of observe (64 x 8) + next (64) over 40 steps after 10 warm-up steps. */
async function roundTrip(graph, extra) {
  const log = extra[1];
  if (log) rmSync(log, { force: true });
  const s = startServer(graph, extra);
  let batch = (await s.send({ op: 'next', step: 0 })).batch;
  const trips = [];
  for (let step = 0; step < 50; step++) {
    const groups = batch.map((p, b) => ({ task: p.task, rewards: rewards(step, b) }));
    const t0 = performance.now();
    await s.send({ op: 'observe', step, groups });
    batch = (await s.send({ op: 'next', step: step + 1 })).batch;
    if (step >= 10) trips.push(performance.now() - t0);
  }
  await stop(s);
  if (log) rmSync(log, { force: true });
  return median(trips);
}

function timeScore(graph, history, extra) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'score', '--graph', graph, '--history', history, ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`score exited ${r.status}`);
  return { ms: performance.now() - t0, bytes: r.stdout.length };
}

export async function run(maxTasks = Number(process.env.SERVE_MAX_TASKS ?? Infinity)) {
  const rows = [];
  for (const size of SIZES.filter((s) => s.envs * s.perEnv === 2550 || s.envs * s.perEnv === 100_000)) {
    const n = size.envs * size.perEnv;
    if (n > maxTasks) continue;
    process.stderr.write(`serve: ${size.label} tasks ...\n`);
    const m = await measure(size);
    const big = n === 100_000;
    rows.push({ name: `serve ${size.label}: start (binary graph)`, value: m.startMs / 1000, unit: 's', target: big ? '<= 5 s' : '<= 1 s' });
    rows.push({
      name: `serve ${size.label}: observe 64x8 + next 64 (stdio)`,
      value: m.tripMs,
      unit: 'ms',
      target: big ? '<= 60 ms' : '<= 3 ms',
    });
    rows.push({ name: `serve ${size.label}: the same with --log (fdatasync per step)`, value: m.loggedTripMs, unit: 'ms' });
    if (big) {
      const graph = ensureBenchGraph(size);
      const history = graph.replace(/\.graph\.bin$/, '-history200.jsonl');
      if (!existsSync(history)) {
        const ids = (task) => `e${Math.floor(task / size.perEnv)}-t${task % size.perEnv}`;
        writeFileSync(
          history,
          generateBenchHistory({ nTasks: n, perEnv: size.perEnv })
            .map((o) => `${JSON.stringify({ ...o, task: ids(o.task) })}\n`)
            .join(''),
        );
      }
      const only = timeScore(graph, history, ['--batch-only']);
      const full = timeScore(graph, history, []);
      rows.push({ name: `score ${size.label} --batch-only, end to end`, value: only.ms / 1000, unit: 's', target: '<= 6 s' });
      rows.push({ name: `score ${size.label} full SPEC 12 output, end to end`, value: full.ms / 1000, unit: 's' });
      rows.push({
        name: `score ${size.label} output: --batch-only / full`,
        value: `${(only.bytes / 1024).toFixed(0)} KB / ${(full.bytes / 2 ** 20).toFixed(0)} MB`,
        unit: '',
      });
    }
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = await run(process.argv[2] ? Number(process.argv[2]) : undefined);
  for (const r of rows)
    console.log(
      `${r.name}: ${typeof r.value === 'number' ? r.value.toFixed(3) : r.value} ${r.unit}${r.target ? ` (target ${r.target})` : ''}`,
    );
}
