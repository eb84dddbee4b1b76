// Fuzzing configurations (SPEC 11, 12: parseConfig / checkConfigValue) and the app's URL state
// (src/ui/state/url-state.ts parseUrlState, which reads the same keys from a link).
// Every key gets garbage, boundary, huge and negative values, unknown keys are mixed in, links
// get wrong versions and junk parameters. Properties: parseConfig refuses with an InputError that
// names the offending key, or returns a configuration in which every formula is defined, and the
// WASM scheduler then scores a random case with it without trapping, with finite scores, and
// picks the same batch as the reference; parseUrlState never throws, always yields valid
// configurations, explains every correction in a one-line notice, and round-trips what it writes.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIG_KEYS, CONFIG_RULES, DEFAULT_CONFIG, checkConfigValue, parseConfig, type ConfigKey } from '../src/engine/config.ts';
import { loadGraph } from '../src/engine/graph-json.ts';
import { SCHEDULERS, SCORABLE_SCHEDULERS, type Config } from '../src/engine/types.ts';
import { SWEEP_KEYS, pointCount, validateSweep, MAX_RUNS } from '../src/sweep/definition.ts';
import { parseSweepUrl, serializeSweepUrl } from '../src/sweep/url.ts';
import { parseUrlState, serializeUrlState } from '../src/ui/state/url-state.ts';
import { FuzzTally, acceptOrRefuse, params } from './helpers/fuzz.ts';
import { randomGraph, randomHistory, testRng } from './helpers/random-case.ts';
import { wasmOracle } from './helpers/wasm-oracle.ts';

const oracle = wasmOracle();

const tally = new FuzzTally('fuzz-config');

afterAll(() => {
  console.log(tally.summary());
});

const INTS: ConfigKey[] = ['B', 'K', 'T', 'K_within', 'K_cross', 'C1', 'C3', 'C_task', 'M_cross', 'P_cross', 'seed'];
const POSITIVE: ConfigKey[] = ['lambda_s', 'h_long', 'h_short', 'c0', 'lambda_ridge', 'B', 'K', 'T', 'C1', 'C3', 'C_task'];

/**
 * Written from SPEC 2-8 and 11, not from CONFIG_RULES: what a configuration needs for every
 * formula to be defined (positive half-lives, shrinkage, scales; integral counts; rho and the
 * fusion weights in [0, 1]; a known scheduler).
 */
function configProblem(c: Config): string | null {
  for (const key of CONFIG_KEYS)
    if (key !== 'alpha' && key !== 'scheduler' && key !== 'dataset' && !Number.isFinite(c[key] as number)) return `${key} not finite`;
  for (const key of INTS) if (!Number.isInteger(c[key])) return `${key} not an integer`;
  for (const key of POSITIVE) if (!((c[key] as number) > 0)) return `${key} not positive`;
  for (const key of ['rho', 'w_in', 'w_cross'] as const) if (c[key] < 0 || c[key] > 1) return `${key} outside [0, 1]`;
  for (const key of ['K_within', 'K_cross', 'lambda_g', 'eta_decline', 'lambda_sim', 'kappa', 'M_cross', 'P_cross', 'seed'] as const)
    if (c[key] < 0) return `${key} negative`;
  if (c.alpha.length !== 6 || c.alpha.some((a) => !Number.isFinite(a) || a < 0)) return 'alpha';
  if (!(SCHEDULERS as readonly string[]).includes(c.scheduler)) return 'scheduler';
  if (typeof c.dataset !== 'string' || c.dataset === '') return 'dataset';
  return null;
}

