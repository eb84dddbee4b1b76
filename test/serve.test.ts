// `envsched serve` as a trainer sees it: a real child process over stdio (and HTTP), its batches
// against `envsched score`, its log across kill -9, and a flood of hostile requests.
import { mkdtempSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.ts';
import { CLI, ROOT } from './helpers/dist.ts';
import { ServeProcess, type ServeResponse } from './helpers/serve-process.ts';

const TINY = join(ROOT, 'datasets/tiny/tiny.graph.bin');
const RL = join(ROOT, 'datasets/envscaler-rl/envscaler-rl.graph.bin');
const dir = mkdtempSync(join(tmpdir(), 'envsched-serve-'));
const servers: ServeProcess[] = [];

function serve(args: string[]): ServeProcess {
  const s = new ServeProcess(args);
  servers.push(s);
  return s;
}

afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
});

/** Rewards a trainer might report, a fixed function of (step, task): some groups all-equal, some spread. */
function rewardsFor(step: number, task: string, K = 8): number[] {
  let h = 2166136261 ^ step;
  for (let k = 0; k < task.length; k++) h = Math.imul(h ^ task.charCodeAt(k), 16777619);
  const out: number[] = [];
  for (let k = 0; k < K; k++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) ^ k;
    const u = (h >>> 0) / 2 ** 32;
    out.push((h & 7) === 0 ? 1 : Math.round(u * 4) / 4);
  }
  return out;
}

type Pick = { task: string };

function historyLines(entries: { step: number; task: string; rewards: number[]; flags?: boolean[] }[]): string {
  return entries.map((e) => `${JSON.stringify(e)}\n`).join('');
}

describe('serve and score give the same batch', () => {
  it('at every step of a 200-step simulated run (tiny pool, B = 8)', async () => {
    const config = join(dir, 'b8.json');
    writeFileSync(config, JSON.stringify({ B: 8 }));
    const history = join(dir, 'h200.jsonl');
    writeFileSync(history, '');
    const s = serve(['--graph', TINY, '--config', config]);
    const seen: { step: number; task: string; rewards: number[]; flags?: boolean[] }[] = [];
    let compared = 0;
    for (let t = 0; t < 200; t++) {
      const next = (await s.ok({ op: 'next', step: t })).result;
      const cli = await runCli(['score', '--graph', TINY, '--history', history, '--config', config, '--step', String(t), '--batch-only']);
      expect(cli.stderr).toBe('');
      const scored = JSON.parse(cli.stdout) as { step: number; batch: unknown[]; relaxed: unknown[] };
      expect(scored.batch).toEqual(next.batch);
      expect(scored.relaxed).toEqual(next.relaxed);
      compared++;
      const rolled = (await s.ok({ op: 'simulate', step: t, tasks: next.batch.map((p: Pick) => p.task) })).result;
      await s.ok({ op: 'observe', step: t, groups: rolled.groups });
      for (const g of rolled.groups) seen.push({ step: t, ...g });
      writeFileSync(history, historyLines(seen));
    }
    expect(compared).toBe(200);
    await s.close();
  });

  it.each(['random', 'dps', 'mopps'])('for the baseline %s, from the same history', async (name) => {
    const config = join(dir, `${name}.json`);
    writeFileSync(config, JSON.stringify({ B: 6, scheduler: name, seed: 3 }));
    const history = join(dir, `${name}.jsonl`);
    const s = serve(['--graph', TINY, '--config', config]);
    const seen: { step: number; task: string; rewards: number[] }[] = [];
    const batches: string[] = [];
    for (let t = 0; t < 12; t++) {
      writeFileSync(history, historyLines(seen));
      const next = (await s.ok({ op: 'next', step: t })).result;
      const cli = await runCli(['score', '--graph', TINY, '--history', history, '--config', config, '--step', String(t)]);
      expect(JSON.parse(cli.stdout).batch).toEqual(next.batch);
      expect(next.batch).toHaveLength(6);
      expect(next.batch.every((p: { phase: unknown }) => p.phase === null)).toBe(true);
      batches.push(JSON.stringify(next.batch));
      for (const p of next.batch as Pick[]) seen.push({ step: t, task: p.task, rewards: rewardsFor(t, p.task) });
      await s.ok({ op: 'observe', step: t, groups: next.batch.map((p: Pick) => ({ task: p.task, rewards: rewardsFor(t, p.task) })) });
    }
    // A pure function of (step, history before it, configuration): asking again for an old step repeats it.
    expect(JSON.stringify((await s.ok({ op: 'next', step: 4 })).result.batch)).toBe(batches[4]);
    expect(new Set(batches).size).toBeGreaterThan(1);
    await s.close();
  });
});

