// The Python client, its trainer adapters (against stand-ins with verl's and slime's interfaces)
// and the worked example, run by `python3 -m unittest` from the suite: it fails if they fail.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from './helpers/dist.ts';

describe('the Python client (python/)', () => {
  it('passes its unittest suite: client, verl sampler, slime data source, the example fingerprint', () => {
    const run = spawnSync(
      'python3',
      ['-m', 'unittest', 'discover', '-s', join(ROOT, 'python', 'tests'), '-t', join(ROOT, 'python', 'tests')],
      {
        cwd: join(ROOT, 'python', 'tests'),
        env: { ...process.env, ENVSCHED_COMMAND: `${process.execPath} ${CLI}`, PYTHONDONTWRITEBYTECODE: '1' },
        encoding: 'utf8',
        timeout: 240_000,
      },
    );
    if (run.status !== 0)
      throw new Error(`python3 -m unittest failed (status ${run.status}):\n${run.stderr.slice(-4000)}${run.stdout.slice(-1000)}`);
    expect(run.stderr).toMatch(/Ran \d+ tests/);
    expect(run.stderr).toMatch(/\nOK/);
  }, 300_000);
});
