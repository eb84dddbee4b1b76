// Validates a graph file's `sim` field (src/engine/sim-params.ts schema) before it is packed, so a
// malformed pool becomes an InputError naming the field (never a WASM trap).
import { InputError } from '../engine/errors.ts';
import { isPlainObject } from '../engine/json-text.ts';
import type { SimGate, SimHeldoutSuite, SimParams, SimTask } from '../engine/sim-params.ts';
import type { GraphMeta } from '../engine/types.ts';

function fail(source: string, place: string, problem: string): never {
  throw new InputError(source, place, problem);
}

function int(value: unknown, source: string, place: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(source, place, `must be an integer in [${min}, ${max}], got ${JSON.stringify(value)}`);
  }
  return value;
}

function strings(value: unknown, source: string, place: string): string[] {
  if (!Array.isArray(value) || value.some((s) => typeof s !== 'string')) fail(source, place, 'must be a list of strings');
  return value as string[];
}

function readTask(raw: unknown, source: string, place: string, nFamilies: number, nTypes: number): SimTask & { env?: number } {
  if (!isPlainObject(raw)) fail(source, place, 'must be an object');
  if (!Array.isArray(raw.gates)) fail(source, `${place}.gates`, 'must be a list of gates');
  const gates: SimGate[] = raw.gates.map((g, k) => {
    const gp = `${place}.gates[${k}]`;
    if (!isPlainObject(g)) fail(source, gp, 'must be an object');
    if (typeof g.difficulty !== 'number' || !Number.isFinite(g.difficulty)) fail(source, `${gp}.difficulty`, 'must be a finite number');
    if (g.noise !== undefined && (typeof g.noise !== 'number' || !Number.isFinite(g.noise)))
      fail(source, `${gp}.noise`, 'must be a finite number when given');
    const gate: SimGate = {
      family: int(g.family, source, `${gp}.family`, 0, nFamilies - 1),
      type: int(g.type, source, `${gp}.type`, 0, Math.max(0, nTypes - 1)),
      difficulty: g.difficulty,
      checks: int(g.checks, source, `${gp}.checks`, 1, 1_000_000),
    };
    if (typeof g.noise === 'number') gate.noise = g.noise;
    return gate;
  });
  const initiallySatisfied = int(raw.initiallySatisfied ?? 0, source, `${place}.initiallySatisfied`, 0, 1_000_000);
  if (raw.exploitable !== undefined && typeof raw.exploitable !== 'boolean') fail(source, `${place}.exploitable`, 'must be true or false');
  const total = gates.reduce((s, g) => s + g.checks, initiallySatisfied);
  if (total < 1) fail(source, place, 'a task needs at least one check (its reward is a fraction of checks)');
  return { gates, initiallySatisfied, exploitable: raw.exploitable === true };
}

/** Parameters already read, per graph: a loaded graph is immutable, and every run of it reads the same. */
const readBefore = new WeakMap<GraphMeta, SimParams>();

/**
 * Reads `meta.sim` (SPEC 12 `sim`, schema src/engine/sim-params.ts); InputError when absent or
 * malformed. The result is shared by every run of the graph: treat it as read-only.
 */
export function readSimParams(meta: GraphMeta, source: string): SimParams {
  let params = readBefore.get(meta);
  if (!params) readBefore.set(meta, (params = readSimParamsOnce(meta, source)));
  return params;
}

function readSimParamsOnce(meta: GraphMeta, source: string): SimParams {
  const raw = meta.sim;
  if (!isPlainObject(raw))
    fail(source, 'sim', 'this graph has no simulator parameters (`sim`), so it can be scored but not simulated (SPEC 12)');
  if (raw.version !== 1) fail(source, 'sim.version', `unsupported simulator parameters version ${JSON.stringify(raw.version)}`);
  const families = strings(raw.families, source, 'sim.families');
  const gateTypes = strings(raw.gateTypes ?? [], source, 'sim.gateTypes');
  if (families.length === 0) fail(source, 'sim.families', 'must name at least one operation family');
  if (!Array.isArray(raw.tasks)) fail(source, 'sim.tasks', 'must be a list with one entry per task');
  if (raw.tasks.length !== meta.tasks.length)
    fail(source, 'sim.tasks', `has ${raw.tasks.length} entries, expected one per task (${meta.tasks.length})`);
  const tasks = raw.tasks.map((t, i) => {
    const task = readTask(t, source, `sim.tasks[${i}]`, families.length, gateTypes.length);
    const declared = meta.tasks[i].checks;
    const total = task.gates.reduce((s, g) => s + g.checks, task.initiallySatisfied);
    if (declared > 0 && declared !== total)
      fail(source, `sim.tasks[${i}]`, `checks add up to ${total}, but tasks[${i}].checks is ${declared}`);
    return task;
  });
  const heldoutRaw = raw.heldout ?? [];
  if (!Array.isArray(heldoutRaw)) fail(source, 'sim.heldout', 'must be a list of suites');
  const heldout: SimHeldoutSuite[] = heldoutRaw.map((s, k) => {
    const place = `sim.heldout[${k}]`;
    if (!isPlainObject(s)) fail(source, place, 'must be an object');
    if (typeof s.name !== 'string') fail(source, `${place}.name`, 'must be a string');
    if (!Array.isArray(s.envs) || s.envs.length === 0) fail(source, `${place}.envs`, 'must be a non-empty list of environments');
    if (!Array.isArray(s.tasks) || s.tasks.length === 0) fail(source, `${place}.tasks`, 'must be a non-empty list of tasks');
    const envs = s.envs.map((e, j) => {
      if (!isPlainObject(e) || typeof e.id !== 'string') fail(source, `${place}.envs[${j}]`, 'must be an object with an id');
      return { id: e.id, name: typeof e.name === 'string' ? e.name : e.id, category: typeof e.category === 'string' ? e.category : null };
    });
    const suiteTasks = s.tasks.map((t, j) => {
      const tp = `${place}.tasks[${j}]`;
      const task = readTask(t, source, tp, families.length, gateTypes.length);
      const env = int((t as Record<string, unknown>).env, source, `${tp}.env`, 0, envs.length - 1);
      return { ...task, env };
    });
    return { name: s.name, envs, tasks: suiteTasks };
  });
  return { version: 1, families, gateTypes, tasks, heldout };
}
