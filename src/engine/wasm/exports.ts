// The raw exports of build/envsched.wasm that src/engine uses (assembly/scheduler,
// assembly/common). Other folders' exports (sim_*, base_*, rng_*) are reachable through the index
// signature and typed by their own drivers. The test hooks are exported by the test build only
// (build/envsched.test.wasm, test/helpers/test-wasm.ts).

export interface SchedulerExports {
  memory: WebAssembly.Memory;
  mem_alloc(bytes: number): number;
  mem_reset(): void;
  sched_graph_init(nTasks: number, nEnvs: number, nCats: number, nnzWithin: number, nnzCross: number, nnzFull: number): void;
  sched_graph_ready(): void;
  sched_history_clear(): void;
  sched_history_reserve(observations: number, steps: number): void;
  sched_reward_buffer(k: number): void;
  sched_stage_group(task: number, k: number, hasFlags: number): void;
  sched_stage_stats(task: number, m: number, v: number, d: number, removes: number): void;
  sched_stage_discard(): void;
  sched_commit_step(step: number): void;
  sched_obs_count(): number;
  sched_last_step(): number;
  sched_config_set(slot: number, value: number): void;
  sched_score(step: number): number;
  sched_ptr(slot: number): number;
  /** NativeMath exp / pow / log as compiled into the module (for the reference: tests, the inspector). */
  sched_math_exp(x: number): number;
  sched_math_pow(x: number, y: number): number;
  sched_math_log(x: number): number;
  /** FNV-1a 32-bit of len bytes at ptr, continuing from hash (binary graph checksum). */
  sched_fnv1a(ptr: number, len: number, hash: number): number;
}

export type EnvschedExports = SchedulerExports & { readonly [name: string]: unknown };

const REQUIRED: readonly (keyof SchedulerExports)[] = [
  'memory',
  'mem_alloc',
  'mem_reset',
  'sched_graph_init',
  'sched_graph_ready',
  'sched_history_clear',
  'sched_history_reserve',
  'sched_reward_buffer',
  'sched_stage_group',
  'sched_stage_stats',
  'sched_stage_discard',
  'sched_commit_step',
  'sched_obs_count',
  'sched_last_step',
  'sched_config_set',
  'sched_score',
  'sched_ptr',
  'sched_math_exp',
  'sched_math_pow',
  'sched_math_log',
  'sched_fnv1a',
];

/** Checks that an instance has every scheduler export (a stale build fails here, by name). */
export function asEnvschedExports(exports: WebAssembly.Exports): EnvschedExports {
  for (const name of REQUIRED) {
    const value = (exports as Record<string, unknown>)[name];
    const ok = name === 'memory' ? value instanceof WebAssembly.Memory : typeof value === 'function';
    if (!ok) throw new Error(`envsched.wasm: missing export ${name} (rebuild with npm run build:wasm)`);
  }
  return exports as unknown as EnvschedExports;
}