/** A value for `key`: valid, at or just past a bound, huge, negative, or of the wrong type. */
function valueFor(key: ConfigKey): fc.Arbitrary<unknown> {
  const rule = CONFIG_RULES[key];
  const junk = fc.oneof(
    fc.constantFrom<unknown>(null, true, '', '1', 'NaN', [], {}, -1, -0, 1e308, -1e308, 5e-324, 0.5, 2 ** 53, NaN, Infinity, -Infinity),
    fc.jsonValue({ maxDepth: 2 }),
  );
  switch (rule.kind) {
    case 'int':
      return fc.oneof(
        fc.integer({ min: rule.min, max: Math.min(rule.max, rule.min + 50) }),
        fc.constantFrom(rule.min, rule.max, rule.min - 1, rule.max + 1, rule.min + 0.5),
        junk,
      );
    case 'real': {
      const valid = fc.double({ min: rule.min, max: rule.max, noNaN: true });
      return fc.oneof(
        valid,
        fc.constantFrom(rule.min, rule.max, rule.max * (1 + 1e-15), -Number.MIN_VALUE, rule.min + Number.MIN_VALUE, rule.min + 1e-300),
        junk,
      );
    }
    case 'alpha':
      return fc.oneof(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 6, maxLength: 6 }),
        fc.array(fc.oneof(fc.double(), fc.constant(null)), { maxLength: 8 }),
        junk,
      );
    case 'scheduler':
      return fc.oneof(fc.constantFrom<unknown>(...SCHEDULERS, 'EnvSched', 'envsched ', ''), junk);
    case 'dataset':
      return fc.oneof(fc.constantFrom<unknown>('tiny', 'envscaler-rl', '../etc/passwd', 'a b', 'x'.repeat(65), ''), junk);
  }
}

const entry: fc.Arbitrary<[string, unknown]> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...CONFIG_KEYS).chain((key) => valueFor(key).map((v): [string, unknown] => [key, v])) },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'Rho', 'rho ', 'b.rho', 'v', 'version', 'lambda'),
        fc.string({ maxLength: 10 }),
      ),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  },
);

function objectOf(entries: [string, unknown][]): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  // defineProperty: an own "__proto__" key, as JSON.parse makes one.
  for (const [k, v] of entries) Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  return obj;
}

/**
 * Cases where some half-life weight 2^(-(t - s)/h) underflows to 0 (t - s > ~1074 h, e.g.
 * h = 5e-324, or a task last seen 2,150 steps ago under h_short = 2). Both implementations then
 * evaluate B_t and ybar_i at the newest step (docs/spec-decisions.md): scores must stay finite;
 * the count shows the fuzzer reaches the case.
 */
export function weightsUnderflow(config: Config, observations: readonly { step: number }[], step: number): boolean {
  return observations.some((o) => o.step < step && [config.h_long, config.h_short].some((h) => 2 ** (-(step - o.step) / h) === 0));
}

/** Scores a small random case with the configuration: no trap, finite outputs, same batch as the reference. */
function scoreWith(config: Config, seed: number): void {
  const rng = testRng(seed);
  const graph = randomGraph(rng, { maxEnvs: 3, maxTasksPerEnv: 4 });
  const observations = randomHistory(rng, graph);
  const step = observations.reduce((m, o) => Math.max(m, o.step), -1) + 1;
  const scorable: Config = (SCORABLE_SCHEDULERS as readonly string[]).includes(config.scheduler)
    ? config
    : { ...config, scheduler: 'envsched' };
  oracle.scheduler.loadGraph(
    loadGraph(graph).packed,
    graph.tasks.map((t) => t.id),
  );
  oracle.scheduler.setHistory(observations);
  const actual = oracle.scheduler.score(scorable, step);
  const underflow = weightsUnderflow(scorable, observations, step);
  if (underflow) tally.check('cases with underflowing half-life weights (finite scores asserted)');
  for (const t of actual.tasks) {
    for (const x of [t.u, t.q, t.long?.v, t.long?.m, t.long?.d, t.long?.u, t.short?.v, t.short?.m, t.short?.d, t.short?.u]) {
      if (x !== undefined && !Number.isFinite(x)) throw new Error(`non-finite score ${x} under ${JSON.stringify(scorable)}`);
    }
  }
  const expected = oracle.referenceScore(graph, observations, scorable, step);
  expect(actual.batch).toEqual(expected.batch);
  expect(actual.batch.length).toBeLessThanOrEqual(Math.min(scorable.B, graph.tasks.length));
}

