// Configurations: the defaults of SPEC 11 and validation of the keys of SPEC 12.
import { InputError } from './errors.ts';
import { SCHEDULERS, type Config, type SchedulerName } from './types.ts';

/** SPEC 11 (Appendix D) defaults, plus `scheduler`, `seed` and `dataset` (SPEC 12). */
export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({
  B: 64,
  K: 8,
  T: 200,
  rho: 0.5,
  K_within: 6,
  K_cross: 12,
  w_in: 0.5,
  w_cross: 0.5,
  lambda_g: 2,
  lambda_s: 2,
  h_long: 8,
  h_short: 2,
  eta_decline: 0.5,
  c0: 16,
  lambda_sim: 0.08,
  C1: 4,
  C3: 11,
  C_task: 2,
  alpha: [0.28, 0.08, 0.16, 0.12, 0.16, 0.2] as Config['alpha'],
  M_cross: 256,
  P_cross: 32,
  lambda_ridge: 1,
  kappa: 2,
  scheduler: 'envsched' as SchedulerName,
  seed: 0,
  dataset: 'envscaler-rl',
});

export type ConfigKey = keyof Config;

type Rule =
  | { kind: 'int'; min: number; max: number }
  | { kind: 'real'; min: number; max: number; minExclusive?: boolean }
  | { kind: 'alpha' }
  | { kind: 'scheduler' }
  | { kind: 'dataset' };

/**
 * The range of every key. Bounds are what keeps each formula defined (e.g. lambda_s > 0 so that
 * SPEC 5's fusion never divides 0 by 0; lambda_ridge >= 1e-6 so SPEC 8's ridge system stays
 * numerically positive definite) and sizes small enough to stay in memory.
 */
export const CONFIG_RULES: Readonly<Record<ConfigKey, Rule>> = {
  B: { kind: 'int', min: 1, max: 100_000 },
  K: { kind: 'int', min: 1, max: 1024 },
  T: { kind: 'int', min: 1, max: 100_000 },
  rho: { kind: 'real', min: 0, max: 1 },
  K_within: { kind: 'int', min: 0, max: 4096 },
  K_cross: { kind: 'int', min: 0, max: 4096 },
  w_in: { kind: 'real', min: 0, max: 1 },
  w_cross: { kind: 'real', min: 0, max: 1 },
  lambda_g: { kind: 'real', min: 0, max: 1e6 },
  lambda_s: { kind: 'real', min: 0, max: 1e6, minExclusive: true },
  h_long: { kind: 'real', min: 0, max: 1e6, minExclusive: true },
  h_short: { kind: 'real', min: 0, max: 1e6, minExclusive: true },
  eta_decline: { kind: 'real', min: 0, max: 1e3 },
  c0: { kind: 'real', min: 0, max: 1e9, minExclusive: true },
  lambda_sim: { kind: 'real', min: 0, max: 1e3 },
  C1: { kind: 'int', min: 1, max: 100_000 },
  C3: { kind: 'int', min: 1, max: 100_000 },
  C_task: { kind: 'int', min: 1, max: 100_000 },
  alpha: { kind: 'alpha' },
  M_cross: { kind: 'int', min: 0, max: 100_000 },
  P_cross: { kind: 'int', min: 0, max: 100_000 },
  // Not merely > 0: a penalty below ~count * 2^-52 vanishes against X'X and the ridge system of
  // SPEC 8 turns singular (the kernel aborts). 1e-6 keeps it regular up to ~4e9 transitions.
  lambda_ridge: { kind: 'real', min: 1e-6, max: 1e9 },
  kappa: { kind: 'real', min: 0, max: 1e9 },
  scheduler: { kind: 'scheduler' },
  seed: { kind: 'int', min: 0, max: 0xffff_ffff },
  dataset: { kind: 'dataset' },
};

export const CONFIG_KEYS = Object.keys(CONFIG_RULES) as ConfigKey[];

const DATASET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function describeRange(rule: { min: number; max: number; minExclusive?: boolean }): string {
  return `${rule.minExclusive ? '(' : '['}${rule.min}, ${rule.max}]`;
}

/** Checks one key's value; returns the problem in words, or null when the value is valid. */
export function checkConfigValue(key: ConfigKey, value: unknown): string | null {
  // Callers from untyped code (URL, worker messages) may pass any string: refuse, never throw.
  if (!Object.hasOwn(CONFIG_RULES, key)) return 'unknown configuration key';
  const rule = CONFIG_RULES[key];
  switch (rule.kind) {
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) return `must be an integer, got ${show(value)}`;
      if (value < rule.min || value > rule.max) return `must be in ${describeRange(rule)}, got ${value}`;
      return null;
    case 'real':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `must be a finite number, got ${show(value)}`;
      if (value < rule.min || value > rule.max || (rule.minExclusive && value === rule.min)) {
        return `must be in ${describeRange(rule)}, got ${value}`;
      }
      return null;
    case 'alpha':
      if (!Array.isArray(value) || value.length !== 6) return `must be a list of 6 view weights, got ${show(value)}`;
      for (const a of value) {
        if (typeof a !== 'number' || !Number.isFinite(a) || a < 0 || a > 1) return `weights must be numbers in [0, 1], got ${show(a)}`;
      }
      return null;
    case 'scheduler':
      if (typeof value !== 'string' || !(SCHEDULERS as readonly string[]).includes(value)) {
        return `must be one of ${SCHEDULERS.join(', ')}, got ${show(value)}`;
      }
      return null;
    case 'dataset':
      if (typeof value !== 'string' || !DATASET_NAME.test(value))
        return `must be a dataset name (letters, digits, . _ -), got ${show(value)}`;
      return null;
  }
}

function show(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? typeof value);
  } catch {
    text = typeof value; // BigInt or a cyclic object: JSON.stringify throws
  }
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * Reads a configuration object (SPEC 12): missing keys take the defaults, every present key is
 * validated, unknown keys are refused (a misspelt knob must not silently fall back to its default).
 */
export function parseConfig(raw: unknown, source: string): Config {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InputError(source, '(top level)', 'a configuration must be a JSON object');
  }
  const config: Config = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'] };
  for (const [key, value] of Object.entries(raw)) {
    // Own keys only: `in` would let "toString", "constructor" or "__proto__" through as known keys.
    if (!Object.hasOwn(CONFIG_RULES, key))
      throw new InputError(source, key === '' ? '""' : key, `unknown configuration key (known: ${CONFIG_KEYS.join(', ')})`);
    const problem = checkConfigValue(key as ConfigKey, value);
    if (problem !== null) throw new InputError(source, key, problem);
    (config as unknown as Record<string, unknown>)[key] = key === 'alpha' ? [...(value as number[])] : value;
  }
  return config;
}

/** The rho that the batch split uses: the coverage-only / exploitation-only ablations pin it (SPEC 12). */
export function effectiveRho(config: Pick<Config, 'rho' | 'scheduler'>): number {
  if (config.scheduler === 'coverage-only') return 1;
  if (config.scheduler === 'exploitation-only') return 0;
  return config.rho;
}
