// Bench rows for the graph builder: build time and peak memory of envscaler-rl and
// envscaler-full, and graph file sizes. Each build runs in a fresh Node process so its peak RSS
// is its own (max RSS from /usr/bin/time -f %M; NaN when /usr/bin/time is missing).
// Called by bench/run.mjs: `const rows = await (await import('./graph-build.mjs')).run()`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bin', 'envsched.js');

function timed(args) {
  const started = process.hrtime.bigint();
  const hasTime = existsSync('/usr/bin/time');
  const r = hasTime
    ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, cli, ...args], { encoding: 'utf8' })
    : spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`envsched ${args[0]} failed: ${r.stderr}`);
  const last = r.stderr.trim().split('\n').pop();
  return { seconds, peakMb: hasTime ? Number(last) / 1024 : NaN };
}

export async function run() {
  const index = JSON.parse(readFileSync(join(root, 'datasets', 'index.json'), 'utf8'));
  const rows = [];
  const dir = mkdtempSync(join(tmpdir(), 'envsched-bench-'));
  try {
    for (const name of ['envscaler-rl', 'envscaler-full']) {
      const spec = index.find((d) => d.name === name);
      const pool = join(dir, name);
      const gen = [
        'generate-pool',
        '--envs',
        String(spec.envs),
        '--tasks-per-env',
        String(spec.tasksPerEnv),
        '--seed',
        String(spec.seed),
        '--out',
        pool,
      ];
      if (spec.totalTasks) gen.push('--total-tasks', String(spec.totalTasks));
      const g = timed(gen);
      rows.push({ name: `generate-pool ${name}`, value: Number(g.seconds.toFixed(2)), unit: 's' });
      const out = join(dir, `${name}.graph.json`);
      const b = timed([
        'build-graph',
        '--env-metadata',
        join(pool, 'env_metadata.json'),
        '--scenarios',
        join(pool, 'rl_scenario_metadata.json'),
        '--topology',
        join(pool, 'topology.json'),
        '--sim',
        join(pool, 'sim.json'),
        '--categories',
        join(pool, 'categories.json'),
        '--out',
        out,
      ]);
      rows.push({ name: `build-graph ${name} (${spec.tasks} tasks) time`, value: Number(b.seconds.toFixed(2)), unit: 's' });
      rows.push({ name: `build-graph ${name} peak memory`, value: Number(b.peakMb.toFixed(0)), unit: 'MB' });
      rows.push({ name: `${name}.graph.json size`, value: Number((statSync(out).size / 1e6).toFixed(2)), unit: 'MB' });
      rows.push({
        name: `${name}.graph.bin size`,
        value: Number((statSync(out.replace(/\.json$/, '.bin')).size / 1e6).toFixed(2)),
        unit: 'MB',
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const row of await run()) console.log(`${row.name}: ${row.value} ${row.unit}`);
}
