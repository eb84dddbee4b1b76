// One generated environment: its record types, its operations (with Python method source and an
// OpenAI function spec each) and the release-format env_metadata record.
import type { Pcg32 } from './rng.ts';
import { CLASS_SUFFIXES, type DomainSpec } from './domains.ts';
import { approvalValue, cancelValue, jsonType, parseEntity, pythonType, statusAttr, type Attr, type Entity } from './model.ts';

export const FAMILIES = ['lookup', 'validate', 'authorise', 'update', 'create', 'delete', 'link', 'schedule', 'compute'] as const;
export type Family = (typeof FAMILIES)[number];

export interface Param {
  name: string;
  type: string; // JSON schema type
  pyType: string;
  doc: string;
}

export interface Operation {
  name: string;
  family: Family;
  opType: 'query' | 'state_change';
  entity: Entity;
  /** The attribute the operation reads or writes (status, label, date, reference...). */
  attr: Attr | null;
  /** For approve / cancel: the status value written. */
  value?: string;
  params: Param[];
  description: string;
  source: string;
  doc: string;
}

export interface GeneratedEnv {
  envId: string;
  className: string;
  category: string;
  domain: DomainSpec;
  entities: Entity[];
  primary: Entity;
  ops: Operation[];
  record: Record<string, unknown>;
}

const CAPACITY_NAMES = /^(capacity|seat_limit|roster_limit|headcount|max_daily_patients|capacity_pallets|capacity_kg|seats|limit_amount)$/;

export function capacityAttr(entity: Entity): Attr | undefined {
  return entity.attrs.find((a) => a.kind === 'int' && CAPACITY_NAMES.test(a.name));
}

export function refAttrs(entity: Entity, present: ReadonlySet<string>): Attr[] {
  return entity.attrs.filter((a) => a.kind === 'ref' && present.has(a.args[0]));
}

function plainAttrs(entity: Entity): Attr[] {
  return entity.attrs.filter((a) => a.kind !== 'ref' && a.kind !== 'st' && a.name !== entity.label);
}

function idParam(entity: Entity): Param {
  return { name: entity.idField, type: 'string', pyType: 'str', doc: `Unique identifier of the ${entity.words}.` };
}

function docstring(summary: string, params: Param[], returns: string, constraints: string[]): string {
  const args = params.length === 0 ? '    None' : params.map((p) => `    ${p.name} (${p.pyType}): ${p.doc}`).join('\n');
  return [
    summary,
    '',
    'Args:',
    args,
    '',
    'Returns:',
    `    dict: {"success": True, ${returns}}`,
    '    or',
    '    {"success": False, "error": str}',
    '',
    'Constraints:',
    ...constraints.map((c) => `    - ${c}`),
  ].join('\n');
}

function method(name: string, params: Param[], doc: string, body: string[]): string {
  const sig = params.map((p) => `${p.name}: ${p.pyType}`).join(', ');
  const indented = doc
    .split('\n')
    .map((line) => (line === '' ? '' : `        ${line}`))
    .join('\n');
  return [
    `    def ${name}(self${sig ? ', ' + sig : ''}) -> dict:`,
    '        """',
    indented,
    '        """',
    ...body.map((l) => `        ${l}`),
  ].join('\n');
}

interface OpDraft {
  name: string;
  family: Family;
  opType: 'query' | 'state_change';
  attr: Attr | null;
  value?: string;
  params: Param[];
  description: string;
  returns: string;
  constraints: string[];
  body: string[];
}

