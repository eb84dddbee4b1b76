// The built site under `vite preview` for the browser benches (bench/app.mjs, bench/explain.mjs):
// rebuilt when any input is newer than the last build, the same staleness rule as test/e2e/site.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function newest(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return 0;
  if (!statSync(full).isDirectory()) return statSync(full).mtimeMs;
  let t = 0;
  for (const e of readdirSync(full, { withFileTypes: true, recursive: true }))
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs);
  return t;
}

/** Builds the site if stale and serves it on a free loopback port. */
export async function serveSite() {
  const stamp = join(ROOT, 'site', '.built');
  const inputs = [
    'src/ui',
    'src/worker',
    'src/engine',
    'src/sim',
    'src/reference',
    'index.html',
    'public',
    'vite.config.ts',
    'build/envsched.wasm',
    'datasets',
  ];
  if (!existsSync(stamp) || statSync(stamp).mtimeMs < Math.max(...inputs.map(newest))) {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    writeFileSync(stamp, new Date().toISOString());
  }
  const { preview } = await import('vite');
  return preview({ root: ROOT, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
}
