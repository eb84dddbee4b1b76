#!/usr/bin/env node
// What the paper's Table 3(a) asks of a simulated world (docs/reproduction.md, "What the paper's
// own rows ask of a world"). Suppose a world in which a scheduler's held-out gain, as a multiple
// of random's, depends on its batches only through their mean within-task variance and their
// environments per batch, with constant elasticities:
//
//     gain_S / gain_random = (var_S / var_random)^a * (envs_S / envs_random)^b
//
// This reads (a, b) off the paper's five configurations (Tables 1-3(a), Qwen3-4B: the mean of the
// three benchmarks) and shows what each reading implies for the others and for the fit targets of
// the environment-scaling shape (docs/calibration.md). Arithmetic on the paper's figures only: no
// simulation, nothing fitted to the world.
//
// With --reproduce FILE (the output of `envsched reproduce --json`) it also reads (a, b) off the
// simulated rows the same way, which says how strongly the simulated world responds to the two.
//
// Usage: node scripts/paper-elasticities.mjs [--reproduce FILE]   (needs dist/: `npm install` builds it)
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({ options: { reproduce: { type: 'string' } } });
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { PAPER_ROWS, PAPER_BASE } = await import(dist('sim/paper.js'));

const NAMES = ['envsched', 'within-only', 'cross-only', 'coverage-only', 'exploitation-only'];
const rnd = PAPER_ROWS.random;
const gainRandom = rnd.benchmarkMean - PAPER_BASE;
/** Held-out gain over the untrained model, as a multiple of random's. */
const ratio = (name) => (PAPER_ROWS[name].benchmarkMean - PAPER_BASE) / gainRandom;
const x = (name) => [
  Math.log(PAPER_ROWS[name].meanVariance / rnd.meanVariance),
  Math.log(PAPER_ROWS[name].envsPerBatch / rnd.envsPerBatch),
];
const y = (name) => Math.log(ratio(name));

/** Solves [[p, q], [r, s]] [a, b] = [u, w]. */
function solve2(p, q, r, s, u, w) {
  const det = p * s - q * r;
  return [(u * s - q * w) / det, (p * w - r * u) / det];
}

/** (a, b) minimising the squared misses of log gain = a log(var ratio) + b log(envs ratio) over NAMES. */
function leastSquares(xOf, yOf) {
  let vv = 0;
  let ve = 0;
  let ee = 0;
  let vy = 0;
  let ey = 0;
  for (const n of NAMES) {
    const [v, e] = xOf(n);
    vv += v * v;
    ve += v * e;
    ee += e * e;
    vy += v * yOf(n);
    ey += e * yOf(n);
  }
  return solve2(vv, ve, ve, ee, vy, ey);
}

/** Expected distinct environments of a uniform batch of B distinct tasks from E environments of T tasks. */
function envsPerBatch(E, T, B) {
  const N = E * T;
  let none = 1;
  for (let k = 0; k < B; k++) none *= (N - T - k) / (N - k);
  return E * (1 - none);
}

const f = (v, d = 2) => v.toFixed(d);
const predict = ([a, b], name) => Math.exp(a * x(name)[0] + b * x(name)[1]);

console.log("The paper (Qwen3-4B, mean of the three benchmarks): gain over the untrained model as a multiple of random's");
console.log("| configuration | mean variance / random | envs per batch / random | gain / random's |");
console.log('| --- | --- | --- | --- |');
for (const n of NAMES) console.log(`| ${n} | ${f(Math.exp(x(n)[0]), 3)} | ${f(Math.exp(x(n)[1]), 3)} | ${f(ratio(n), 3)} |`);

// (1) Full EnvSched against its two allocation ablations: two equations, two unknowns.
const d = (m, n) => [x(m)[0] - x(n)[0], x(m)[1] - x(n)[1], y(m) - y(n)];
const [p1, q1, u1] = d('envsched', 'coverage-only');
const [p2, q2, u2] = d('envsched', 'exploitation-only');
const pair = solve2(p1, q1, p2, q2, u1, u2);