describe('a run survives kill -9', () => {
  it('a restart with the same log gives the same later batches, bit for bit, as an uninterrupted run', async () => {
    const steps = 30;
    const killAt = 13;
    const run = async (s: ServeProcess, from: number, to: number, out: string[]) => {
      for (let t = from; t < to; t++) {
        const next = (await s.ok({ op: 'next', step: t, extras: 4 })).result;
        out.push(JSON.stringify([next.batch, next.extras, next.relaxed]));
        await s.ok({ op: 'observe', step: t, groups: next.batch.map((p: Pick) => ({ task: p.task, rewards: rewardsFor(t, p.task) })) });
      }
    };
    const whole: string[] = [];
    const a = serve(['--graph', RL, '--log', join(dir, 'whole.jsonl')]);
    await run(a, 0, steps, whole);
    await a.close();

    const log = join(dir, 'killed.jsonl');
    const parts: string[] = [];
    const b = serve(['--graph', RL, '--log', log]);
    await run(b, 0, killAt, parts);
    // The observe of step killAt is in flight when the process dies: it may or may not be committed.
    const next = (await b.ok({ op: 'next', step: killAt, extras: 4 })).result;
    parts.push(JSON.stringify([next.batch, next.extras, next.relaxed]));
    b.child.stdin.write(
      `${JSON.stringify({ op: 'observe', step: killAt, groups: next.batch.map((p: Pick) => ({ task: p.task, rewards: rewardsFor(killAt, p.task) })) })}\n`,
    );
    b.child.kill('SIGKILL');
    await b.exited;
    // and a torn, unacknowledged line at the end of the log, as a crash mid-write leaves it
    appendFileSync(log, '{"op":"observe","step":99,"gro');

    const c = serve(['--graph', RL, '--log', log]);
    const snap = (await c.ok({ op: 'snapshot' })).result;
    expect([killAt - 1, killAt]).toContain(snap.lastStep);
    expect(c.stderr).toMatch(/dropped an unacknowledged partial line/);
    if (snap.lastStep === killAt - 1) {
      await c.ok({
        op: 'observe',
        step: killAt,
        groups: next.batch.map((p: Pick) => ({ task: p.task, rewards: rewardsFor(killAt, p.task) })),
      });
    }
    await run(c, killAt + 1, steps, parts);
    expect(parts).toEqual(whole);
    expect((await c.ok({ op: 'snapshot' })).result.historyDigest).toBe(
      await (async () => {
        const d = serve(['--graph', RL, '--log', join(dir, 'whole.jsonl')]);
        const r = (await d.ok({ op: 'snapshot' })).result.historyDigest as string;
        await d.close();
        return r;
      })(),
    );
    await c.close();
  });

  it('logs configuration changes and replays them; a different --config on a restart is refused', async () => {
    const log = join(dir, 'config-log.jsonl');
    const config = join(dir, 'b5.json');
    writeFileSync(config, JSON.stringify({ B: 5 }));
    const a = serve(['--graph', TINY, '--config', config, '--log', log]);
    for (let t = 0; t < 3; t++) {
      const next = (await a.ok({ op: 'next', step: t })).result;
      await a.ok({ op: 'observe', step: t, groups: next.batch.map((p: Pick) => ({ task: p.task, rewards: rewardsFor(t, p.task) })) });
    }
    await a.ok({ op: 'config', set: { rho: 0.2, lambda_sim: 0.3 } });
    const expected = JSON.stringify((await a.ok({ op: 'next', step: 3 })).result.batch);
    await a.close();
    const b = serve(['--graph', TINY, '--config', config, '--log', log]); // the same command line resumes
    expect((await b.ok({ op: 'config' })).result.config).toMatchObject({ B: 5, rho: 0.2, lambda_sim: 0.3 });
    expect(JSON.stringify((await b.ok({ op: 'next', step: 3 })).result.batch)).toBe(expected);
    await b.close();
    writeFileSync(config, JSON.stringify({ B: 7 }));
    const c = serve(['--graph', TINY, '--config', config, '--log', log]);
    expect(await c.exited).toBe(2);
    expect(c.stderr).toMatch(/b5\.json:B: differs from the configuration the log .* started with \(5\)/);
  });

  it('refuses a log written for another graph, naming the log', async () => {
    const log = join(dir, 'tiny-log.jsonl');
    const s = serve(['--graph', TINY, '--log', log]);
    await s.ok({ op: 'snapshot' });
    await s.close();
    const other = serve(['--graph', RL, '--log', log]);
    expect(await other.exited).toBe(2);
    expect(other.stderr).toMatch(/tiny-log\.jsonl:1:graph: the log was written for graph "tiny"/);
  });
});

