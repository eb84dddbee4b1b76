import { describe, expect, it } from 'vitest';
import { Pcg32 } from '../src/pool/rng.ts';
import { generatePool, poolFiles, type GeneratedPool } from '../src/pool/generate.ts';
import { DEFAULT_INSPECTION } from '../src/pool/tasks.ts';

/** PCG32 written the obvious way with BigInt: the reference the fast port must match. */
function referencePcg(seed: number, stream: number) {
  const M = 6364136223846793005n;
  const MASK = (1n << 64n) - 1n;
  let state = 0n;
  const inc = ((BigInt(stream) << 1n) | 1n) & MASK;
  const next = () => {
    const old = state;
    state = (old * M + inc) & MASK;
    const xorshifted = Number((((old >> 18n) ^ old) >> 27n) & 0xffffffffn);
    const rot = Number(old >> 59n);
    return ((xorshifted >>> rot) | (xorshifted << ((32 - rot) & 31))) >>> 0;
  };
  next();
  state = (state + BigInt(seed >>> 0)) & MASK;
  next();
  return next;
}

describe('PCG32 port (src/pool/rng.ts)', () => {
  it('gives the same outputs as a BigInt reference for several seeds and streams', () => {
    for (const [seed, stream] of [
      [0, 0],
      [42, 54],
      [0xffffffff, 0x7fffffff],
      [123456, 1_000_001],
    ]) {
      const fast = new Pcg32(seed, stream);
      const ref = referencePcg(seed, stream);
      for (let k = 0; k < 200; k++) expect(fast.nextU32()).toBe(ref());
    }
  });

  it('draws bounded integers in range, all values reachable', () => {
    const rng = new Pcg32(7, 3);
    const seen = new Set<number>();
    for (let k = 0; k < 2000; k++) {
      const x = rng.below(7);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(7);
      seen.add(x);
    }
    expect(seen.size).toBe(7);
  });
});

describe('generate-pool', () => {
  const pool = generatePool({ envs: 40, tasksPerEnv: 25, seed: 3 });
  const scenarios = pool.scenarios as {
    env_id: string;
    task_id: string;
    task: string;
    init_config: Record<string, unknown>;
    checklist_with_func: { check_item: string; check_func: string }[];
  }[];

  it('writes release-shaped environment records', () => {
    const env = Object.values(pool.envMetadata)[0] as Record<string, unknown>;
    for (const key of [
      'env_id',
      'env_class_name',
      'environment_summary',
      'environment_introduction',
      'state_space_definition',
      'constraints_rules',
      'operation_list',
      'tools',
      'env_class_code',
    ])
      expect(env).toHaveProperty(key);
    expect(String(env.env_id)).toMatch(/^env_\d+_rl$/);
    const tools = env.tools as {
      type: string;
      function: { name: string; parameters: { type: string; properties: object; required: string[] } };
    }[];
    expect(tools[0].type).toBe('function');
    expect(tools[0].function.parameters.type).toBe('object');
    const code = String(env.env_class_code);
    expect(code).toContain(`class ${String(env.env_class_name)}:`);
    for (const t of tools) expect(code).toContain(`def ${t.function.name}(self`);
    expect(code).toMatch(/self\.\w+\.get\(/);
  });

  it('has 10-31 operations per environment with a mean near the release (18.6)', () => {
    const big = generatePool({ envs: 191, tasksPerEnv: 1, seed: 5 });
    const counts = Object.values(big.envMetadata).map((e) => (e.operation_list as unknown[]).length);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...counts)).toBeLessThanOrEqual(31);
    const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
    expect(mean).toBeGreaterThan(17.6);
    expect(mean).toBeLessThan(19.6);
    expect(new Set(Object.values(big.envMetadata).map((e) => e.env_class_name)).size).toBe(191);
    expect(new Set(Object.values(big.categories)).size).toBeGreaterThanOrEqual(15);
  });

  it('has 2-40 checks per task, median about 14, about 15% already true', () => {
    const checks = scenarios.map((s) => s.checklist_with_func.length).sort((a, b) => a - b);
    expect(checks[0]).toBeGreaterThanOrEqual(2);
    expect(checks[checks.length - 1]).toBeLessThanOrEqual(40);
    expect(checks[checks.length >> 1]).toBeGreaterThanOrEqual(12);
    expect(checks[checks.length >> 1]).toBeLessThanOrEqual(16);
    const initial = pool.sim.tasks.reduce((a, t) => a + t.initiallySatisfied, 0);
    const fraction = initial / checks.reduce((a, b) => a + b, 0);
    expect(fraction).toBeGreaterThan(0.11);
    expect(fraction).toBeLessThan(0.19);
  });

  it('makes checks add up: sum(gate.checks) + initiallySatisfied = number of check functions', () => {
    expect(pool.sim.tasks.length).toBe(scenarios.length);
    expect(pool.sim.taskIds).toEqual(scenarios.map((s) => s.task_id));
    scenarios.forEach((s, i) => {
      const t = pool.sim.tasks[i];
      expect(t.gates.length).toBeGreaterThan(0);
      for (const g of t.gates) expect(g.checks).toBeGreaterThanOrEqual(1);
      expect(t.gates.reduce((a, g) => a + g.checks, 0) + t.initiallySatisfied).toBe(s.checklist_with_func.length);
    });
  });

  it('writes Python check functions over final_state, some reading initial_state, and instructions naming records', () => {
    const funcs = scenarios.flatMap((s) => s.checklist_with_func.map((c) => c.check_func));
    for (const f of funcs) expect(f.startsWith('def check_func(final_state):\n')).toBe(true);
    const readsInitial = funcs.filter((f) => f.includes('initial_state')).length / funcs.length;
    expect(readsInitial).toBeGreaterThan(0.03);
    expect(readsInitial).toBeLessThan(0.5);
    // Every instruction names at least one record of its initial state (an id or a label in quotes).
    for (const s of scenarios.slice(0, 100)) expect(s.task).toMatch(/“[^”]+”|[A-Z]{1,5}-?\d{2,}|[0-9a-f]{8}-/);
  });

  it('gives difficulty that follows structure: identical chains are closer in difficulty than random pairs', () => {
    const key = (i: number) => pool.sim.tasks[i].gates.map((g) => `${g.family}/${g.type}`).join(',');
    const diff = (i: number) => pool.sim.tasks[i].gates.reduce((a, g) => a + g.difficulty, 0) / pool.sim.tasks[i].gates.length;
    let same = 0;
    let sameN = 0;
    let any = 0;
    let anyN = 0;
    const n = pool.sim.tasks.length;
    for (let i = 0; i < n; i += 3) {
      for (let j = i + 1; j < n; j += 7) {
        const d = Math.abs(diff(i) - diff(j));
        any += d;
        anyN++;
        if (key(i) === key(j)) {
          same += d;
          sameN++;
        }
      }
    }
    expect(sameN).toBeGreaterThan(20);
    expect(same / sameN).toBeLessThan((0.9 * any) / anyN);
  });

  it('generates three held-out suites of 4 unseen environments x 10 tasks', () => {
    expect(pool.sim.heldout.map((s) => s.name)).toEqual(['bfcl-like', 'tau-like', 'acebench-like']);
    const poolNames = new Set(Object.values(pool.envMetadata).map((e) => e.env_class_name));
    for (const suite of pool.sim.heldout) {
      expect(suite.envs).toHaveLength(4);
      expect(suite.tasks).toHaveLength(40);
      for (const e of suite.envs) expect(poolNames.has(e.name)).toBe(false);
    }
  });

  it('is deterministic: the same seed gives the same bytes, another seed other bytes', () => {
    const a = poolFiles(generatePool({ envs: 6, tasksPerEnv: 8, seed: 11 }));
    const b = poolFiles(generatePool({ envs: 6, tasksPerEnv: 8, seed: 11 }));
    const c = poolFiles(generatePool({ envs: 6, tasksPerEnv: 8, seed: 12 }));
    expect(a).toEqual(b);
    expect(a['rl_scenario_metadata.json']).not.toEqual(c['rl_scenario_metadata.json']);
  });
});