// (2) Least squares over the five configurations (no intercept: random is the origin).
const ls = leastSquares(x, y);

console.log('');
console.log('| reading | a (variance) | b (environments) | ' + NAMES.map((n) => `${n} (paper ${f(ratio(n))})`).join(' | ') + ' |');
console.log('| --- | --- | --- | ' + NAMES.map(() => '---').join(' | ') + ' |');
// (3) b held at what the environment-scaling fit target asks (random on 20 environments: 0.80 of
// the 51-environment gain), a then read off full vs coverage-only, or a = 1 (a lesson linear in
// the group's variance, the unnormalised update).
const e51 = envsPerBatch(51, 50, 64);
const bScaling = Math.log(0.8) / Math.log(envsPerBatch(20, 50, 64) / e51);
const aPair = (u1 - bScaling * q1) / p1;
for (const [label, ab] of [
  ['full vs coverage-only and vs exploitation-only, exactly', pair],
  ['least squares over the five', ls],
  ['b from the 20-environment fit target, a from full vs coverage-only', [aPair, bScaling]],
  ['b from the 20-environment fit target, a = 1', [1, bScaling]],
])
  console.log(`| ${label} | ${f(ab[0])} | ${f(ab[1])} | ${NAMES.map((n) => f(predict(ab, n))).join(' | ')} |`);

// (4) What b implies for random training on fewer environments (variance held equal).
console.log('');
console.log(`random on n environments (uniform batches of 64 from n x 50): share of the 51-environment gain = (envs per batch ratio)^b`);
console.log('| n | envs per batch | fit target | ' + [pair, ls].map((ab) => `b = ${f(ab[1])}`).join(' | ') + ' |');
console.log('| --- | --- | --- | --- | --- |');
for (const [n, target] of [
  [20, 0.8],
  [5, 0.45],
]) {
  const en = envsPerBatch(n, 50, 64);
  console.log(`| ${n} | ${f(en)} | ${f(target)} | ${[pair, ls].map((ab) => f((en / e51) ** ab[1])).join(' | ')} |`);
}
console.log(`(51 environments: ${f(e51)} per batch)`);

if (flags.reproduce) {
  // The same least squares on the simulated rows (held-out at the last step, seed means).
  const sim = JSON.parse(readFileSync(flags.reproduce, 'utf8'));
  const row = Object.fromEntries(sim.rows.map((r) => [r.scheduler, r]));
  const last = String(sim.steps);
  const sr = row.random;
  const simRatio = (n) => (row[n].heldout[last] - sim.base) / (sr.heldout[last] - sim.base);
  const sx = (n) => [Math.log(row[n].meanVariance / sr.meanVariance), Math.log(row[n].envsPerBatch / sr.envsPerBatch)];
  const simLs = leastSquares(sx, (n) => Math.log(simRatio(n)));
  console.log('');
  console.log(`simulated (${flags.reproduce}: ${sim.dataset}, ${sim.seeds} seeds, ${sim.steps} steps): the same reading`);
  console.log("| configuration | mean variance / random | envs per batch / random | gain / random's | least squares |");
  console.log('| --- | --- | --- | --- | --- |');
  for (const n of NAMES)
    console.log(
      `| ${n} | ${f(Math.exp(sx(n)[0]), 3)} | ${f(Math.exp(sx(n)[1]), 3)} | ${f(simRatio(n), 3)} | ${f(Math.exp(simLs[0] * sx(n)[0] + simLs[1] * sx(n)[1]), 3)} |`,
    );
  const share = (n) => sim.envScaling?.find((p) => p.envs === n)?.share;
  console.log(
    `least squares: a = ${f(simLs[0])}, b = ${f(simLs[1])}; random on 20 / 5 environments: ${f(share(20) ?? NaN)} / ${f(share(5) ?? NaN)} of the 51-environment gain`,
  );
}