/** Every operation the templates can make for one entity, most basic first. */
function opDrafts(entity: Entity, present: ReadonlySet<string>, collectionOf: (name: string) => string): OpDraft[] {
  const e = entity;
  const coll = `self.${e.collection}`;
  const st = statusAttr(e);
  const refs = refAttrs(e, present);
  const out: OpDraft[] = [];
  const notFound = `return {"success": False, "error": "${e.name} not found."}`;
  out.push({
    name: `get_${e.snake}_by_id`,
    family: 'lookup',
    opType: 'query',
    attr: null,
    params: [idParam(e)],
    description: `Retrieve the ${e.words} record for a given ${e.idField}.`,
    returns: `"data": ${e.name}Info`,
    constraints: [`The ${e.idField} must exist in the system.`],
    body: [`record = ${coll}.get(${e.idField})`, 'if record is None:', `    ${notFound}`, 'return {"success": True, "data": record}'],
  });
  if (e.label) {
    const label = e.attrs.find((a) => a.name === e.label)!;
    out.push({
      name: `find_${e.snake}_by_${e.label}`,
      family: 'lookup',
      opType: 'query',
      attr: label,
      params: [{ name: e.label, type: 'string', pyType: 'str', doc: `The ${e.label.replace(/_/g, ' ')} to search for.` }],
      description: `Find ${e.words} records whose ${e.label.replace(/_/g, ' ')} matches exactly.`,
      returns: `"data": List[${e.name}Info]`,
      constraints: ['Matching is exact and case-sensitive.', 'Returns an empty list when nothing matches.'],
      body: [`matches = [r for r in ${coll}.values() if r.get("${e.label}") == ${e.label}]`, 'return {"success": True, "data": matches}'],
    });
  }
  if (st) {
    out.push({
      name: `list_${e.collection}_by_${st.name}`,
      family: 'lookup',
      opType: 'query',
      attr: st,
      params: [{ name: st.name, type: 'string', pyType: 'str', doc: `One of ${st.args.map((v) => `"${v}"`).join(', ')}.` }],
      description: `List all ${e.words} records with the given ${st.name.replace(/_/g, ' ')}.`,
      returns: `"data": List[${e.name}Info]`,
      constraints: [`${st.name} must be one of: ${st.args.join(', ')}.`],
      body: [
        `if ${st.name} not in ${JSON.stringify(st.args).replace(/,/g, ', ')}:`,
        `    return {"success": False, "error": f"Invalid ${st.name}: {${st.name}}"}`,
        `return {"success": True, "data": [r for r in ${coll}.values() if r.get("${st.name}") == ${st.name}]}`,
      ],
    });
  }
  for (const ref of refs.slice(0, 1)) {
    const target = parseRefName(ref);
    out.push({
      name: `list_${e.collection}_for_${target}`,
      family: 'lookup',
      opType: 'query',
      attr: ref,
      params: [{ name: ref.name, type: 'string', pyType: 'str', doc: `Identifier of the ${target.replace(/_/g, ' ')}.` }],
      description: `List the ${e.words} records linked to a given ${target.replace(/_/g, ' ')}.`,
      returns: `"data": List[${e.name}Info]`,
      constraints: [`The ${target.replace(/_/g, ' ')} must exist.`],
      body: [
        `if ${ref.name} not in self.${collectionOf(ref.args[0])}:`,
        `    return {"success": False, "error": "Referenced record not found."}`,
        `return {"success": True, "data": [r for r in ${coll}.values() if r.get("${ref.name}") == ${ref.name}]}`,
      ],
    });
  }
  if (st) {
    out.push({
      name: `check_${e.snake}_${st.name}`,
      family: 'validate',
      opType: 'query',
      attr: st,
      params: [idParam(e)],
      description: `Check the current ${st.name.replace(/_/g, ' ')} of a ${e.words} before acting on it.`,
      returns: `"data": {"${st.name}": str}`,
      constraints: [`The ${e.idField} must exist.`],
      body: [
        `record = ${coll}.get(${e.idField})`,
        'if record is None:',
        `    ${notFound}`,
        `return {"success": True, "data": {"${st.name}": record["${st.name}"]}}`,
      ],
    });
  }
  const money = e.attrs.find((a) => a.kind === 'money');
  if (money && refs.length > 0) {
    const ref = refs[0];
    const target = parseRefName(ref);
    out.push({
      name: `calculate_total_${money.name}_for_${target}`,
      family: 'compute',
      opType: 'query',
      attr: money,
      params: [{ name: ref.name, type: 'string', pyType: 'str', doc: `Identifier of the ${target.replace(/_/g, ' ')}.` }],
      description: `Sum the ${money.name.replace(/_/g, ' ')} of every ${e.words} linked to a ${target.replace(/_/g, ' ')}.`,
      returns: '"data": {"total": float}',
      constraints: ['Records with a missing amount count as 0.'],
      body: [
        `total = sum(r.get("${money.name}", 0) for r in ${coll}.values() if r.get("${ref.name}") == ${ref.name})`,
        'return {"success": True, "data": {"total": round(total, 2)}}',
      ],
    });
  }
  if (st) {
    out.push({
      name: `update_${e.snake}_${st.name}`,
      family: 'update',
      opType: 'state_change',
      attr: st,
      params: [idParam(e), { name: `new_${st.name}`, type: 'string', pyType: 'str', doc: `The new ${st.name.replace(/_/g, ' ')}.` }],
      description: `Change the ${st.name.replace(/_/g, ' ')} of a ${e.words} (e.g., ${st.args.slice(0, 3).join(' → ')}).`,
      returns: '"message": str',
      constraints: [`${st.name} must use predefined values: ${st.args.join(', ')}.`],
      body: [
        `record = ${coll}.get(${e.idField})`,
        'if record is None:',
        `    ${notFound}`,
        `if new_${st.name} not in ${JSON.stringify(st.args).replace(/,/g, ', ')}:`,
        `    return {"success": False, "error": f"Invalid ${st.name}: {new_${st.name}}"}`,
        `record["${st.name}"] = new_${st.name}`,
        `return {"success": True, "message": "${e.name} ${st.name.replace(/_/g, ' ')} updated."}`,
      ],
    });
  }
  const plain = plainAttrs(e);
  const editable = plain.find((a) => a.kind !== 'date' && a.kind !== 'datetime') ?? plain[0];
  if (editable) {
    out.push({
      name: `update_${e.snake}_${editable.name}`,
      family: 'update',
      opType: 'state_change',
      attr: editable,
      params: [
        idParam(e),
        {
          name: `new_${editable.name}`,
          type: jsonType(editable),
          pyType: pythonType(editable),
          doc: `The new ${editable.name.replace(/_/g, ' ')}.`,
        },
      ],
      description: `Update the ${editable.name.replace(/_/g, ' ')} of an existing ${e.words}.`,
      returns: '"message": str',
      constraints: [`The ${e.idField} must exist.`],
      body: [
        `record = ${coll}.get(${e.idField})`,
        'if record is None:',
        `    ${notFound}`,
        `record["${editable.name}"] = new_${editable.name}`,
        `return {"success": True, "message": "${e.name} updated."}`,
      ],
    });
  }
  const createParams: Param[] = e.attrs
    .filter((a) => a.kind !== 'ref' || present.has(a.args[0]))
    .map((a) => ({ name: a.name, type: jsonType(a), pyType: pythonType(a), doc: `${a.name.replace(/_/g, ' ')} of the new ${e.words}.` }));
  out.push({
    name: `${e.name.length % 2 === 0 ? 'create' : 'add'}_${e.snake}`,
    family: 'create',
    opType: 'state_change',
    attr: null,
    params: [idParam(e), ...createParams],
    description: `Create a new ${e.words} record${refs.length ? ` linked to an existing ${parseRefName(refs[0]).replace(/_/g, ' ')}` : ''}.`,
    returns: '"message": str',
    constraints: [`${e.idField} must be unique.`, ...refs.map((r) => `${r.name} must reference an existing record.`)],
    body: [
      `if ${e.idField} in ${coll}:`,
      `    return {"success": False, "error": "${e.name} already exists."}`,
      ...refs.flatMap((r) => [
        `if ${r.name} not in self.${collectionOf(r.args[0])}:`,
        `    return {"success": False, "error": "Invalid ${r.name}."}`,
      ]),
      `${coll}[${e.idField}] = {"${e.idField}": ${e.idField}, ${createParams.map((p) => `"${p.name}": ${p.name}`).join(', ')}}`,
      `return {"success": True, "message": "${e.name} created."}`,
    ],
  });
  out.push({
    name: `${e.snake.length % 2 === 0 ? 'delete' : 'remove'}_${e.snake}`,
    family: 'delete',
    opType: 'state_change',
    attr: null,
    params: [idParam(e)],
    description: `Remove a ${e.words} record (admin action).`,
    returns: '"message": str',
    constraints: [`The ${e.idField} must exist.`],
    body: [
      `if ${e.idField} not in ${coll}:`,
      `    ${notFound}`,
      `del ${coll}[${e.idField}]`,
      `return {"success": True, "message": "${e.name} removed."}`,
    ],
  });
  const approve = approvalValue(e);
  if (st && approve) {
    out.push({
      name: `approve_${e.snake}`,
      family: 'authorise',
      opType: 'state_change',
      attr: st,
      value: approve,
      params: [idParam(e), { name: 'approver_id', type: 'string', pyType: 'str', doc: 'Staff member authorising the change.' }],
      description: `Authorise a ${e.words}, setting its ${st.name.replace(/_/g, ' ')} to "${approve}".`,
      returns: '"message": str',
      constraints: ['Only records that are not already approved can be approved.', 'The approver must be provided.'],
      body: [
        `record = ${coll}.get(${e.idField})`,
        'if record is None:',
        `    ${notFound}`,
        'if not approver_id:',
        '    return {"success": False, "error": "Approver required."}',
        `record["${st.name}"] = "${approve}"`,
        `return {"success": True, "message": "${e.name} approved by {}".format(approver_id)}`,
      ],
    });
  }
  const cancel = cancelValue(e);
  if (st && cancel) {
    out.push({
      name: `cancel_${e.snake}`,
      family: 'update',
      opType: 'state_change',
      attr: st,
      value: cancel,
      params: [idParam(e)],
      description: `Mark a ${e.words} as "${cancel}" without deleting it.`,
      returns: '"message": str',
      constraints: [`A ${e.words} that is already ${cancel} cannot be changed again.`],
      body: [
        `record = ${coll}.get(${e.idField})`,
        'if record is None:',
        `    ${notFound}`,
        `if record["${st.name}"] == "${cancel}":`,
        `    return {"success": False, "error": "Already ${cancel}."}`,
        `record["${st.name}"] = "${cancel}"`,
        `return {"success": True, "message": "${e.name} ${cancel}."}`,
      ],
    });
  }
  for (const ref of refs.slice(0, 1)) {
    const target = parseRefName(ref);
    out.push({
      name: `assign_${e.snake}_to_${target}`,
      family: 'link',
      opType: 'state_change',
      attr: ref,
      params: [idParam(e), { name: ref.name, type: 'string', pyType: 'str', doc: `Identifier of the ${target.replace(/_/g, ' ')}.` }],
      description: `Link a ${e.words} to a different ${target.replace(/_/g, ' ')}.`,
      returns: '"message": str',
      constraints: ['Both records must exist.'],
      body: [
        `record = ${coll}.get(${e.idField})`,
        'if record is None:',
        `    ${notFound}`,
        `if ${ref.name} not in self.${collectionOf(ref.args[0])}:`,
        '    return {"success": False, "error": "Target not found."}',
        `record["${ref.name}"] = ${ref.name}`,
        `return {"success": True, "message": "${e.name} reassigned."}`,
      ],
    });
  }
  const when = e.attrs.find((a) => a.kind === 'datetime') ?? e.attrs.find((a) => a.kind === 'date');
  if (when) {
    out.push({
      name: `reschedule_${e.snake}`,
      family: 'schedule',
      opType: 'state_change',
      attr: when,
      params: [
        idParam(e),
        { name: `new_${when.name}`, type: 'string', pyType: 'str', doc: `New ${when.name.replace(/_/g, ' ')} (ISO format).` },
      ],
      description: `Move a ${e.words} to a new ${when.name.replace(/_/g, ' ')}.`,
      returns: '"message": str',
      constraints: ['The new value must be a valid ISO date or datetime.'],
      body: [
        `record = ${coll}.get(${e.idField})`,
        'if record is None:',
        `    ${notFound}`,
        'try:',
        `    datetime.fromisoformat(new_${when.name})`,
        'except ValueError:',
        '    return {"success": False, "error": "Invalid date."}',
        `record["${when.name}"] = new_${when.name}`,
        `return {"success": True, "message": "${e.name} rescheduled."}`,
      ],
    });
  }
  return out;
}