describe('fuzz: configurations (parseConfig)', () => {
  it('each key with garbage, bounds, huge and negative values, unknown keys', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 6 }), fc.integer({ min: 1, max: 1e9 }), (entries, seed) => {
        const raw = objectOf(entries);
        const outcome = acceptOrRefuse(() => parseConfig(raw, 'fuzz.config.json'), 'fuzz.config.json');
        if (outcome.ok) {
          const c = outcome.value;
          expect(configProblem(c)).toBeNull();
          for (const key of CONFIG_KEYS) expect(c[key]).toEqual(Object.hasOwn(raw, key) ? raw[key] : DEFAULT_CONFIG[key]);
          scoreWith(c, seed);
        } else {
          // The place is the key at fault: unknown, or its value breaks its rule.
          const key = outcome.error.place === '""' ? '' : outcome.error.place;
          expect(Object.hasOwn(raw, key) || key === '(top level)').toBe(true);
          expect(!Object.hasOwn(CONFIG_RULES, key) || checkConfigValue(key as ConfigKey, raw[key]) !== null).toBe(true);
        }
        tally.record('parseConfig', outcome.ok ? 'accepted' : 'refused');
      }),
      params(1500),
    );
    const row = tally.get('parseConfig');
    expect(row.accepted).toBeGreaterThan(row.cases / 10);
    expect(row.refused).toBeGreaterThan(row.cases / 10);
  });

  it('extreme accepted values still give finite scores and the reference batch', () => {
    // Each key at both ends of its range, alone: the corners a random draw rarely hits.
    let seed = 1;
    for (const key of CONFIG_KEYS) {
      const rule = CONFIG_RULES[key];
      if (rule.kind !== 'int' && rule.kind !== 'real') continue;
      const low = rule.kind === 'real' && rule.minExclusive ? Number.MIN_VALUE : rule.min;
      for (const value of [low, rule.max]) {
        if (key === 'B' && value > 1000) continue; // B only bounds the batch: tested at small pools
        const c = parseConfig({ [key]: value }, 'corner');
        expect(configProblem(c)).toBeNull();
        scoreWith(c, seed++);
        tally.record('corners', 'accepted');
      }
    }
  });

  it('checkConfigValue never throws, whatever the key and value', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom<string>(...CONFIG_KEYS),
          fc.string({ maxLength: 12 }),
          fc.constantFrom('__proto__', 'constructor', 'toString'),
        ),
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true }),
        (key, value) => {
          const problem = checkConfigValue(key as ConfigKey, value);
          expect(problem === null || (typeof problem === 'string' && problem.length > 0 && !problem.includes('\n'))).toBe(true);
          tally.record('checkConfigValue', problem === null ? 'accepted' : 'refused');
        },
      ),
      params(1500),
    );
  });
});

// ---- URLs --------------------------------------------------------------------------------------

function textFor(key: ConfigKey): fc.Arbitrary<string> {
  return valueFor(key).map((v) => (Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v))));
}

const urlParam: fc.Arbitrary<[string, string]> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...CONFIG_KEYS).chain((key) => textFor(key).map((t): [string, string] => [key, t])) },
  { weight: 3, arbitrary: fc.constantFrom(...CONFIG_KEYS).chain((key) => textFor(key).map((t): [string, string] => [`b.${key}`, t])) },
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constantFrom('v', 'step', 'task', 'present', 'controls', 'b'),
      fc.oneof(fc.constantFrom('0', '1', '2', '-1', '1e9', '1e10', 'true', '', 'NaN', '0x10', '1.5'), fc.string({ maxLength: 6 })),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'b.', 'b.__proto__', 'b.toString')),
      fc.string({ maxLength: 8 }),
    ),
  },
);

describe('fuzz: URL state (parseUrlState)', () => {
  it('any query gives valid configurations, one-line notices, and round-trips', () => {
    fc.assert(
      fc.property(fc.array(urlParam, { maxLength: 8 }), fc.boolean(), (entries, raw) => {
        // Half the cases go through URLSearchParams encoding, half are pasted by hand (raw text).
        const query = raw ? entries.map(([k, v]) => `${k}=${v}`).join('&') : new URLSearchParams(entries).toString();
        let parsed: ReturnType<typeof parseUrlState>;
        try {
          parsed = parseUrlState(`?${query}`);
        } catch (error) {
          throw new Error(`parseUrlState threw on ?${query}: ${String(error)}`);
        }
        const { state, notices } = parsed;
        for (const c of state.b ? [state.a, state.b] : [state.a]) {
          for (const key of CONFIG_KEYS) expect(checkConfigValue(key, c[key])).toBeNull();
          expect(configProblem(c)).toBeNull();
        }
        if (state.b) expect(state.b.dataset).toBe(state.a.dataset);
        for (const n of notices) expect(typeof n === 'string' && n.length > 0 && !n.includes('\n')).toBe(true);
        expect(state.step === null || (Number.isInteger(state.step) && state.step >= 0)).toBe(true);
        expect(state.task === null || (Number.isInteger(state.task) && state.task >= 0)).toBe(true);
        // What the app writes back reads back identically, with nothing to correct.
        const again = parseUrlState(serializeUrlState(state));
        expect(again.notices).toEqual([]);
        expect(again.state).toEqual(state);
        tally.record('url', notices.length === 0 ? 'accepted' : 'refused');
      }),
      params(1500),
    );
    const row = tally.get('url');
    expect(row.refused).toBeGreaterThan(row.cases / 10);
  });

  it('a wrong link version is reported, and the rest of the link still read', () => {
    const { state, notices } = parseUrlState('?v=99&rho=0.25');
    expect(notices.some((n) => n.startsWith('v=99'))).toBe(true);
    expect(state.a.rho).toBe(0.25);
    tally.record('url', 'refused');
  });
});