/** A seeded generator for the hostile requests (xorshift32). */
function generator(seed: number) {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)] };
}

describe('hostile requests', () => {
  it('10,000 generated bad requests each get a structured error; the server lives on with its state unchanged', async () => {
    const s = serve(['--graph', TINY]);
    const ids = JSON.parse(readFileSync(join(ROOT, 'datasets/tiny/tiny.graph.json'), 'utf8')).tasks.map(
      (t: { id: string }) => t.id,
    ) as string[];
    for (let t = 0; t < 3; t++) {
      const next = (await s.ok({ op: 'next', step: t })).result;
      await s.ok({ op: 'observe', step: t, groups: next.batch.map((p: Pick) => ({ task: p.task, rewards: rewardsFor(t, p.task) })) });
    }
    const before = JSON.stringify((await s.ok({ op: 'snapshot' })).result);
    const nextBefore = JSON.stringify((await s.ok({ op: 'next', step: 3, extras: 5 })).result);
    const g = generator(20261201);
    const good = (step: number) => ({ op: 'observe', step, groups: [{ task: ids[0], rewards: [0, 1] }] });
    const makers: (() => string)[] = [
      // malformed JSON
      () => JSON.stringify(good(3)).slice(0, 1 + g.int(40)),
      () => Array.from({ length: 1 + g.int(30) }, () => String.fromCharCode(33 + g.int(90))).join(''),
      () => '{"op": "next",}',
      () => '[1, 2',
      // not an object, unknown operations, unknown fields, bad versions and ids
      () => JSON.stringify(g.pick([1, 'next', null, [], [{ op: 'next' }], true])),
      () => JSON.stringify({ op: g.pick(['', 'nxt', 'OBSERVE', 'delete', '__proto__', 'constructor', 'toString']) }),
      () => JSON.stringify({ id: g.int(1e6) }),
      () => JSON.stringify({ op: 'next', step: 3, bogus: 1 }),
      () => JSON.stringify({ v: g.pick([0, 2, '1', null]), op: 'next' }),
      () => JSON.stringify({ id: g.pick([{}, [], true, 'x'.repeat(300)]), op: 'next' }),
      // wrong types
      () => JSON.stringify({ op: 'observe', step: g.pick(['3', -1, 1.5, null, 1e12, true, []]), groups: good(3).groups }),
      () => JSON.stringify({ op: 'observe', step: 3, groups: g.pick([{}, 'x', null, 3, [], [1], [null], [[ids[0], [1]]]]) }),
      () => JSON.stringify({ op: 'observe', step: 3, groups: [{ task: g.pick([3, null, [], {}]), rewards: [0, 1] }] }),
      () =>
        JSON.stringify({
          op: 'observe',
          step: 3,
          groups: [{ task: ids[g.int(ids.length)], rewards: g.pick(['x', [], null, [true], ['0.5'], [[0]], {}]) }],
        }),
      () =>
        JSON.stringify({
          op: 'observe',
          step: 3,
          groups: [{ task: ids[1], rewards: [0, 1], flags: g.pick([[1, 0], [true], 'yes', [true, 'no']]) }],
        }),
      () =>
        JSON.stringify({ op: 'observe', step: 3, groups: [{ task: ids[1], rewards: [0, 1], cost: g.pick([-1, 'x', null, [], 1e400]) }] }),
      () => JSON.stringify({ op: 'observe', step: 3, groups: [{ task: ids[1], rewards: [0, 1], extra: 1 }] }),
      () => JSON.stringify({ op: 'next', step: g.pick(['0', -2, 0.5, {}, 2e9]) }),
      () => JSON.stringify({ op: 'next', step: 3, extras: g.pick([-1, 0.5, '2', 1e9, null]) }),
      () => JSON.stringify({ op: 'scores', tasks: g.pick(['x', 5, {}, [3], ['nope']]) }),
      () =>
        JSON.stringify({
          op: 'config',
          set: g.pick([{ rho: 2 }, { B: 0 }, { scheduler: 'dapo' }, { nope: 1 }, 'x', [], { alpha: [1] }, { seed: -1 }]),
        }),
      () => JSON.stringify({ op: 'history', from: g.pick([-1, 'x', 0.5]) }),
      () => JSON.stringify({ op: 'simulate', step: g.pick([1, 5, -1, 'x']), tasks: [ids[0]] }),
      () => JSON.stringify({ op: 'simulate', step: 0, tasks: g.pick([[], 'x', ['nope'], [ids[0], ids[0]], [1]]) }),
      // huge arrays
      () => JSON.stringify({ op: 'observe', step: 3, groups: ids.concat(ids).map((task) => ({ task, rewards: [0, 1] })) }),
      () => JSON.stringify({ op: 'observe', step: 3, groups: [{ task: ids[2], rewards: new Array(65_537).fill(0.5) }] }),
      () => JSON.stringify({ op: 'scores', tasks: new Array(ids.length + 1 + g.int(1000)).fill(ids[0]) }),
      // unknown tasks, duplicate tasks, steps observed twice or out of order, rewards outside [0, 1]
      () => JSON.stringify({ op: 'observe', step: 3, groups: [{ task: `task-${g.int(1e6)}`, rewards: [0, 1] }] }),
      () =>
        JSON.stringify({
          op: 'observe',
          step: 3,
          groups: [
            { task: ids[4], rewards: [0, 1] },
            { task: ids[4], rewards: [1, 1] },
          ],
        }),
      () => JSON.stringify(good(g.int(3))),
      () => JSON.stringify({ op: 'observe', step: 3, groups: [{ task: ids[5], rewards: [0, g.pick([1.5, -0.1, 2, -1e-9, 1 + 1e-12])] }] }),
      () => '{"op": "observe", "step": 3, "groups": [{"task": "' + ids[6] + '", "rewards": [0, 1e999]}]}',
    ];
    const requests: string[] = [];
    for (let k = 0; k < 10_000; k++) requests.push(g.pick(makers)());
    const answers = await Promise.all(requests.map((r) => s.sendRaw(r)));
    // one request larger than the limit, never held in memory whole
    const huge = await s.sendRaw(`{"op":"observe","step":3,"groups":[${'0,'.repeat(9_000_000)}0]}`);
    const bad = answers.filter(
      (a) => a.ok || !a.error || !/^request/.test(a.error.source) || a.error.place === '' || a.error.problem === '',
    );
    expect(bad.slice(0, 3)).toEqual([]);
    expect(huge).toMatchObject({ ok: false, error: { place: '(request)', problem: expect.stringMatching(/larger than/) } });
    const kinds = new Set(answers.map((a: ServeResponse) => a.error?.place.replace(/\d+/g, 'N')));
    expect(kinds.size).toBeGreaterThan(20);
    expect(JSON.stringify((await s.ok({ op: 'snapshot' })).result)).toBe(before);
    expect(JSON.stringify((await s.ok({ op: 'next', step: 3, extras: 5 })).result)).toBe(nextBefore);
    await s.ok(good(3));
    await s.close();
  });
});

describe('HTTP on loopback', () => {
  it('answers the same requests POSTed to 127.0.0.1, and refuses other addresses', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--graph', TINY, '--listen', '127.0.0.1:0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const url = await new Promise<string>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(stderr);
        if (m) resolve(m[1]);
      }),
    );
    const post = async (body: unknown) => {
      const r = await fetch(url, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as ServeResponse };
    };
    const next = await post({ id: 'a', op: 'next', step: 0 });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ v: 1, id: 'a', ok: true, op: 'next' });
    const bad = await post({ id: 7, op: 'observe', step: 0, groups: [{ task: 'nope', rewards: [1] }] });
    expect(bad).toMatchObject({ status: 400, body: { id: 7, ok: false, error: { source: 'request 7', place: 'groups[0].task' } } });
    expect((await post({ op: 'shutdown' })).status).toBe(200);
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);

    const cli = await runCli(['serve', '--graph', TINY, '--listen', '0.0.0.0:8765']);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(/--listen: must be a loopback address/);
  });
});
