// The npm package as a user gets it: `npm pack`, then an offline install of the tarball into an
// empty directory, then the command and the library from there (no checkout on the path).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { ROOT } from './helpers/dist.ts';

const work = mkdtempSync(join(tmpdir(), 'envsched-pack-'));
const app = join(work, 'app');
let files: string[] = [];

function run(command: string, args: string[], cwd = app): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' },
  });
}

beforeAll(() => {
  const packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT)) as {
    filename: string;
    files: { path: string }[];
  }[];
  files = packed[0].files.map((f) => f.path);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'probe', version: '1.0.0', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, packed[0].filename)]);
}, 120_000);

describe('the packed package', () => {
  it('holds the launcher, the compiled CLI and library with declarations, the release .wasm and the README, and nothing of the sources', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/envsched.js',
        'dist/cli/main.js',
        'dist/api/index.js',
        'dist/api/index.d.ts',
        'build/envsched.wasm',
        'datasets/index.json',
        'README.md',
        'package.json',
      ]),
    );
    expect(files.filter((f) => /^(src|test|assembly|docs|python)\//.test(f) || f.endsWith('.map'))).toEqual([]);
    // the CLI needs no run-time dependency: chart.js and comlink are the site's, bundled there
    expect(readdirSync(join(app, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['envsched-lab']);
  });

  it('npx envsched --help, --version and score work from a clean directory', () => {
    expect(run('npx', ['envsched', '--help'])).toMatch(/usage: envsched <command>[\s\S]*serve/);
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(run('npx', ['envsched', '--version'])).toContain(version);
    const vector = join(ROOT, 'test/fixtures/spec-vectors/envsched-basic');
    const out = JSON.parse(
      run('npx', ['envsched', 'score', '--graph', join(vector, 'graph.json'), '--history', join(vector, 'history.jsonl'), '--batch-only']),
    );
    expect(out.batch.length).toBeGreaterThan(0);
    expect(out.batch[0]).toMatchObject({ task: expect.any(String), index: expect.any(Number), env: expect.any(String) });
  });

  it("npx envsched simulate builds the bundled dataset on first use and gives the checkout's fingerprint", async () => {
    const packed = /fingerprint ([0-9a-f]{16})/.exec(run('npx', ['envsched', 'simulate', '--dataset', 'tiny', '--steps', '3']))?.[1];
    const here = /fingerprint ([0-9a-f]{16})/.exec((await runCli(['simulate', '--dataset', 'tiny', '--steps', '3'])).stdout)?.[1];
    expect(packed).toBeDefined();
    expect(packed).toBe(here);
  });

  it("import { createScheduler } from 'envsched-lab' works, typed", () => {
    const vector = join(ROOT, 'test/fixtures/spec-vectors/envsched-basic');
    writeFileSync(
      join(app, 'probe.mjs'),
      `import { createScheduler } from 'envsched-lab';
const s = await createScheduler({ graph: ${JSON.stringify(join(vector, 'graph.json'))}, config: { B: 2 } });
const first = s.next(0);
s.observe(0, first.batch.map((p) => ({ task: p.task, rewards: [0, 1] })));
console.log(JSON.stringify({ first: first.batch.length, next: s.next().step }));
`,
    );
    expect(JSON.parse(run('node', ['probe.mjs']))).toEqual({ first: 2, next: 1 });
    // and its declarations type-check a user's TypeScript (strict, Node module resolution)
    writeFileSync(
      join(app, 'probe.ts'),
      `import { createScheduler, type NextResult, type BatchPick } from 'envsched-lab';
const s = await createScheduler({ graph: 'g.graph.bin', config: { B: 2 } });
const r: NextResult = s.next(0, { extras: 1 });
const p: BatchPick | undefined = r.batch[0];
const step: number = s.observe(1, [{ task: 'a', rewards: [0, 1] }]).lastStep;
// @ts-expect-error rewards are numbers
s.observe(2, [{ task: 'a', rewards: ['x'] }]);
export { p, step };
`,
    );
    run(process.execPath, [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--target',
      'es2022',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--types',
      'node',
      '--typeRoots',
      join(ROOT, 'node_modules/@types'),
      'probe.ts',
    ]);
  });
});
