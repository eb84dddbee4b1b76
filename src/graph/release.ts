// Reading an EnvScaler release (env_metadata + RL scenarios) in either variant: an object keyed by
// env_id / task_id (repository variant) or a list (dataset variant), with `tools` and
// `init_config` as values or as JSON strings. Bad records become InputErrors naming the record.
import { InputError } from '../engine/errors.ts';
import { isPlainObject, parseJsonText } from '../engine/json-text.ts';

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
  if (typeof value !== 'string') throw new InputError(source, place, value === undefined ? 'is missing' : `must be a string, got ${describe(value)}`);
  return value;
}

/** Records of a file that is either a list or an object keyed by id: [place, record, key]. */
function records(root: unknown, source: string, what: string): [string, unknown, string | null][] {
  if (Array.isArray(root)) return root.map((r, k) => [`[${k}]`, r, null]);
  if (isPlainObject(root)) return Object.keys(root).map((key) => [key, root[key], key]);
  throw new InputError(source, '(top level)', `must be a list of ${what} or an object keyed by id, got ${describe(root)}`);
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
  if (!Array.isArray(value)) throw new InputError(source, place, value === undefined ? 'is missing' : `must be a list of function specs, got ${describe(value)}`);
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
  const root = parseJsonText(text, source);
  const envs: ReleaseEnv[] = [];
  const seen = new Set<string>();
  for (const [place, rec, key] of records(root, source, 'environments')) {
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

export function parseScenarios(text: string, source: string, envs: readonly ReleaseEnv[]): ReleaseTask[] {
  const root = parseJsonText(text, source);
  const envIndex = new Map(envs.map((e, k) => [e.id, k]));
  const seen = new Set<string>();
  const tasks: ReleaseTask[] = [];
  for (const [place, rec, key] of records(root, source, 'scenarios')) {
    if (!isPlainObject(rec)) throw new InputError(source, place, `must be an object, got ${describe(rec)}`);
    const id = rec.task_id === undefined && key !== null ? key : str(rec.task_id, source, `${place}.task_id`);
    if (seen.has(id)) throw new InputError(source, `${place}.task_id`, `duplicate task id ${JSON.stringify(id)}`);
    seen.add(id);
    const envId = str(rec.env_id, source, `${place}.env_id`);
    const env = envIndex.get(envId);
    if (env === undefined) throw new InputError(source, `${place}.env_id`, `environment ${JSON.stringify(envId)} is not in the environment metadata`);
    const taskText = str(rec.task, source, `${place}.task`);
    if (rec.init_config === undefined) throw new InputError(source, `${place}.init_config`, 'is missing');
    const initConfig = maybeJson(rec.init_config, source, `${place}.init_config`);
    const list = maybeJson(rec.checklist_with_func, source, `${place}.checklist_with_func`);
    if (!Array.isArray(list)) throw new InputError(source, `${place}.checklist_with_func`, list === undefined ? 'is missing' : `must be a list, got ${describe(list)}`);
    const checks = list.map((c, k): ReleaseCheck => {
      const at = `${place}.checklist_with_func[${k}]`;
      if (!isPlainObject(c)) throw new InputError(source, at, `must be an object with check_item and check_func, got ${describe(c)}`);
      return { item: str(c.check_item, source, `${at}.check_item`), func: str(c.check_func, source, `${at}.check_func`) };
    });
    tasks.push({ id, env, text: taskText, initConfig, checks });
  }
  if (tasks.length === 0) throw new InputError(source, '(top level)', 'holds no scenarios: the pool is empty');
  return tasks;
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
