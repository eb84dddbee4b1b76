// One generated RL scenario: an initial state, an instruction built from a chain of operations
// with gates, its checklist (Python check functions), the Appendix E topology an ideal annotator
// would return for it, and the simulator's hidden parameters (SPEC 10).
import type { Pcg32 } from './rng.ts';
import type { SimGate, SimTask } from '../engine/sim-params.ts';
import { capacityAttr, refAttrs, FAMILIES, type Family, type GeneratedEnv, type Operation } from './environment.ts';
import {
  approvalValue,
  attrValue,
  makeId,
  otherValue,
  person,
  statusAttr,
  type Attr,
  type DataRecord,
  type Entity,
  type RecordValue,
} from './model.ts';

export const GATE_TYPES = [
  'identifier_resolution',
  'state_precondition',
  'authorisation',
  'parameter_derivation',
  'capacity_constraint',
  'ordering',
  'state_change',
] as const;
export type GateType = (typeof GATE_TYPES)[number];
export type Provenance = 'instruction' | 'initial_state' | 'prior_output';

// SPEC 10: difficulty = visible structure + noise. Effects on the logit scale (higher = harder).
const FAMILY_EFFECT: Record<Family, number> = {
  lookup: -0.7,
  validate: -0.2,
  authorise: 0.4,
  update: -0.3,
  create: 0.3,
  delete: -0.2,
  link: 0.5,
  schedule: 0.5,
  compute: 0.8,
};
const TYPE_EFFECT: Record<GateType, number> = {
  identifier_resolution: 0.3,
  state_precondition: 0.5,
  authorisation: 0.6,
  parameter_derivation: 0.9,
  capacity_constraint: 0.8,
  ordering: 0.4,
  state_change: 0,
};
const PROVENANCE_EFFECT: Record<Provenance, number> = { instruction: 0, initial_state: 0.3, prior_output: 0.6 };

export interface TopologyOperation {
  id: string;
  tool: string;
  family: string;
  arguments: Record<string, RecordValue>;
  count: number;
  depends_on: string[];
}
export interface TopologyGate {
  id: string;
  type: string;
  provenance: string;
  operation: string;
}
export interface TopologyRewardGroup {
  id: string;
  checks: number[];
  requires: string[];
  relation: string;
}
export interface TopologyConflict {
  operations: string[];
  with: string;
  reason: string;
}
/** The Appendix E description of one task (docs/graph.md defines the accepted shape). */
export interface Topology {
  operations: TopologyOperation[];
  gates: TopologyGate[];
  reward_groups: TopologyRewardGroup[];
  conflicts: TopologyConflict[];
}

export interface GeneratedTask {
  scenario: Record<string, unknown>;
  topology: Topology;
  sim: SimTask;
}

interface Check {
  item: string;
  func: string;
}

interface PlannedGate {
  family: Family;
  type: GateType;
  provenance: Provenance;
  op: Operation;
  checks: number;
}

interface Subtask {
  write: Operation;
  gates: PlannedGate[];
}

function py(value: RecordValue): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

function quote(value: RecordValue): string {
  return typeof value === 'string' ? `“${value}”` : String(value);
}

function words(name: string): string {
  return name.replace(/_/g, ' ');
}

function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Total checks: log-normal around the release's median (14), within [2, 40]. */
function checkCount(rng: Pcg32): number {
  return Math.max(2, Math.min(40, Math.round(Math.exp(Math.log(13.6) + 0.55 * rng.normal()))));
}

function binomial(n: number, p: number, rng: Pcg32): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (rng.chance(p)) k++;
  return k;
}

class State {
  readonly data = new Map<string, Map<string, DataRecord>>();
  private serial = new Map<string, number>();
  constructor(
    private readonly env: GeneratedEnv,
    private readonly rng: Pcg32,
  ) {}

  ids(entity: string): string[] | undefined {
    const e = this.env.entities.find((x) => x.name === entity);
    return e ? [...this.data.get(e.collection)!.keys()] : undefined;
  }