function parseRefName(ref: Attr): string {
  return ref.name.replace(/_id$/, '') || ref.name;
}

/** Picks the entities of an environment: the primary one, what it references, then others. */
function pickEntities(domain: DomainSpec, primaryName: string, rng: Pcg32): Entity[] {
  const all = domain.entities.map(parseEntity);
  const primary = all.find((e) => e.name === primaryName)!;
  const chosen = new Set([primary.name]);
  for (const a of primary.attrs) if (a.kind === 'ref') chosen.add(a.args[0]);
  const target = Math.min(all.length, rng.int(3, 5));
  for (const e of rng.shuffled(all)) {
    if (chosen.size >= target) break;
    chosen.add(e.name);
  }
  // Catalogue order keeps referenced types before their users where the catalogue does.
  return all.filter((e) => chosen.has(e.name));
}

/** Number of operations: roughly normal around the release's mean (18.6), within [10, 31]. */
function operationCount(rng: Pcg32): number {
  return Math.max(10, Math.min(31, Math.round(19.2 + 5 * rng.normal())));
}

export function generateEnvironment(envId: string, domain: DomainSpec, subject: string, rng: Pcg32): GeneratedEnv {
  const [stem, primaryName] = subject.split('>');
  const className = stem + rng.pick(CLASS_SUFFIXES);
  const entities = pickEntities(domain, primaryName, rng);
  const primary = entities.find((e) => e.name === primaryName)!;
  const present = new Set(entities.map((e) => e.name));
  const collectionOf = (name: string) => entities.find((e) => e.name === name)!.collection;

  // Basic operations of every entity are kept; the rest are sampled to reach the target count.
  const drafts = entities.map((e) => ({ e, ops: opDrafts(e, present, collectionOf) }));
  const want = operationCount(rng);
  const keep = new Set<string>();
  for (const { ops } of drafts) {
    keep.add(ops[0].name); // get by id
    const write = ops.find((o) => o.opType === 'state_change');
    if (write) keep.add(write.name);
  }
  const optional = rng.shuffled(drafts.flatMap(({ ops }) => ops.map((o) => o.name)).filter((n) => !keep.has(n)));
  // The primary entity's operations are preferred so that tasks have material.
  const primaryNames = new Set(drafts.find((d) => d.e === primary)!.ops.map((o) => o.name));
  optional.sort((a, b) => Number(primaryNames.has(b)) - Number(primaryNames.has(a)));
  for (const n of optional) {
    if (keep.size >= want) break;
    keep.add(n);
  }
  const ops: Operation[] = [];
  for (const phase of ['query', 'state_change'] as const) {
    for (const { e, ops: list } of drafts) {
      for (const d of list) {
        if (d.opType !== phase || !keep.has(d.name)) continue;
        const doc = docstring(d.description, d.params, d.returns, d.constraints);
        ops.push({
          name: d.name,
          family: d.family,
          opType: d.opType,
          entity: e,
          attr: d.attr,
          value: d.value,
          params: d.params,
          description: d.description,
          doc,
          source: method(d.name, d.params, doc, d.body),
        });
      }
    }
  }
  return {
    envId,
    className,
    category: domain.category,
    domain,
    entities,
    primary,
    ops,
    record: envRecord(envId, className, domain, entities, primary, ops, rng),
  };
}