describe('inspection calls (read-only tools besides the gated operations)', () => {
  /** Per task: the tools of its gated operations (those a reward group requires), and all its tools. */
  function toolSets(pool: GeneratedPool): { env: string; gated: string; all: string }[] {
    return Object.entries(pool.topology).map(([id, topo]) => {
      const required = new Set(topo.reward_groups.flatMap((g) => g.requires));
      const tools = (ops: typeof topo.operations) => [...new Set(ops.map((o) => o.tool))].sort().join(',');
      return { env: id.split('-task_')[0], gated: tools(topo.operations.filter((o) => required.has(o.id))), all: tools(topo.operations) };
    });
  }
  /** Pairs of one environment with the same gated tools, and how many of them differ in their inspected tools. */
  function sameGatedPairs(pool: GeneratedPool): { pairs: number; differing: number } {
    const tasks = toolSets(pool);
    let pairs = 0;
    let differing = 0;
    for (let i = 0; i < tasks.length; i++)
      for (let j = i + 1; j < tasks.length; j++)
        if (tasks[i].env === tasks[j].env && tasks[i].gated === tasks[j].gated) {
          pairs++;
          if (tasks[i].all !== tasks[j].all) differing++;
        }
    return { pairs, differing };
  }
  const opts = { envs: 6, tasksPerEnv: 50, seed: 3 };

  it('the bundled draw is the default: naming it changes no byte of the pool', () => {
    expect(poolFiles(generatePool({ ...opts, inspection: { ...DEFAULT_INSPECTION } }))).toEqual(poolFiles(generatePool(opts)));
  });

  it("'related' scope without extra calls: tasks about the same records inspect the same tools (the bundled draw does not)", () => {
    const related = sameGatedPairs(generatePool({ ...opts, inspection: { trials: 0, p: 0.5, scope: 'related' } }));
    const bundled = sameGatedPairs(generatePool(opts));
    expect(related.pairs).toBeGreaterThan(20);
    expect(related.differing).toBe(0);
    expect(bundled.differing).toBeGreaterThan(0);
  });

  it('more calls, more tools per task', () => {
    const perTask = (pool: GeneratedPool) => toolSets(pool).reduce((s, t) => s + t.all.split(',').length, 0) / pool.scenarios.length;
    const none = perTask(generatePool({ ...opts, inspectionCalls: false }));
    const few = perTask(generatePool({ ...opts, inspection: { trials: 4, p: 0.5, scope: 'environment' } }));
    const bundled = perTask(generatePool(opts));
    expect(none).toBeLessThan(few);
    expect(few).toBeLessThan(bundled);
  });
});