  nextId(e: Entity): string {
    const next = (this.serial.get(e.name) ?? this.rng.int(1, 300)) + 1;
    this.serial.set(e.name, next);
    return makeId(e, next, this.rng);
  }

  /** A fresh record with a label unique in its collection. */
  makeRecord(e: Entity, present: ReadonlySet<string>): DataRecord {
    const coll = this.data.get(e.collection)!;
    const id = this.nextId(e);
    for (let attempt = 0; ; attempt++) {
      const who = person(this.rng);
      const rec: DataRecord = { [e.idField]: id };
      for (const a of e.attrs) {
        if (a.kind === 'ref' && !present.has(a.args[0])) continue;
        const v = attrValue(a, this.rng, who, (name) => this.ids(name));
        if (v !== undefined) rec[a.name] = v;
      }
      const label = e.label ? rec[e.label] : undefined;
      const clash = label !== undefined && [...coll.values()].some((r) => r[e.label!] === label);
      if (!clash) return rec;
      if (attempt >= 6 && typeof label === 'string') {
        rec[e.label!] = `${label} ${coll.size + 1}`;
        return rec;
      }
    }
  }

  add(e: Entity, present: ReadonlySet<string>): DataRecord {
    const rec = this.makeRecord(e, present);
    this.data.get(e.collection)!.set(String(rec[e.idField]), rec);
    return rec;
  }
}

function findOp(env: GeneratedEnv, name: string): Operation | undefined {
  return env.ops.find((o) => o.name === name);
}

function planSubtask(env: GeneratedEnv, write: Operation, index: number, rng: Pcg32): Subtask {
  const e = write.entity;
  const gates: PlannedGate[] = [];
  const present = new Set(env.entities.map((x) => x.name));
  if (write.family !== 'create') {
    const byLabel = e.label ? findOp(env, `find_${e.snake}_by_${e.label}`) : undefined;
    const ref = refAttrs(e, present)[0];
    const byRef = ref ? findOp(env, `list_${e.collection}_for_${ref.name.replace(/_id$/, '')}`) : undefined;
    if (byLabel && rng.chance(0.65))
      gates.push({ family: 'lookup', type: 'identifier_resolution', provenance: 'instruction', op: byLabel, checks: 1 });
    else if (byRef && rng.chance(0.3))
      gates.push({ family: 'lookup', type: 'identifier_resolution', provenance: 'prior_output', op: byRef, checks: 1 });
    const r = rng.nextF64();
    const st = statusAttr(e);
    const check = st ? findOp(env, `check_${e.snake}_${st.name}`) : undefined;
    const approve = findOp(env, `approve_${e.snake}`);
    const capHolder = env.entities.find((x) => capacityAttr(x));
    const compute = env.ops.find((o) => o.family === 'compute');
    const derivable = write.family === 'update' || write.family === 'link' || write.family === 'schedule';
    if (r < 0.3 && check && write.attr !== st)
      gates.push({ family: 'validate', type: 'state_precondition', provenance: 'initial_state', op: check, checks: 1 });
    else if (r < 0.5 && approve && write !== approve && write.attr !== st && write.family !== 'delete')
      gates.push({ family: 'authorise', type: 'authorisation', provenance: 'instruction', op: approve, checks: 1 });
    else if (r < 0.62 && capHolder && findOp(env, `get_${capHolder.snake}_by_id`))
      gates.push({
        family: 'lookup',
        type: 'capacity_constraint',
        provenance: 'initial_state',
        op: findOp(env, `get_${capHolder.snake}_by_id`)!,
        checks: 1,
      });
    else if (r < 0.78 && derivable && !write.value)
      gates.push({
        family: compute ? 'compute' : 'lookup',
        type: 'parameter_derivation',
        provenance: 'prior_output',
        op: compute ?? findOp(env, `get_${e.snake}_by_id`) ?? write,
        checks: 1,
      });
  }
  const ordered = index > 0 && rng.chance(0.35);
  gates.push({
    family: write.family,
    type: ordered ? 'ordering' : 'state_change',
    provenance: ordered ? 'prior_output' : 'instruction',
    op: write,
    checks: 1,
  });
  return { write, gates };
}

