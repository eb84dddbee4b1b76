// Shared pieces of the fuzz tests (test/fuzz-*.test.ts): the run budget, the outcome check
// ("works, or is refused with an InputError naming a place"), a case counter printed at the end of
// each file, and an independent checker of SPEC 1's invariants for graphs that pass validation.
//
// Budget: `npm test` runs a fixed number of cases with a fixed seed (reproducible, fast);
// `npm run fuzz` sets FUZZ_SCALE (multiplies every budget) and FUZZ_SEED=random.
import fc from 'fast-check';
import { expect } from 'vitest';
import { InputError } from '../../src/engine/errors.ts';
import type { CsrList, LoadedGraph } from '../../src/engine/types.ts';

const scale = Number(process.env.FUZZ_SCALE ?? '1');
export const FUZZ_SCALE = Number.isFinite(scale) && scale > 0 ? scale : 1;
const seedText = process.env.FUZZ_SEED;
/** A fixed seed unless FUZZ_SEED says otherwise (`random`: a fresh seed per property, printed on failure). */
export const FUZZ_SEED: number | undefined = seedText === 'random' ? undefined : seedText ? Number(seedText) : 20261130;

export function runs(base: number): number {
  return Math.max(1, Math.round(base * FUZZ_SCALE));
}

/** Cases tried and how they ended, per property; printed as one summary line per file. */
export class FuzzTally {
  private readonly rows = new Map<string, { cases: number; accepted: number; refused: number }>();
  private readonly checks = new Map<string, number>();

  constructor(readonly file: string) {}

  record(name: string, outcome: 'accepted' | 'refused'): void {
    const row = this.rows.get(name) ?? { cases: 0, accepted: 0, refused: 0 };
    row.cases++;
    row[outcome]++;
    this.rows.set(name, row);
  }

  /** An extra check made inside a case already counted (shown apart, not added to the total). */
  check(name: string): void {
    this.checks.set(name, (this.checks.get(name) ?? 0) + 1);
  }

  get(name: string) {
    return this.rows.get(name) ?? { cases: 0, accepted: 0, refused: 0 };
  }

  total(): number {
    let n = 0;
    for (const row of this.rows.values()) n += row.cases;
    return n;
  }

  summary(): string {
    const parts = [...this.rows].map(([name, r]) => `${name} ${r.cases} (${r.accepted} ok / ${r.refused} refused)`);
    const checks = [...this.checks].map(([name, n]) => `${name} ${n}`);
    return `[fuzz] ${this.file}: ${this.total()} cases (scale ${FUZZ_SCALE}, seed ${FUZZ_SEED ?? 'random'}): ${parts.join('; ')}${checks.length ? `; within them: ${checks.join(', ')}` : ''}`;
  }
}

/** fast-check parameters for a property with `base` runs at scale 1. */
export function params<T>(base: number, extra: fc.Parameters<T> = {}): fc.Parameters<T> {
  return { numRuns: runs(base), ...(FUZZ_SEED === undefined ? {} : { seed: FUZZ_SEED }), ...extra };
}

/**
 * The refusal contract: an InputError whose message is one line `source:place: problem` with a
 * non-empty place and problem. Anything else thrown (TypeError, RangeError, a WASM RuntimeError or
 * abort) fails the property with the original error.
 */
export function expectInputError(error: unknown, source?: string): InputError {
  if (!(error instanceof InputError)) throw error;
  expect(error.message).not.toContain('\n');
  expect(error.place.length).toBeGreaterThan(0);
  expect(error.problem.length).toBeGreaterThan(0);
  expect(error.problem).not.toBe('undefined');
  if (source !== undefined) expect(error.source.startsWith(source)).toBe(true);
  return error;
}

/** Runs `fn`; returns its result, or null when it refused the input properly. */
export function acceptOrRefuse<T>(fn: () => T, source?: string): { ok: true; value: T } | { ok: false; error: InputError } {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error: expectInputError(error, source) };
  }
}

export async function acceptOrRefuseAsync<T>(
  fn: () => Promise<T>,
  source?: string,
): Promise<{ ok: true; value: T } | { ok: false; error: InputError }> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error: expectInputError(error, source) };
  }
}

/**
 * SPEC 1, checked independently of src/engine/graph-validate.ts on a graph that the reader
 * accepted: one list per task; indices integral, in range and not the task itself; within lists
 * hold exactly the other tasks of the environment, cross lists only other environments; every
 * similarity finite; lists sorted by similarity descending then index ascending, no repeats.
 * Returns the first violation, or null.
 */
export function spec1Violation(loaded: LoadedGraph): string | null {
  const { packed, meta } = loaded;
  const n = meta.tasks.length;
  if (packed.nTasks !== n || packed.nEnvs !== meta.envs.length) return 'sizes disagree with the metadata';
  const envOf = meta.tasks.map((t) => t.env);
  if (envOf.some((e) => !Number.isInteger(e) || e < 0 || e >= meta.envs.length)) return 'task environment out of range';
  if (new Set(meta.tasks.map((t) => t.id)).size !== n) return 'duplicate task ids';
  if (new Set(meta.envs.map((e) => e.id)).size !== meta.envs.length) return 'duplicate environment ids';
  for (const name of ['within', 'cross', 'fullCross'] as const) {
    const list: CsrList = packed[name];
    if (
      list.offsets.length !== n + 1 ||
      list.offsets[0] !== 0 ||
      list.offsets[n] !== list.index.length ||
      list.sim.length !== list.index.length
    ) {
      return `${name}: offsets do not cover the lists`;
    }
    for (let i = 0; i < n; i++) {
      const start = list.offsets[i];
      const end = list.offsets[i + 1];
      if (end < start) return `${name}[${i}]: negative length`;
      const seen = new Set<number>();
      for (let k = start; k < end; k++) {
        const j = list.index[k];
        const s = list.sim[k];
        if (!Number.isInteger(j) || j < 0 || j >= n) return `${name}[${i}]: index ${j} out of range`;
        if (j === i) return `${name}[${i}]: self neighbour`;
        if (seen.has(j)) return `${name}[${i}]: repeated ${j}`;
        seen.add(j);
        if (!Number.isFinite(s)) return `${name}[${i}]: similarity ${s}`;
        const same = envOf[j] === envOf[i];
        if (name === 'within' ? !same : same) return `${name}[${i}]: ${j} in the wrong environment`;
        if (k > start) {
          const ps = list.sim[k - 1];
          const pj = list.index[k - 1];
          if (!(s < ps || (s === ps && j > pj))) return `${name}[${i}]: not sorted at ${k - start}`;
        }
      }
      if (name === 'within') {
        const size = envOf.filter((e) => e === envOf[i]).length;
        if (end - start !== size - 1) return `within[${i}]: ${end - start} of ${size - 1} environment mates`;
      }
    }
  }
  return null;
}
