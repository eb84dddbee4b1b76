// Reading an EnvScaler release (env_metadata + scenarios) in either variant: an object keyed by
// env_id / task_id (repository variant) or a list (dataset variant), as JSON or JSON Lines, with
// `tools`, `init_config` and `checklist_with_func` as values or as JSON strings. Bad records
// become InputErrors naming the record. Scenarios without verifier functions (the release's SFT
// part) are refused, or left out and listed when the caller asks to skip them.
import { InputError } from '../engine/errors.ts';
import { isPlainObject } from '../engine/json-text.ts';
import { readRecords } from './records.ts';

export interface ReleaseTool {
  name: string;
  description: string;
  params: string[];
}

export interface ReleaseEnv {
  id: string;
  name: string;
  tools: ReleaseTool[];
}

export interface ReleaseCheck {
  item: string;
  func: string;
}

export interface ReleaseTask {
  id: string;
  /** The release's task_id of the scenario (differs from `id` only for --variants). */
  scenario: string;
  env: number;
  text: string;
  initConfig: unknown;
  checks: ReleaseCheck[];
}

export interface Release {
  envs: ReleaseEnv[];
  tasks: ReleaseTask[];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}

function str(value: unknown, source: string, place: string): string {
  if (typeof value !== 'string')
    throw new InputError(source, place, value === undefined ? 'is missing' : `must be a string, got ${describe(value)}`);
  return value;
}