export interface TaskContext {
  env: GeneratedEnv;
  envIndex: number;
  /** Environment difficulty offset (visible through the environment and its category). */
  envEffect: number;
  taskId: string;
  rng: Pcg32;
  /**
   * The draws of the task's inspection calls (read-only tools an agent calls to look at the state
   * before acting, as EnvScaler's trajectories do); absent: no inspection calls (the generator
   * before they existed, byte for byte apart from the recorded noise).
   */
  inspectRng?: Pcg32;
  /** How the inspection calls are drawn (default `DEFAULT_INSPECTION`). */
  inspection?: InspectionDraw;
}

/**
 * How a task's inspection calls are drawn from its environment's read-only tools that its gated
 * operations do not already use (docs/graph.md, "What the inspection calls trade").
 */
export interface InspectionDraw {
  /** Calls ~ Binomial(trials, p), capped by the tools available. */
  trials: number;
  p: number;
  /**
   * `environment`: the tools of the entities the task writes, in random order, then any other of
   * the environment's; the Binomial count is taken from that list. `related`: every tool of the
   * written entities and of the entities linked to them (either way), then Binomial(trials, p) of
   * the others, so tasks about the same records inspect the same tools.
   */
  scope: 'environment' | 'related';
}

/** The bundled pools' draw: about 10 distinct tools per task and about 400 per random batch of 64. */
export const DEFAULT_INSPECTION: Readonly<InspectionDraw> = { trials: 16, p: 0.7, scope: 'environment' };

/**
 * A gate's difficulty: the visible structure (family, gate type, provenance, checks, environment)
 * plus noise no structure explains (`hidden`: the task's share, then the gate's own draw). `noise`
 * records that hidden part, so the simulator can scale it (docs/simulator.md, structure-determined
 * difficulty).
 */
export function gateDifficulty(
  g: { family: Family; type: GateType; provenance: Provenance; checks: number },
  base: number,
  hidden: number,
  rng: Pcg32,
): { difficulty: number; noise: number } {
  const own = 0.2 * rng.normal();
  const d =
    base + hidden + FAMILY_EFFECT[g.family] + TYPE_EFFECT[g.type] + PROVENANCE_EFFECT[g.provenance] + 0.3 * Math.log(g.checks) + own;
  return { difficulty: Math.round(d * 1e4) / 1e4, noise: Math.round((hidden + own) * 1e4) / 1e4 };
}

/** The entities, other than `written`, that a written entity refers to or that refer to one. */
function linkedEntities(env: GeneratedEnv, written: ReadonlySet<string>): Set<string> {
  const present = new Set(env.entities.map((e) => e.name));
  const linked = new Set<string>();
  for (const e of env.entities)
    for (const ref of refAttrs(e, present)) {
      if (written.has(e.name)) linked.add(ref.args[0]);
      if (written.has(ref.args[0])) linked.add(e.name);
    }
  for (const name of written) linked.delete(name);
  return linked;
}

