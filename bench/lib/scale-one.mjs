#!/usr/bin/env node
// node bench/lib/scale-one.mjs '<size json>' <graph file>: one row of the issue-6 table, measured
// in its own process (peak memory = this process's max RSS): graph load time (binary file straight
// into linear memory), then a run's last steps of a 200-step history (64 groups of K = 8 per step):
// append step s, score step s + 1 (both half-lives, filters, batch of 64), timed per step.
import { generateBenchHistory } from './bench-graph.mjs';

const dist = (p) => new URL(`../../dist/${p}`, import.meta.url).href;
const { loadEnvschedWasmNode } = await import(dist('engine/wasm/loader-node.js'));
const { WasmScheduler } = await import(dist('engine/wasm/scheduler.js'));
const { loadGraphFileInto } = await import(dist('engine/wasm/graph-file-node.js'));
const { DEFAULT_CONFIG } = await import(dist('engine/config.js'));

const [spec, path] = process.argv.slice(2);
const size = JSON.parse(spec);
const STEPS = 200;
const TIMED = size.envs * size.perEnv >= 500_000 ? 10 : 20;

const sched = new WasmScheduler(await loadEnvschedWasmNode());
const t0 = performance.now();
const loaded = await loadGraphFileInto(sched, path, (phase, done, total) => {
  if (process.env.BENCH_PROGRESS) process.stderr.write(`\r  ${phase} ${((100 * done) / total).toFixed(0)}%   `);
});
const loadMs = performance.now() - t0;
const n = loaded.taskIds.length;

const history = generateBenchHistory({ nTasks: n, perEnv: size.perEnv, steps: STEPS });
const byStep = Array.from({ length: STEPS }, () => []);
for (const o of history) byStep[o.step].push(o);
const config = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] };
sched.configure(config);
const first = STEPS - TIMED;
for (let s = 0; s < first; s++) sched.appendStep(s, byStep[s]);
const w0 = performance.now();
sched.scoreStep(first); // first score: full neighbour build
const firstMs = performance.now() - w0;
const times = [];
const cpu = [];
for (let s = first; s < STEPS; s++) {
  const c = process.cpuUsage();
  const a = performance.now();
  sched.appendStep(s, byStep[s]);
  const r = sched.scoreStep(s + 1);
  times.push(performance.now() - a);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
  if (r.batchLength !== config.B) throw new Error(`short batch at step ${s + 1}`);
}
const medianOf = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
times.sort((a, b) => a - b);
const median = medianOf(times);
const cpuMedian = medianOf(cpu);
const memory = sched.wasm.memory.buffer.byteLength;
console.log(
  JSON.stringify({
    tasks: n,
    label: size.label,
    mCross: size.mCross,
    pCross: size.pCross,
    stepMs: median,
    cpuMs: cpuMedian,
    minMs: times[0],
    maxMs: times[times.length - 1],
    firstScoreMs: firstMs,
    usPerTask: (median * 1000) / n,
    cpuUsPerTask: (cpuMedian * 1000) / n,
    loadMs,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
    wasmMiB: memory / 2 ** 20,
  }),
);
