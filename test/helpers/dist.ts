// The compiled CLI (dist/) that tests spawn as a real process (serve, the packed package, the
// Python client): recompiled when any TypeScript file it is built from is newer than it.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(ROOT, 'bin', 'envsched.js');

function newest(dir: string, ext: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path, ext));
    else if (entry.name.endsWith(ext)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/** Rebuilds dist/ when src/ (outside the app) changed since it was built. */
export function ensureDistFresh(): void {
  const sources = ['engine', 'cli', 'api', 'serve', 'sim', 'sweep', 'reference', 'pool', 'graph'].map((d) => {
    try {
      return newest(join(ROOT, 'src', d), '.ts');
    } catch {
      return 0;
    }
  });
  let built = 0;
  try {
    built = statSync(join(ROOT, 'dist', 'cli', 'main.js')).mtimeMs;
  } catch {
    built = 0;
  }
  if (Math.max(...sources) > built) {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.node.json'], { cwd: ROOT, stdio: 'inherit' });
    execFileSync('npx', ['tsc', '-p', 'tsconfig.types.json'], { cwd: ROOT, stdio: 'inherit' });
  }
}