export function generateTask(ctx: TaskContext): GeneratedTask {
  const { env, rng } = ctx;
  const present = new Set(env.entities.map((x) => x.name));
  const state = new State(env, rng);
  for (const e of env.entities) state.data.set(e.collection, new Map());
  // Referenced types first so references point at existing records.
  const order = [...env.entities].sort((a, b) => refAttrs(a, present).length - refAttrs(b, present).length);
  for (const e of order) {
    const n = rng.int(3, e === env.primary ? 7 : 5);
    for (let k = 0; k < n; k++) state.add(e, present);
  }

  let total = checkCount(rng);
  const writes = env.ops.filter((o) => o.opType === 'state_change');
  const maxSub = Math.max(1, Math.min(4, Math.floor(total / 3)));
  const nSub = Math.min(maxSub, 1 + binomial(3, 0.3, rng));
  const subtasks: Subtask[] = [];
  const used = new Set<string>();
  for (let s = 0; s < nSub; s++) {
    const primaryWrites = writes.filter((o) => o.entity === env.primary && !used.has(o.name));
    const pool = primaryWrites.length > 0 && rng.chance(0.6) ? primaryWrites : writes.filter((o) => !used.has(o.name));
    if (pool.length === 0) break;
    const write = rng.pick(pool);
    used.add(write.name);
    subtasks.push(planSubtask(env, write, s, rng));
  }
  const allGates = () => subtasks.flatMap((s) => s.gates);
  // Fit the gate chain into the check budget: drop side gates, then grow the budget.
  while (allGates().length > total - 1 && subtasks.some((s) => s.gates.length > 1)) {
    const s = subtasks.find((x) => x.gates.length > 1)!;
    s.gates.splice(s.gates.length - 2, 1);
  }
  total = Math.max(total, allGates().length);
  const initial = Math.min(binomial(total, 0.15, rng), total - allGates().length);
  let extra = total - initial - allGates().length;
  const gates = allGates();
  const weights = gates.map((g) => (g.type === 'state_change' || g.type === 'ordering' ? 3 : 1));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  while (extra-- > 0) {
    let r = rng.nextF64() * weightSum;
    let k = 0;
    while (k < gates.length - 1 && (r -= weights[k]) >= 0) k++;
    gates[k].checks++;
  }

  const checks: Check[] = [];
  const sentences: string[] = [];
  const topo: Topology = { operations: [], gates: [], reward_groups: [], conflicts: [] };
  const touched = new Set<string>(); // "collection/id" of records a subtask changes
  const staff = `STAFF-${100 + rng.below(900)}`;
  let opSerial = 0;
  let prevWriteOp: string | null = null;
  const simGates: SimGate[] = [];
  const taskNoise = 0.25 * rng.normal();

  for (const sub of subtasks) {
    const write = sub.write;
    const e = write.entity;
    const coll = state.data.get(e.collection)!;
    const nTargets = sub.gates.reduce((a, g) => a + g.checks, 0);
    const gateOf: PlannedGate[] = sub.gates.flatMap((g) => Array.from({ length: g.checks }, () => g));
    const resolution = sub.gates.find((g) => g.type === 'identifier_resolution');
    const precondition = sub.gates.find((g) => g.type === 'state_precondition');
    const authorisation = sub.gates.find((g) => g.type === 'authorisation');
    const capacity = sub.gates.find((g) => g.type === 'capacity_constraint');
    const derivation = sub.gates.find((g) => g.type === 'parameter_derivation');
    const ordering = sub.gates.find((g) => g.type === 'ordering');
    const st = statusAttr(e);
    const groupChecks: number[] = [];
    const opIds: string[] = [];
    const addOp = (op: Operation, args: Record<string, RecordValue>, count: number, deps: string[]): string => {
      const id = `op${++opSerial}`;
      topo.operations.push({ id, tool: op.name, family: op.family, arguments: args, count, depends_on: deps });
      opIds.push(id);
      return id;
    };

    let line = '';
    if (write.family === 'create') {
      // New records: one existence check and then field checks per record.
      const fields = e.attrs.filter((a) => a.kind !== 'ref' || present.has(a.args[0]));
      const made: DataRecord[] = [];
      let left = nTargets;
      let gi = 0;
      while (left > 0) {
        const rec = state.makeRecord(e, present);
        made.push(rec);
        const id = String(rec[e.idField]);
        const take = Math.min(left, 1 + fields.length);
        for (let k = 0; k < take; k++) {
          const g = gateOf[gi++];
          groupChecks.push(checks.length);
          if (k === 0) {
            checks.push({
              item: `Does a new ${e.words} with ${e.idField} ${id} exist?`,
              func: `def check_func(final_state):\n    return ${py(id)} in final_state.get(${py(e.collection)}, {})`,
            });
          } else {
            const a = fields[k - 1];
            checks.push(fieldCheck(e, id, a, rec[a.name], g.type, null, e.label ? rec[e.label] : undefined));
          }
        }
        left -= take;
      }
      const describe = (rec: DataRecord) =>
        `${rec[e.idField]} (${fields
          .slice(0, 4)
          .map((a) => `${words(a.name)}: ${quote(rec[a.name])}`)
          .join(', ')})`;
      line = `Register ${made.length === 1 ? `a new ${e.words}` : `${made.length} new ${e.collection.replace(/_/g, ' ')}`} with ${listText(made.map(describe))}`;
      addOp(write, Object.fromEntries(Object.entries(made[0]).slice(0, 5)), made.length, prevWriteOp ? [prevWriteOp] : []);
    } else {
      // Existing records: one check per target record.
      while (coll.size < nTargets + 2) state.add(e, present);
      const candidates = rng.shuffled([...coll.keys()]).filter((id) => !touched.has(`${e.collection}/${id}`));
      while (candidates.length < nTargets) {
        const rec = state.add(e, present);
        candidates.push(String(rec[e.idField]));
      }
      const targets = candidates.slice(0, nTargets);
      const attr = write.attr;
      let sharedValue: RecordValue | undefined = write.value;
      if (attr && attr.kind === 'st' && sharedValue === undefined) sharedValue = rng.pick(attr.args);
      let preValue: RecordValue | undefined;
      if (precondition && st) preValue = rng.pick(st.args.filter((v) => v !== sharedValue));
      let source: { id: string; value: RecordValue } | undefined;
      if (derivation && attr) {
        const others = [...coll.keys()].filter((id) => !targets.includes(id));
        if (others.length > 0) {
          const sid = rng.pick(others);
          source = { id: sid, value: coll.get(sid)![attr.name] };
          if (source.value === undefined) source = undefined;
        }
      }
      const capEntity = capacity ? env.entities.find((x) => capacityAttr(x)) : undefined;
      let capInfo: { coll: string; id: string; attr: string; value: number } | undefined;
      if (capEntity) {
        const capColl = state.data.get(capEntity.collection)!;
        const cid = rng.pick([...capColl.keys()]);
        const ca = capacityAttr(capEntity)!;
        capInfo = { coll: capEntity.collection, id: cid, attr: ca.name, value: Number(capColl.get(cid)![ca.name]) };
      }
      const newValues: RecordValue[] = [];
      const refs: string[] = [];
      for (let k = 0; k < targets.length; k++) {
        const id = targets[k];
        const rec = coll.get(id)!;
        touched.add(`${e.collection}/${id}`);
        if (preValue !== undefined && st) rec[st.name] = preValue;
        let nv: RecordValue | undefined;
        if (attr) {
          if (source) nv = source.value;
          else if (sharedValue !== undefined) nv = sharedValue;
          else nv = otherValue(attr, rec[attr.name], rng, person(rng), (n) => state.ids(n));
          if (rec[attr.name] === nv) {
            // Make the change real: the initial value must differ from the requested one.
            const alt =
              attr.kind === 'st'
                ? attr.args.find((v) => v !== nv && v !== preValue)
                : otherValue(attr, nv, rng, person(rng), (n) => state.ids(n));
            if (alt !== undefined) rec[attr.name] = alt;
          }
          newValues.push(nv);
        }
        const labelValue = e.label ? rec[e.label] : undefined;
        refs.push(resolution && labelValue !== undefined && resolution.provenance === 'instruction' ? `${quote(labelValue)}` : id);
        const g = gateOf[k];
        groupChecks.push(checks.length);
        if (write.family === 'delete') {
          checks.push({
            item: `Has ${e.words} ${id} been removed from the system?`,
            func: `def check_func(final_state):\n    return ${py(id)} not in final_state.get(${py(e.collection)}, {})`,
          });
        } else {
          const pre = g.type === 'state_precondition' && st && preValue !== undefined ? { attr: st.name, value: preValue } : null;
          const c = fieldCheck(
            e,
            id,
            attr!,
            nv!,
            g.type,
            pre,
            labelValue,
            source && g.type === 'parameter_derivation' ? { id: source.id } : undefined,
            capInfo && g.type === 'capacity_constraint' ? capInfo : undefined,
          );
          checks.push(c);
        }
      }
      const plural = targets.length > 1;
      const who =
        resolution?.provenance === 'instruction' && e.label
          ? `${plural ? `the ${e.collection.replace(/_/g, ' ')}` : `the ${e.words}`} ${listText(refs)}`
          : `${plural ? e.collection.replace(/_/g, ' ') : e.words} ${listText(refs)}`;
      const valueText = (() => {
        if (!attr) return '';
        if (source) return `the same ${words(attr.name.replace(/_id$/, ''))} as ${e.words} ${source.id}`;
        if (sharedValue !== undefined) return quote(sharedValue);
        return listText(newValues.map((v, k) => `${quote(v)}${plural ? ` for ${refs[k]}` : ''}`));
      })();
      switch (write.family) {
        case 'delete':
          line = `Remove ${who} from the system`;
          break;
        case 'authorise':
          line = `Approve ${who} (approver: ${staff})`;
          break;
        case 'link':
          line = source ? `Reassign ${who} to ${valueText}` : `Reassign ${who} to ${words(attr!.name.replace(/_id$/, ''))} ${valueText}`;
          break;
        case 'schedule':
          line = `Move ${who} to ${valueText}`;
          break;
        default:
          line = write.value ? `Mark ${who} as ${quote(write.value)}` : `Set the ${words(attr!.name)} of ${who} to ${valueText}`;
      }
      if (preValue !== undefined && st) line += `, but only if the ${words(st.name)} is currently ${quote(preValue)}`;
      if (authorisation)
        line = `First obtain approval for ${who} (approver: ${staff}), then: ${line.charAt(0).toLowerCase()}${line.slice(1)}`;
      if (capInfo)
        line += `, provided ${words(capInfo.coll.replace(/s$/, ''))} ${capInfo.id} stays within its ${words(capInfo.attr)} of ${capInfo.value}`;
      const firstArgs: Record<string, RecordValue> = { [e.idField]: targets[0] };
      if (write.params[1] && newValues[0] !== undefined) firstArgs[write.params[1].name] = newValues[0];
      const deps: string[] = [];
      for (const g of sub.gates) {
        if (g.op === write) continue;
        const args: Record<string, RecordValue> =
          g.type === 'identifier_resolution' && e.label && resolution?.provenance === 'instruction'
            ? { [e.label]: coll.get(targets[0])![e.label]! }
            : g.type === 'capacity_constraint' && capInfo
              ? { [g.op.params[0]?.name ?? 'id']: capInfo.id }
              : { [g.op.params[0]?.name ?? 'id']: targets[0] };
        deps.push(addOp(g.op, args, targets.length, deps.slice()));
      }
      if (ordering && prevWriteOp) deps.push(prevWriteOp);
      addOp(write, firstArgs, targets.length, deps);
    }
    if (ordering) line = `Once that is done, ${line.charAt(0).toLowerCase()}${line.slice(1)}`;
    sentences.push(line);
    // Gates of this subtask, in chain order, mapped onto their operations.
    for (const g of sub.gates) {
      const opId =
        topo.operations
          .slice()
          .reverse()
          .find((o) => o.tool === g.op.name && opIds.includes(o.id))?.id ?? opIds[opIds.length - 1];
      topo.gates.push({ id: `g${topo.gates.length + 1}`, type: g.type, provenance: g.provenance, operation: opId });
      const { difficulty, noise } = gateDifficulty(g, ctx.envEffect, taskNoise, rng);
      simGates.push({ family: FAMILIES.indexOf(g.family), type: GATE_TYPES.indexOf(g.type), difficulty, checks: g.checks, noise });
    }
    topo.reward_groups.push({
      id: `rg${topo.reward_groups.length + 1}`,
      checks: groupChecks,
      requires: opIds.slice(),
      relation: write.family === 'delete' ? 'absence' : write.family === 'create' ? 'existence' : 'all_of',
    });
    prevWriteOp = opIds[opIds.length - 1];
  }

  if (ctx.inspectRng) {
    // Inspection calls: read-only tools looked at before or between the writes (no gate, no check).
    const irng = ctx.inspectRng;
    const usedTools = new Set(topo.operations.map((o) => o.tool));
    // The entities the task writes come first: an agent inspects what it is about to change.
    const written = new Set(subtasks.map((sub) => sub.write.entity.name));
    const unused = env.ops.filter((o) => o.opType === 'query' && !usedTools.has(o.name));
    const draw = ctx.inspection ?? DEFAULT_INSPECTION;
    const own = irng.shuffled(unused.filter((o) => written.has(o.entity.name)));
    let queries: Operation[];
    let n: number;
    if (draw.scope === 'environment') {
      queries = [...own, ...irng.shuffled(unused.filter((o) => !written.has(o.entity.name)))];
      n = Math.min(queries.length, binomial(draw.trials, draw.p, irng));
    } else {
      const linked = linkedEntities(env, written);
      const near = irng.shuffled(unused.filter((o) => linked.has(o.entity.name)));
      const rest = irng.shuffled(unused.filter((o) => !written.has(o.entity.name) && !linked.has(o.entity.name)));
      queries = [...own, ...near, ...rest];
      n = Math.min(queries.length, own.length + near.length + binomial(draw.trials, draw.p, irng));
    }
    for (const op of queries.slice(0, n)) {
      const param = op.params[0];
      const ids = state.ids(op.entity.name) ?? [];
      const args: Record<string, RecordValue> =
        param && ids.length > 0 && param.name === op.entity.idField ? { [param.name]: irng.pick(ids) } : {};
      topo.operations.push({ id: `op${++opSerial}`, tool: op.name, family: op.family, arguments: args, count: 1, depends_on: [] });
    }
  }

  // Checks already true in the initial state: records and fields the task must leave alone.
  const keep: number[] = [];
  const untouched: { e: Entity; id: string; rec: DataRecord }[] = [];
  for (const e of env.entities)
    for (const [id, rec] of state.data.get(e.collection)!) if (!touched.has(`${e.collection}/${id}`)) untouched.push({ e, id, rec });
  for (let k = 0; k < initial; k++) {
    const { e, id, rec } = untouched.length > 0 ? rng.pick(untouched) : { e: env.primary, id: '', rec: {} as DataRecord };
    const fields = e.attrs.filter((a) => rec[a.name] !== undefined);
    const a = fields.length > 0 ? rng.pick(fields) : undefined;
    keep.push(checks.length);
    const style = rng.below(3);
    if (!a || style === 0) {
      checks.push({
        item: `Is ${e.words} ${id} still present in the system?`,
        func: `def check_func(final_state):\n    return ${py(id)} in final_state.get(${py(e.collection)}, {})`,
      });
    } else if (style === 1) {
      checks.push({
        item: `Has ${e.words} ${id} kept its original ${words(a.name)}?`,
        func: `def check_func(final_state):\n    before = initial_state.get(${py(e.collection)}, {}).get(${py(id)}, {})\n    after = final_state.get(${py(e.collection)}, {}).get(${py(id)}, {})\n    return after.get(${py(a.name)}) == before.get(${py(a.name)})`,
      });
    } else {
      checks.push({
        item: `Is the ${words(a.name)} of ${e.words} ${id} still ${quote(rec[a.name])}?`,
        func: `def check_func(final_state):\n    return final_state.get(${py(e.collection)}, {}).get(${py(id)}, {}).get(${py(a.name)}) == ${py(rec[a.name])}`,
      });
    }
  }
  if (keep.length > 0) {
    topo.reward_groups.push({ id: 'rg_keep', checks: keep, requires: [], relation: 'unchanged' });
    topo.conflicts.push({
      operations: topo.operations
        .filter((o) => o.family !== 'lookup' && o.family !== 'validate' && o.family !== 'compute')
        .map((o) => o.id),
      with: 'rg_keep',
      reason: 'writes must not touch records outside the request',
    });
  }

  const role = rng.pick(env.domain.roles);
  const scope = env.primary.collection.replace(/_/g, ' ');
  const closing = keep.length > 0 ? `\n\nMake only these changes and do not modify any other ${scope}.` : '';
  const task =
    sentences.length === 1
      ? `As the ${role}, ${sentences[0].charAt(0).toLowerCase()}${sentences[0].slice(1)}.${closing}`
      : `As the ${role}, please complete the following updates in the ${words(env.className.replace(/([a-z])([A-Z])/g, '$1_$2')).toLowerCase()}:\n\n${sentences.map((s) => `- ${s}.`).join('\n')}${closing}`;

  const initConfig: Record<string, unknown> = {};
  for (const e of env.entities) initConfig[e.collection] = Object.fromEntries(state.data.get(e.collection)!);
  initConfig.init_config = {};
  const exploitable = rng.chance(subtasks.some((s) => s.gates.some((g) => g.type === 'identifier_resolution')) ? 0.14 : 0.06);
  return {
    scenario: {
      env_id: env.envId,
      env_class_name: env.className,
      task_id: ctx.taskId,
      init_config: initConfig,
      task,
      checklist_with_func: checks.map((c) => ({ check_item: c.item, check_func: c.func })),
    },
    topology: topo,
    sim: { gates: simGates, initiallySatisfied: initial, exploitable },
  };
}