function typedDict(e: Entity, present: ReadonlySet<string>): string {
  const fields = [
    `    ${e.idField}: str`,
    ...e.attrs
      .filter((a) => a.kind !== 'ref' || present.has(a.args[0]))
      .filter((a) => a.name !== e.idField)
      .map((a) => `    ${a.name}: ${pythonType(a)}`),
  ];
  return `class ${e.name}Info(TypedDict):\n${fields.join('\n')}\n`;
}

function envRecord(
  envId: string,
  className: string,
  domain: DomainSpec,
  entities: Entity[],
  primary: Entity,
  ops: Operation[],
  rng: Pcg32,
): Record<string, unknown> {
  const present = new Set(entities.map((e) => e.name));
  const title = className.replace(/([a-z])([A-Z])/g, '$1 $2');
  const summary = title.charAt(0) + title.slice(1).toLowerCase();
  const intro = [
    `This environment is a specialized information system used by ${domain.users} to manage ${entities.map((e) => e.collection.replace(/_/g, ' ')).join(', ')}.`,
    `It maintains detailed records of each ${primary.words}, with ${statusAttr(primary)?.name.replace(/_/g, ' ') ?? 'status'} tracking and links to related records.`,
    `Staff use it to look up, update and reconcile records, making it a natural setting for operational requests.`,
  ].join('  \n');
  const constraints: string[] = [];
  for (const e of entities) {
    const st = statusAttr(e);
    if (st && constraints.length < 5)
      constraints.push(
        `${e.name} ${st.name} must use predefined values (e.g., ${st.args
          .slice(0, 3)
          .map((v) => `“${v}”`)
          .join(', ')}).`,
      );
    for (const r of refAttrs(e, present).slice(0, 1))
      if (constraints.length < 5)
        constraints.push(`Each ${e.words} must reference a valid ${r.name.replace(/_id$/, '').replace(/_/g, ' ')} record.`);
  }
  const cap = entities.map((e) => [e, capacityAttr(e)] as const).find(([, a]) => a);
  if (cap) constraints.push(`A ${cap[0].words} cannot exceed its ${cap[1]!.name.replace(/_/g, ' ')}.`);
  if (ops.some((o) => o.family === 'authorise')) constraints.push('Approvals must name the approving staff member.');
  const header = [
    'from typing import Dict, List, TypedDict',
    'import uuid',
    'from datetime import datetime',
    '',
    '',
    '',
    ...entities.map((e) => typedDict(e, present)),
    `class ${className}:`,
    '    def __init__(self, init_config: dict):',
    '        """',
    `        ${title} environment.`,
    '',
    '        Entities:',
    ...entities.map((e) => `        - ${e.collection}: Dict[${e.idField}, ${e.name}Info]`),
    '',
    '        Constraints:',
    ...constraints.map((c) => `        - ${c}`),
    '        """',
    '',
    ...entities.flatMap((e) => [`        # ${e.name} records`, `        self.${e.collection}: Dict[str, ${e.name}Info] = {}`, '']),
    '        self.init_config = init_config',
    '',
    '    ',
  ].join('\n');
  const code = header.replace(/\n    $/, '\n') + ops.map((o) => o.source).join('\n\n') + '\n';
  const funcDetails: Record<string, unknown> = {};
  for (const o of ops) {
    funcDetails[o.name] = {
      signature: {
        parameters: o.params.map((p) => ({ name: p.name, type: p.pyType, default: null, kind: 'positional-or-keyword' })),
        return: 'dict',
      },
      doc: o.doc,
      source_code: o.source,
    };
  }
  void rng;
  return {
    env_id: envId,
    environment_summary: summary,
    environment_introduction: intro,
    state_space_definition: entities.map((e) => ({
      entity: e.name,
      attributes: [e.idField, ...e.attrs.filter((a) => a.kind !== 'ref' || present.has(a.args[0])).map((a) => a.name)].join(', '),
      description: `Represents a ${e.words} tracked by the system.`,
    })),
    constraints_rules: constraints,
    operation_list: ops.map((o) => ({ operation_name: o.name, operation_description: o.description, operation_type: o.opType })),
    env_class_name: className,
    env_class_code: code,
    env_class_def: header,
    env_func_details: funcDetails,
    tools: ops.map((o) => ({
      type: 'function',
      function: {
        name: o.name,
        description: o.doc,
        parameters: {
          type: 'object',
          properties: Object.fromEntries(o.params.map((p) => [p.name, { type: p.type }])),
          required: o.params.map((p) => p.name),
        },
      },
    })),
  };
}
