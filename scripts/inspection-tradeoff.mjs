#!/usr/bin/env node
// What the pool generator's inspection calls trade (docs/graph.md, "What the inspection calls
// trade"): for several ways of drawing them, on the envscaler-rl pool (51 x 50, seed 1), the tools
// per task, the expected distinct (environment, tool) pairs of a uniform random batch of 64 (Table
// 2: 413.41), and the graph report's tool-Jaccard ratio (target 1.5x). Also the share of read-only
// tools in the generated environments and in the two real EnvScaler environments of the test
// fixtures. Diagnostic only: nothing here is a fit target or a check, and the bundled pools keep
// the default draw.
//
// Usage: node scripts/inspection-tradeoff.mjs     (needs dist/: `npm install` builds it; about 2 minutes)
import { readFileSync } from 'node:fs';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { generatePool, poolFiles } = await import(dist('pool/generate.js'));
const { DEFAULT_INSPECTION } = await import(dist('pool/tasks.js'));
const { buildGraph } = await import(dist('graph/build.js'));
const { qualityReport } = await import(dist('graph/report.js'));

const POOL = { envs: 51, tasksPerEnv: 50, seed: 1 };
const B = 64;
const DRAWS = [
  DEFAULT_INSPECTION,
  { trials: 12, p: 0.7, scope: 'environment' },
  { trials: 8, p: 0.7, scope: 'environment' },
  { trials: 4, p: 0.5, scope: 'environment' },
  { trials: 0, p: 0.5, scope: 'environment' },
  { trials: 0, p: 0.5, scope: 'related' },
  { trials: 2, p: 0.5, scope: 'related' },
  { trials: 4, p: 0.5, scope: 'related' },
];

/** Expected distinct (environment, tool) pairs of a batch of B tasks drawn uniformly without replacement. */
function expectedBatchTools(pool) {
  const ids = Object.keys(pool.topology);
  const N = ids.length;
  const users = new Map();
  for (const id of ids) {
    const env = id.split('-task_')[0];
    for (const tool of new Set(pool.topology[id].operations.map((o) => o.tool))) {
      const key = `${env}/${tool}`;
      users.set(key, (users.get(key) ?? 0) + 1);
    }
  }
  let total = 0;
  for (const n of users.values()) {
    let none = 1; // hypergeometric: no task of the B uses this pair
    for (let k = 0; k < B; k++) none *= Math.max(0, N - n - k) / (N - k);
    total += 1 - none;
  }
  return total;
}

function toolsPerTask(pool) {
  const ids = Object.keys(pool.topology);
  return ids.reduce((s, id) => s + new Set(pool.topology[id].operations.map((o) => o.tool)).size, 0) / ids.length;
}

function queryShare(envRecords) {
  let q = 0;
  let all = 0;
  for (const rec of envRecords)
    for (const op of rec.operation_list) {
      all++;
      if (op.operation_type === 'query') q++;
    }
  return { q, all, share: q / all, envs: envRecords.length };
}

const rows = [];
for (const inspection of DRAWS) {
  const pool = generatePool({ ...POOL, inspection });
  const files = poolFiles(pool);
  const text = (file) => ({ text: files[file], source: file });
  const { graph } = buildGraph({
    envMetadata: text('env_metadata.json'),
    scenarios: text('rl_scenario_metadata.json'),
    topology: text('topology.json'),
    categories: text('categories.json'),
    sim: text('sim.json'),
    name: 'inspection-tradeoff',
  });
  const q = qualityReport(graph, pool.sim);
  rows.push({
    inspection,
    toolsPerTask: toolsPerTask(pool),
    batchTools: expectedBatchTools(pool),
    q,
    envs: Object.values(pool.envMetadata),
  });
  process.stderr.write('.');
}
process.stderr.write('\n');

const f = (x, d) => x.toFixed(d);
console.log(`Inspection calls on envscaler-rl (51 x 50, seed 1); random batch of ${B}, expected distinct (environment, tool) pairs`);
console.log('| draw | tools per task | random batch tools (413.41) | Jaccard, 6 nearest | Jaccard, random same-env | ratio (>= 1.5x) |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const d = r.inspection;
  const name = `${d.scope}, Binomial(${d.trials}, ${d.p})${d === DEFAULT_INSPECTION ? ' (bundled)' : ''}`;
  console.log(
    `| ${name} | ${f(r.toolsPerTask, 2)} | ${f(r.batchTools, 1)} | ${f(r.q.jaccardNeighbours, 3)} | ${f(r.q.jaccardRandom, 3)} | ${f(r.q.jaccardRatio, 2)}x |`,
  );
}
const generated = queryShare(rows[0].envs);
const sample = JSON.parse(readFileSync(new URL('../test/fixtures/envscaler-sample/env_metadata.json', import.meta.url), 'utf8'));
const real = queryShare(Object.values(sample));
console.log('');
console.log(
  `read-only (query) tools: generated ${generated.q} of ${generated.all} (${f(100 * generated.share, 1)}%, ${f(generated.q / generated.envs, 1)} per environment); ` +
    `the real sample ${real.q} of ${real.all} (${f(100 * real.share, 1)}%, ${real.envs} environments)`,
);
