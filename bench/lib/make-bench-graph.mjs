#!/usr/bin/env node
// node bench/lib/make-bench-graph.mjs '{"envs":500,"perEnv":50,"mCross":256,"pCross":32}' out.graph.bin
// Writes a bench pool (bench-graph.mjs) as a binary graph file (docs/graph-binary.md); with
// "sim": true in the size, the metadata carries simulator parameters (bench-sim.mjs).
import { renameSync, writeFileSync } from 'node:fs';
import { generateBenchGraph } from './bench-graph.mjs';
import { benchSimParams } from './bench-sim.mjs';

const { encodeGraphBinary } = await import(new URL('../../dist/engine/graph-binary.js', import.meta.url).href);
const [spec, out] = process.argv.slice(2);
const size = JSON.parse(spec);
const t0 = performance.now();
const graph = generateBenchGraph(size);
// `sim: true`: with hidden simulator parameters, so the pool can be simulated (bench-sim.mjs)
if (size.sim) graph.meta.sim = benchSimParams(graph.meta);
const bytes = encodeGraphBinary(graph);
writeFileSync(`${out}.part`, bytes);
renameSync(`${out}.part`, out);
process.stderr.write(
  `  ${graph.packed.nTasks} tasks, ${(bytes.length / 2 ** 20).toFixed(0)} MiB, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
);
