// Parsed catalogue types and the value generators of the pool generator (records that look like
// the real release's init_config: ids keyed dicts of attribute dicts).
import type { Pcg32 } from './rng.ts';
import { FIRST_NAMES, LAST_NAMES, MAIL_DOMAINS } from './domains.ts';

export type Scalar = string | number | boolean;
export type RecordValue = Scalar | string[];
export type DataRecord = Record<string, RecordValue>;

export interface Attr {
  name: string;
  kind: string;
  args: string[];
}

export interface Entity {
  name: string; // PascalCase, e.g. ClinicalTrial
  snake: string; // clinical_trial
  words: string; // clinical trial
  collection: string; // clinical_trials
  idField: string;
  idStyle: string;
  label: string | null;
  attrs: Attr[];
}

export function snakeCase(pascal: string): string {
  return pascal
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** Splits `a:x,b:st(p,q),c:y` at the commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

export function parseEntity(spec: string): Entity {
  const [name, collection, idField, idStyle, label, attrText] = spec.split('|');
  const attrs = splitTopLevel(attrText).map((part): Attr => {
    const colon = part.indexOf(':');
    const attrName = part.slice(0, colon);
    const kindText = part.slice(colon + 1);
    const open = kindText.indexOf('(');
    if (open < 0) return { name: attrName, kind: kindText, args: [] };
    const inner = kindText.slice(open + 1, kindText.length - 1);
    const kind = kindText.slice(0, open);
    return { name: attrName, kind, args: kind === 'txt' ? inner.split(';') : inner.split(',') };
  });
  const snake = snakeCase(name);
  return { name, snake, words: snake.replace(/_/g, ' '), collection, idField, idStyle, label: label === '' ? null : label, attrs };
}

export function statusAttr(entity: Entity): Attr | undefined {
  return entity.attrs.find((a) => a.kind === 'st');
}

const APPROVAL_VALUES = ['approved', 'verified', 'confirmed', 'cleared', 'issued', 'awarded', 'eligible', 'executed', 'passed', 'in_force'];
const CANCEL_VALUES = ['cancelled', 'revoked', 'void', 'withdrawn', 'terminated', 'closed', 'removed'];

export function approvalValue(entity: Entity): string | undefined {
  const st = statusAttr(entity);
  return st ? APPROVAL_VALUES.find((v) => st.args.includes(v)) : undefined;
}

export function cancelValue(entity: Entity): string | undefined {
  const st = statusAttr(entity);
  return st ? CANCEL_VALUES.find((v) => st.args.includes(v)) : undefined;
}

export function pythonType(attr: Attr): 'str' | 'int' | 'float' | 'bool' | 'List[str]' {
  if (attr.kind === 'int') return 'int';
  if (attr.kind === 'money') return 'float';
  if (attr.kind === 'bool') return 'bool';
  return 'str';
}

export function jsonType(attr: Attr): string {
  return { str: 'string', int: 'integer', float: 'number', bool: 'boolean', 'List[str]': 'array' }[pythonType(attr)];
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function dateString(rng: Pcg32): string {
  const day = rng.below(1600); // 2021-01-01 .. mid 2025
  return new Date(Date.UTC(2021, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
}

export function datetimeString(rng: Pcg32): string {
  return `${dateString(rng)}T${pad(rng.int(7, 19), 2)}:${pad(15 * rng.below(4), 2)}:00`;
}

export function uuid(rng: Pcg32): string {
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[rng.below(16)]).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[rng.below(4)]}${hex(3)}-${hex(12)}`;
}

/** Ids in the entity's style: `P###` is a prefix and a zero-padded number, `uuid` a random UUID. */
export function makeId(entity: Entity, serial: number, rng: Pcg32): string {
  if (entity.idStyle === 'uuid') return uuid(rng);
  const hashes = entity.idStyle.replace(/[^#]/g, '').length;
  const prefix = entity.idStyle.replace(/#/g, '');
  return prefix + pad(serial, hashes);
}

export interface Person {
  first: string;
  last: string;
}

export function person(rng: Pcg32): Person {
  return { first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) };
}

/** A value for one attribute; `refIds` supplies ids of referenced entities, `who` the record's person. */
export function attrValue(attr: Attr, rng: Pcg32, who: Person, refIds: (entity: string) => string[] | undefined): RecordValue | undefined {
  switch (attr.kind) {
    case 'person':
      return `${who.first} ${who.last}`;
    case 'user':
      return rng.chance(0.5)
        ? `${who.first}${who.last}`.toLowerCase()
        : `${who.first.toLowerCase()}.${who.last.toLowerCase()}${rng.chance(0.4) ? rng.int(1, 99) : ''}`;
    case 'email':
      return `${who.first.toLowerCase()}.${who.last.toLowerCase()}@${rng.pick(MAIL_DOMAINS)}`;
    case 'phone':
      return `+1-555-${pad(rng.below(10000), 4)}`;
    case 'date':
      return dateString(rng);
    case 'datetime':
      return datetimeString(rng);
    case 'money': {
      const lo = Number(attr.args[0]);
      const hi = Number(attr.args[1]);
      return Math.round((lo + rng.nextF64() * (hi - lo)) * 100) / 100;
    }
    case 'int':
      return rng.int(Number(attr.args[0]), Number(attr.args[1]));
    case 'bool':
      return rng.chance(0.5);
    case 'st':
      return rng.chance(0.5) ? attr.args[0] : rng.pick(attr.args);
    case 'txt':
      return rng.pick(attr.args);
    case 'code':
      return `${attr.args[0]}${pad(rng.below(100000), 5)}`;
    case 'ref': {
      const ids = refIds(attr.args[0]);
      return ids && ids.length > 0 ? rng.pick(ids) : undefined;
    }
    default:
      throw new Error(`unknown attribute kind ${attr.kind}`);
  }
}

/** A different value of the same attribute (for updates), never equal to `current`. */
export function otherValue(
  attr: Attr,
  current: RecordValue,
  rng: Pcg32,
  who: Person,
  refIds: (entity: string) => string[] | undefined,
): RecordValue {
  for (let tries = 0; tries < 20; tries++) {
    const v = attr.kind === 'st' ? rng.pick(attr.args) : attrValue(attr, rng, who, refIds);
    if (v !== undefined && v !== current) return v;
  }
  if (typeof current === 'number') return current + 1;
  return `${String(current)}-updated`;
}