// ---- sweep links (src/sweep/url.ts: the `sweep.*` keys of the same URL) -------------------------

const knobText = fc.oneof(
  fc
    .array(
      fc.oneof(
        fc.integer({ min: -3, max: 70 }).map(String),
        fc.double({ min: 0, max: 1, noNaN: true }).map(String),
        fc.constantFrom('', 'x', 'NaN', '1e999', '-0', 'envsched', 'random', 'dapo'),
      ),
      { minLength: 1, maxLength: 5 },
    )
    .map((v) => v.join(',')),
  fc
    .tuple(
      fc.constantFrom('0', '1', '-1', '0.5', '1e9', ''),
      fc.constantFrom('1', '2', '64', '1e9', '0', 'x'),
      fc.constantFrom('0.25', '1', '0', '-1', '1e-300', '5e-324', '1e-9'),
    )
    .map(([a, b, c]) => `${a}:${b}:${c}`),
  fc.string({ maxLength: 12 }),
);

const sweepParam: fc.Arbitrary<[string, string]> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(
      fc.constantFrom(...SWEEP_KEYS, 'alpha', 'seed', 'dataset', 'nope').map((k) => `sweep.${k}`),
      knobText,
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constant('sweep.seeds'), fc.constantFrom('1', '3', '0', '-1', '1000', '1001', '2.5', '', 'x')) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('sweep.metrics'), fc.constantFrom('final', 'auc,final', '', 'nope', 'final,final', ',')) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constant('sweep.preset'), fc.constantFrom('table3b', 'rho', 'lambda_sim', 'half-lives', 'nope', '')),
  },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('sweep.', 'sweep.__proto__', 'sweep.constructor', 'rho'), fc.string({ maxLength: 6 })) },
);

describe('fuzz: sweep links (parseSweepUrl)', () => {
  it('any sweep query gives a valid sweep or none, one-line notices, and round-trips', () => {
    fc.assert(
      fc.property(fc.array(sweepParam, { maxLength: 5 }), fc.integer({ min: 0, max: 0xffff_ffff }), (entries, seed) => {
        const base: Config = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] as Config['alpha'], seed };
        const query = new URLSearchParams(entries).toString();
        let parsed: ReturnType<typeof parseSweepUrl>;
        try {
          parsed = parseSweepUrl(query, base);
        } catch (error) {
          throw new Error(`parseSweepUrl threw on ?${query}: ${String(error)}`);
        }
        for (const n of parsed.notices) expect(typeof n === 'string' && n.length > 0 && !n.includes('\n')).toBe(true);
        if (parsed.sweep) {
          expect(() => validateSweep(parsed.sweep!, 'url')).not.toThrow();
          expect(pointCount(parsed.sweep) * parsed.sweep.seeds).toBeLessThanOrEqual(MAX_RUNS);
          const again = parseSweepUrl(serializeSweepUrl(parsed.sweep), base);
          expect(again.notices).toEqual([]);
          // Compared as written (a -0 value is written, and read back, as 0: the same setting).
          expect(again.sweep && serializeSweepUrl(again.sweep)).toBe(serializeSweepUrl(parsed.sweep));
          expect(again.sweep?.knobs.map((k) => k.values.length)).toEqual(parsed.sweep.knobs.map((k) => k.values.length));
        }
        tally.record('sweep-url', parsed.sweep ? 'accepted' : 'refused');
      }),
      params(1000),
    );
    expect(tally.get('sweep-url').accepted).toBeGreaterThan(0);
  });
});