/** A field check in the style its gate implies (direct id, label resolution, precondition, ...). */
function fieldCheck(
  e: Entity,
  id: string,
  attr: Attr,
  value: RecordValue,
  type: GateType,
  pre: { attr: string; value: RecordValue } | null,
  label: RecordValue | undefined,
  source?: { id: string },
  cap?: { coll: string; id: string; attr: string; value: number },
): Check {
  const c = py(e.collection);
  const f = py(attr.name);
  const direct = `final_state.get(${c}, {}).get(${py(id)}, {}).get(${f})`;
  if (type === 'identifier_resolution' && e.label && label !== undefined) {
    return {
      item: `Has the ${words(attr.name)} of the ${e.words} ${quote(label)} been set to ${quote(value)}?`,
      func: `def check_func(final_state):\n    # Find the ${e.words} whose ${words(e.label)} is ${JSON.stringify(label)}\n    target = None\n    for rec in final_state.get(${c}, {}).values():\n        if rec.get(${py(e.label)}) == ${py(label)}:\n            target = rec\n            break\n    if target is None:\n        return False\n    return target.get(${f}) == ${py(value)}`,
    };
  }
  if (type === 'state_precondition' && pre) {
    return {
      item: `Was ${e.words} ${id} (initially ${quote(pre.value)}) updated to ${words(attr.name)} ${quote(value)}?`,
      func: `def check_func(final_state):\n    before = initial_state.get(${c}, {}).get(${py(id)}, {})\n    if before.get(${py(pre.attr)}) != ${py(pre.value)}:\n        return False\n    return ${direct} == ${py(value)}`,
    };
  }
  if (type === 'parameter_derivation' && source) {
    return {
      item: `Does ${e.words} ${id} now have the same ${words(attr.name)} as ${source.id}?`,
      func: `def check_func(final_state):\n    expected = initial_state.get(${c}, {}).get(${py(source.id)}, {}).get(${f})\n    return expected is not None and ${direct} == expected`,
    };
  }
  if (type === 'capacity_constraint' && cap) {
    return {
      item: `Is the ${words(attr.name)} of ${e.words} ${id} ${quote(value)} with ${cap.id} still within its ${words(cap.attr)}?`,
      func: `def check_func(final_state):\n    if ${direct} != ${py(value)}:\n        return False\n    limit = final_state.get(${py(cap.coll)}, {}).get(${py(cap.id)}, {}).get(${py(cap.attr)}, 0)\n    return limit >= ${cap.value}`,
    };
  }
  return {
    item: `Has the ${words(attr.name)} of ${e.words} ${id} been set to ${quote(value)}?`,
    func: `def check_func(final_state):\n    return ${direct} == ${py(value)}`,
  };
}