/** A field that may hold a value or that value as a JSON string (dataset variant). */
function maybeJson(value: unknown, source: string, place: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new InputError(source, place, `is a string but not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

function readTools(raw: unknown, source: string, place: string): ReleaseTool[] {
  const value = maybeJson(raw, source, place);
  if (!Array.isArray(value))
    throw new InputError(source, place, value === undefined ? 'is missing' : `must be a list of function specs, got ${describe(value)}`);
  return value.map((t, k): ReleaseTool => {
    const at = `${place}[${k}]`;
    if (!isPlainObject(t)) throw new InputError(source, at, `must be an object, got ${describe(t)}`);
    const fn = isPlainObject(t.function) ? t.function : t; // OpenAI spec, or a bare {name, parameters}
    const name = str(fn.name, source, `${at}.function.name`);
    const params = isPlainObject(fn.parameters) && isPlainObject(fn.parameters.properties) ? Object.keys(fn.parameters.properties) : [];
    return { name, description: typeof fn.description === 'string' ? fn.description : '', params };
  });
}

export function parseEnvMetadata(text: string, source: string): ReleaseEnv[] {
  const envs: ReleaseEnv[] = [];
  const seen = new Set<string>();
  for (const { place, value: rec, key } of readRecords(text, source, 'environments', 'env_id')) {
    if (!isPlainObject(rec)) throw new InputError(source, place, `must be an object, got ${describe(rec)}`);
    const id = rec.env_id === undefined && key !== null ? key : str(rec.env_id, source, `${place}.env_id`);
    if (seen.has(id)) throw new InputError(source, `${place}.env_id`, `duplicate environment id ${JSON.stringify(id)}`);
    seen.add(id);
    const name = str(rec.env_class_name, source, `${place}.env_class_name`);
    envs.push({ id, name, tools: readTools(rec.tools, source, `${place}.tools`) });
  }
  if (envs.length === 0) throw new InputError(source, '(top level)', 'holds no environments');
  return envs;
}

/** A scenario left out by `skipUnverifiable`: no verifier functions to compute a reward from. */
export interface SkippedScenario {
  id: string;
  env: string;
  /** Where it is in the file (`[12]`, a line number or a key). */
  place: string;
  reason: string;
}

export interface ScenarioRead {
  tasks: ReleaseTask[];
  skipped: SkippedScenario[];
}

/** Why a scenario has no verifier functions, or null when it has some. */
function unverifiable(list: unknown): string | null {
  if (list === undefined || list === null) return 'no checklist_with_func';
  if (Array.isArray(list) && list.length === 0) return 'checklist_with_func is empty';
  return null;
}

export function parseScenarios(
  text: string,
  source: string,
  envs: readonly ReleaseEnv[],
  options: { skipUnverifiable?: boolean } = {},
): ScenarioRead {
  const envIndex = new Map(envs.map((e, k) => [e.id, k]));
  const seen = new Set<string>();
  const tasks: ReleaseTask[] = [];
  const skipped: SkippedScenario[] = [];
  for (const { place, value: rec, key } of readRecords(text, source, 'scenarios', 'task_id')) {
    if (!isPlainObject(rec)) throw new InputError(source, place, `must be an object, got ${describe(rec)}`);
    const id = rec.task_id === undefined && key !== null ? key : str(rec.task_id, source, `${place}.task_id`);
    if (seen.has(id)) throw new InputError(source, `${place}.task_id`, `duplicate task id ${JSON.stringify(id)}`);
    seen.add(id);
    // Verifier functions first: a skipped SFT scenario needs nothing else (not even a known environment).
    const list = maybeJson(rec.checklist_with_func, source, `${place}.checklist_with_func`);
    const why = unverifiable(list);
    if (why !== null) {
      if (!options.skipUnverifiable) {
        const problem = list === undefined ? 'is missing' : list === null ? 'is null' : 'is empty';
        throw new InputError(
          source,
          `${place}.checklist_with_func`,
          `${problem}: scenario ${JSON.stringify(id)} has no verifier functions (an SFT scenario?); --skip-unverifiable leaves such scenarios out and lists them`,
        );
      }
      skipped.push({ id, env: typeof rec.env_id === 'string' ? rec.env_id : '', place, reason: why });
      continue;
    }
    const envId = str(rec.env_id, source, `${place}.env_id`);
    const env = envIndex.get(envId);
    if (env === undefined)
      throw new InputError(source, `${place}.env_id`, `environment ${JSON.stringify(envId)} is not in the environment metadata`);
    const taskText = str(rec.task, source, `${place}.task`);
    if (rec.init_config === undefined) throw new InputError(source, `${place}.init_config`, 'is missing');
    const initConfig = maybeJson(rec.init_config, source, `${place}.init_config`);
    if (!Array.isArray(list)) throw new InputError(source, `${place}.checklist_with_func`, `must be a list, got ${describe(list)}`);
    const checks = list.map((c, k): ReleaseCheck => {
      const at = `${place}.checklist_with_func[${k}]`;
      if (!isPlainObject(c)) throw new InputError(source, at, `must be an object with check_item and check_func, got ${describe(c)}`);
      return { item: str(c.check_item, source, `${at}.check_item`), func: str(c.check_func, source, `${at}.check_func`) };
    });
    tasks.push({ id, scenario: id, env, text: taskText, initConfig, checks });
  }
  if (tasks.length === 0) {
    const why =
      skipped.length > 0
        ? `holds no scenarios with verifier functions (${skipped.length} left out by --skip-unverifiable): the pool is empty`
        : 'holds no scenarios: the pool is empty';
    throw new InputError(source, '(top level)', why);
  }
  return { tasks, skipped };
}

/** The training variants of an EnvScaler scenario: with a simulated user (conv) or without. */
export const VARIANTS = ['conv', 'nonconv'] as const;
export type Variant = (typeof VARIANTS)[number];

/** `--variants conv,nonconv`: the variant names, in the order given. */
export function parseVariants(text: string, source: string, place: string): Variant[] {
  const names = text.split(',').map((x) => x.trim());
  const out: Variant[] = [];
  for (const name of names) {
    if (!(VARIANTS as readonly string[]).includes(name))
      throw new InputError(source, place, `unknown variant ${JSON.stringify(name)} (known: ${VARIANTS.join(', ')})`);
    if (out.includes(name as Variant)) throw new InputError(source, place, `names variant ${JSON.stringify(name)} twice`);
    out.push(name as Variant);
  }
  return out;
}

/**
 * One task per scenario and variant, in place of the scenario (its variants side by side, in the
 * order given), with id `<task_id>-<variant>`; all variants share the scenario's environment.
 */
export function expandVariants(tasks: readonly ReleaseTask[], variants: readonly Variant[], source: string): ReleaseTask[] {
  const out: ReleaseTask[] = [];
  const ids = new Set<string>();
  for (const t of tasks) {
    for (const v of variants) {
      const id = `${t.scenario}-${v}`;
      if (ids.has(id))
        throw new InputError(
          source,
          'task_id',
          `--variants makes task id ${JSON.stringify(id)} twice (a scenario id already ends in -${v})`,
        );
      ids.add(id);
      out.push({ ...t, id });
    }
  }
  for (const t of tasks)
    if (ids.has(t.scenario))
      throw new InputError(source, 'task_id', `--variants makes task id ${JSON.stringify(t.scenario)}, which is also a scenario's id`);
  return out;
}

/**
 * Graph order (SPEC 0): environments in metadata order, keeping only those with scenarios;
 * tasks grouped by environment, in file order within each environment.
 */
export function orderRelease(envs: readonly ReleaseEnv[], tasks: readonly ReleaseTask[]): Release {
  const used = envs.map(() => false);
  for (const t of tasks) used[t.env] = true;
  const remap = new Map<number, number>();
  const kept: ReleaseEnv[] = [];
  envs.forEach((e, k) => {
    if (used[k]) {
      remap.set(k, kept.length);
      kept.push(e);
    }
  });
  const ordered = tasks.map((t) => ({ ...t, env: remap.get(t.env)! }));
  // A stable sort by environment index (Array.prototype.sort is stable).
  ordered.sort((a, b) => a.env - b.env);
  return { envs: kept, tasks: ordered };
}
