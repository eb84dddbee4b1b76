#!/usr/bin/env node
// Diagnosis of the calibrated world (docs/reproduction.md, "Why EnvSched gains so little"): what
// the batches of random and of the EnvSched family contain (variance, all-equal groups, repeats,
// breadth) and how much each world mechanism lets through of the groups' spread on its way to
// competence, the only state held-out suites see; then counterfactual worlds with one mechanism
// changed at a time, to see which one decides the size of EnvSched's held-out gain; and, by
// quarter of the run, how much of the pool's variance each phase's picks take and how much of it
// SPEC 8's progress filter keeps from exploitation.
// Diagnostic only: it fits nothing and no figure of it is a fit target or a check.
//
// Usage: node scripts/calibrate-diagnose.mjs [--seeds S] [--steps T] [--world name=value,...] [--schedulers a,b] [--no-counterfactuals]
//        [--dataset D] [--B B]
// Needs the compiled sources (dist/) and the envscaler-rl dataset (`npm run calibrate` builds both).
import { parseArgs } from 'node:util';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { loadDataset } = await import(dist('sim/dataset-node.js'));
const { loadRunWasmNode } = await import(dist('sim/wasm-node.js'));
const { SimulationRun } = await import(dist('sim/run.js'));
const { DEFAULT_SIM_MODEL, parseWorldText } = await import(dist('sim/model-params.js'));
const { DEFAULT_CONFIG } = await import(dist('engine/config.js'));
const { median } = await import(dist('sim/metrics.js'));

const { values: flags } = parseArgs({
  options: {
    seeds: { type: 'string', default: '2' },
    steps: { type: 'string', default: '200' },
    world: { type: 'string', default: '' },
    dataset: { type: 'string', default: 'envscaler-rl' },
    B: { type: 'string', default: '64' },
    schedulers: { type: 'string', default: 'random,envsched,coverage-only,cross-only,exploitation-only' },
    'no-counterfactuals': { type: 'boolean', default: false },
  },
});
const SEEDS = Number(flags.seeds);
const STEPS = Number(flags.steps);
// The same world text as the command line's --world (a fitted world by name, then changes), checked the same way.
const override = flags.world === '' ? {} : parseWorldText(flags.world, 'command line', '--world');
const WORLD = { ...DEFAULT_SIM_MODEL, ...override };
const { loaded, source } = await loadDataset(flags.dataset);
const base = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha], B: Number(flags.B) };
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const taskEnv = loaded.packed.taskEnv;

/** Task indices by `order`, largest first (ties by index). */
const ranked = (order) => Array.from(order.keys()).sort((a, b) => order[b] - order[a] || a - b);

/** Mean of `values` at the first B of the indices `idx` (B = base.B). */
function meanOfFirst(values, idx) {
  let sum = 0;
  for (const i of idx.slice(0, base.B)) sum += values[i];
  return sum / Math.min(base.B, idx.length);
}

/** Mean of the B largest values of `values` (B = base.B): the most variance any batch of this size could take. */
const topMean = (values, order = values) => meanOfFirst(values, ranked(order));

/**
 * The exact expected variance (the simulator's truth before the step's rollouts) of one step's
 * picks, all and by phase, beside the pool's mean, the top B of the scheduler's predicted variance
 * (SPEC 5's long-half-life vhat), the top B of its priorities q (what the picks rank by, before
 * the exposure discount, the caps, the consecutive-selection limit and the similarity penalty) and
 * the top B of the truth; and the pool's mean expected reward. NaN where a step has no such pick,
 * prediction or priority.
 */
function varianceSources(d, priorities, filtered) {
  const tv = d.truthVariance;
  const byPriority = priorities ? ranked(priorities) : null;
  const picks = (which) => {
    const xs = d.metrics.batch.filter((_, b) => which === 'all' || d.phases?.[b] === which).map((i) => tv[i]);
    return xs.length ? mean(xs) : NaN;
  };
  return {
    picks: picks('all'),
    coveragePicks: picks('coverage'),
    exploitationPicks: picks('exploitation'),
    pool: mean(Array.from(tv)),
    predictedTop: d.predicted ? topMean(tv, Array.from(d.predicted)) : NaN,
    priorityTop: byPriority ? meanOfFirst(tv, byPriority) : NaN,
    ...progressFilterShare(tv, byPriority, filtered),
    trueTop: topMean(tv),
    poolReward: mean(Array.from(d.truthMean)),
  };
}

/**
 * What SPEC 8's progress filter takes from the priorities' top B (`byPriority`: task indices by
 * priority, largest first): how many of them it excludes from exploitation, their mean variance,
 * and the top B of the priorities among the tasks it leaves (what exploitation could take at most,
 * before SPEC 6's rules). NaN after a cold start or without a filter.
 */
function progressFilterShare(tv, byPriority, filtered) {
  if (!byPriority || !filtered) return { filteredOfTop: NaN, filteredTop: NaN, unfilteredTop: NaN };
  const out = byPriority.slice(0, base.B).filter((i) => filtered[i] === 1);
  return {
    filteredOfTop: out.length,
    filteredTop: out.length ? mean(out.map((i) => tv[i])) : NaN,
    unfilteredTop: meanOfFirst(
      tv,
      byPriority.filter((i) => filtered[i] !== 1),
    ),
  };
}

/** Each field of varianceSources averaged over each quarter of the run's steps (NaN steps left out). */
function quarterMeans(steps) {
  const n = steps.length;
  return [0, 1, 2, 3].map((q) => {
    const part = steps.slice(Math.floor((q * n) / 4), Math.floor(((q + 1) * n) / 4));
    return Object.fromEntries(Object.keys(steps[0]).map((k) => [k, mean(part.map((x) => x[k]).filter((x) => !Number.isNaN(x)))]));
  });
}

/** Expected-reward bands of the pool, in which the `bandsOf` table reports each band's tasks and their mean exact variance. */
const BANDS = [0, 0.2, 0.4, 0.6, 0.8, 1];
/** Steps at which `bandsOf` reads the pool: the first, each quarter's end. */
const BAND_STEPS = [1, ...[0.25, 0.5, 0.75, 1].map((f) => Math.round(f * STEPS))];

/**
 * Where in expected reward the pool's variance lies, before a step's rollouts: the pool's median
 * expected reward, that of its highest-variance quartile (what a variance-seeker aims at), and per
 * band of expected reward the number of tasks and their mean variance.
 */
function bandsOf(d) {
  const mu = d.truthMean;
  const tv = d.truthVariance;
  const byVariance = ranked(tv);
  const top = byVariance.slice(0, Math.floor(tv.length / 4));
  const bands = BANDS.slice(0, -1).map((lo, k) => {
    const hi = k === BANDS.length - 2 ? Infinity : BANDS[k + 1];
    const xs = byVariance.filter((i) => mu[i] >= lo && mu[i] < hi).map((i) => tv[i]);
    return { n: xs.length, variance: mean(xs) };
  });
  return { poolMedian: median(Array.from(mu)), topQuartileMedian: median(top.map((i) => mu[i])), bands };
}

/** One run with the per-group factors of the learning rule (docs/simulator.md, "Learning") recomputed beside it. */
async function run(scheduler, seed, model) {
  const r = new SimulationRun(await loadRunWasmNode(), loaded, { ...base, scheduler, seed }, source, { model, steps: STEPS });
  const practice = new Float64Array(r.sim.nTasks);
  const seen = new Uint8Array(r.sim.nTasks);
  const acc = {
    zero: 0,
    groups: 0,
    sigma: 0,
    signal: 0,
    breadthF: 0,
    repeatF: 0,
    transfer: 0,
    repeatPick: 0,
    truthVar: 0,
    truthMean: 0,
    poolMean: 0,
    steps: 0,
  };
  // All-equal groups by phase (EnvSched family) and by kind: mastered (every rollout near full reward) or not.
  const phase = { coverage: [0, 0], exploitation: [0, 0] };
  // The groups' mean rewards (Table 2's median reward), by phase and by first or repeated pick of the task.
  const rewards = { all: [], coverage: [], exploitation: [], first: [], repeat: [] };
  let zeroMastered = 0;
  const K = base.K;
  /** Per step: where the pool's variance is and how much of it the batch took (quarterTable). */
  const where = [];
  /** bandsOf at each of BAND_STEPS. */
  const bands = [];
  while (!r.done) {
    const d = r.step();
    const batch = d.metrics.batch;
    if (BAND_STEPS.includes(r.stepsDone)) bands.push({ step: r.stepsDone, ...bandsOf(d) });
    where.push(varianceSources(d, r.scheduler.priorities?.() ?? null, r.scheduler.progressFiltered?.() ?? null));
    // The whole pool's expected reward this step: how easy the policy has made every task, picked or not.
    let pool = 0;
    for (let i = 0; i < d.truthMean.length; i++) pool += d.truthMean[i];
    acc.poolMean += pool / d.truthMean.length;
    acc.steps++;
    const count = new Map();
    for (const i of batch) count.set(taskEnv[i], (count.get(taskEnv[i]) ?? 0) + 1);
    batch.forEach((i, b) => {
      let m = 0;
      for (let k = 0; k < K; k++) m += d.groups.rewards[b * K + k];
      m /= K;
      let v = 0;
      for (let k = 0; k < K; k++) v += (d.groups.rewards[b * K + k] - m) ** 2;
      const sigma = Math.sqrt(v / K);
      const s = sigma > 0 ? sigma ** model.signalExponent : 0;
      const bf = 1 / count.get(taskEnv[i]) ** model.breadth;
      const rf = 1 / (1 + model.repeatDiscount * practice[i]);
      acc.groups++;
      if (sigma === 0) acc.zero++;
      if (sigma === 0 && m > 0.9) zeroMastered++;
      const ph = d.phases?.[b];
      if (ph === 'coverage' || ph === 'exploitation') {
        phase[ph][0]++;
        if (sigma === 0) phase[ph][1]++;
        rewards[ph].push(m);
      }
      rewards.all.push(m);
      rewards[seen[i] ? 'repeat' : 'first'].push(m);
      acc.sigma += sigma;
      acc.signal += s;
      acc.breadthF += bf;
      acc.repeatF += rf;
      acc.transfer += s * bf * rf;
      if (seen[i]) acc.repeatPick++;
      seen[i] = 1;
      acc.truthVar += d.truthVariance[i];
      acc.truthMean += d.truthMean[i];
      if (s > 0) practice[i]++;
    });
  }
  const res = r.result();
  const g = acc.groups;
  // Competence moved, per family: how far the run pushed each skill the held-out suites share.
  const comp = r.sim.policy().competence;
  const shifts = Array.from(comp, (a) => a - model.competence0);
  return {
    quarters: quarterMeans(where),
    bands,
    gain: res.summary.heldoutFinal - res.summary.heldoutInitial,
    meanVar: res.summary.meanVariance,
    envs: res.summary.envsPerBatch,
    families: res.summary.familiesPerBatch,
    zeroShare: acc.zero / g,
    zeroMasteredShare: zeroMastered / g,
    zeroShareCoverage: phase.coverage[0] > 0 ? phase.coverage[1] / phase.coverage[0] : NaN,
    zeroShareExploit: phase.exploitation[0] > 0 ? phase.exploitation[1] / phase.exploitation[0] : NaN,
    sigma: acc.sigma / g,
    signal: acc.signal / g,
    breadthFactor: acc.breadthF / g,
    repeatFactor: acc.repeatF / g,
    transferPerGroup: acc.transfer / g,
    repeatShare: acc.repeatPick / g,
    distinctTasks: seen.reduce((a, b) => a + b, 0),
    trueMeanReward: acc.truthMean / g,
    poolMeanReward: acc.poolMean / acc.steps,
    medianReward: median(rewards.all),
    medianRewardCoverage: median(rewards.coverage),
    medianRewardExploit: median(rewards.exploitation),
    medianRewardFirst: median(rewards.first),
    medianRewardRepeat: median(rewards.repeat),
    competenceShift: mean(shifts),
    minFamilyShift: Math.min(...shifts),
  };
}

/** Per scheduler, the run's quarters as quarterMeans gives them (seed means), filled by table(). */
const quarters = {};
/** Per scheduler, bandsOf at BAND_STEPS (seed means), filled by table(). */
const bandTables = {};

async function table(model, schedulers) {
  const rows = {};
  for (const s of schedulers) {
    const runs = [];
    for (let k = 0; k < SEEDS; k++) runs.push(await run(s, 900 + k, model));
    const scalars = Object.keys(runs[0]).filter((key) => key !== 'quarters' && key !== 'bands');
    bandTables[s] = runs[0].bands.map((b, j) => {
      const at = (f) => mean(runs.map((x) => f(x.bands[j])).filter((x) => !Number.isNaN(x)));
      return {
        step: b.step,
        poolMedian: at((x) => x.poolMedian),
        topQuartileMedian: at((x) => x.topQuartileMedian),
        bands: b.bands.map((_, k) => ({ n: at((x) => x.bands[k].n), variance: at((x) => x.bands[k].variance) })),
      };
    });
    rows[s] = Object.fromEntries(scalars.map((key) => [key, mean(runs.map((x) => x[key]))]));
    quarters[s] = [0, 1, 2, 3].map((q) =>
      Object.fromEntries(
        Object.keys(runs[0].quarters[q]).map((key) => [key, mean(runs.map((x) => x.quarters[q][key]).filter((x) => !Number.isNaN(x)))]),
      ),
    );
  }
  return rows;
}

const fmt = (x) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));
const schedulers = flags.schedulers.split(',');
const rows = await table(WORLD, schedulers);
const keys = Object.keys(rows[schedulers[0]]);
process.stdout.write(
  `${flags.dataset}, B = ${base.B}; world: ${JSON.stringify(override)} (else the calibrated defaults); ${SEEDS} seeds x ${STEPS} steps, seeds 900..\n`,
);
process.stdout.write(`${['scheduler'.padEnd(18), ...keys.map((k) => k.padStart(Math.max(16, k.length + 2)))].join('')}\n`);
for (const s of schedulers)
  process.stdout.write(`${[s.padEnd(18), ...keys.map((k) => fmt(rows[s][k]).padStart(Math.max(16, k.length + 2)))].join('')}\n`);
const rel = (s) => (rows[s].gain - rows.random.gain) / rows.random.gain;
process.stdout.write(`gain vs random / random's gain: ${schedulers.map((s) => `${s} ${rel(s).toFixed(3)}`).join(', ')}\n`);

// Where the variance goes: the quarters of the run, every figure the simulator's exact expected variance.
const QUARTER_COLUMNS = [
  'picks',
  'coveragePicks',
  'exploitationPicks',
  'pool',
  'predictedTop',
  'priorityTop',
  'filteredOfTop',
  'filteredTop',
  'unfilteredTop',
  'trueTop',
  'poolReward',
];
process.stdout.write(
  `\nwhere the variance goes, by quarter of the run (exact expected variance; predictedTop / priorityTop / trueTop: the top ${base.B} of the predicted variance / of the priorities q / of the truth; filteredOfTop / filteredTop: how many of the priorities' top ${base.B} SPEC 8's progress filter excludes, and their variance; unfilteredTop: the top ${base.B} of the priorities the filter leaves)\n`,
);
process.stdout.write(`${['scheduler'.padEnd(18), 'quarter', ...QUARTER_COLUMNS.map((k) => k.padStart(19))].join('')}\n`);
for (const s of schedulers)
  quarters[s].forEach((q, k) =>
    process.stdout.write(
      `${[s.padEnd(18), String(k + 1).padStart(7), ...QUARTER_COLUMNS.map((c) => (Number.isNaN(q[c]) ? '-' : c === 'filteredOfTop' ? q[c].toFixed(1) : q[c].toFixed(4)).padStart(19))].join('')}\n`,
    ),
  );

// Where in expected reward the variance is: a variance-seeker's picks are as easy as the band it finds the most variance in.
process.stdout.write(
  `\nwhere in expected reward the pool's variance lies (exact, before the step's rollouts): the pool's median expected reward, that of its highest-variance quartile, and per band of expected reward its tasks / their mean variance\n`,
);
const bandLabels = BANDS.slice(0, -1).map((lo, k) => `[${lo}, ${BANDS[k + 1]}${k === BANDS.length - 2 ? ']' : ')'}`);
process.stdout.write(
  `${['scheduler'.padEnd(18), 'step'.padStart(5), 'poolMedian'.padStart(12), 'topQuartileMedian'.padStart(19), ...bandLabels.map((l) => l.padStart(18))].join('')}\n`,
);
for (const s of schedulers)
  for (const b of bandTables[s])
    process.stdout.write(
      `${[
        s.padEnd(18),
        String(b.step).padStart(5),
        b.poolMedian.toFixed(3).padStart(12),
        b.topQuartileMedian.toFixed(3).padStart(19),
        ...b.bands.map((x) => `${x.n.toFixed(0)} / ${Number.isNaN(x.variance) ? '-' : x.variance.toFixed(4)}`.padStart(18)),
      ].join('')}\n`,
    );

if (!flags['no-counterfactuals']) {
  // One mechanism changed at a time, everything else as above: EnvSched's and coverage-only's gain over random.
  const worlds = {
    'as calibrated': {},
    'breadth off': { breadth: 0 },
    'repeat discount off': { repeatDiscount: 0 },
    'forgetting off': { forgetting: 0 },
    'signal sigma^1 (GRPO)': { signalExponent: 1 },
    'signal sigma^2 (unnormalised)': { signalExponent: 2 },
    'saturation off': { competenceSaturation: 1e9 },
  };
  process.stdout.write('\ncounterfactual worlds: (scheduler gain - random gain) / random gain\n');
  for (const [name, w] of Object.entries(worlds)) {
    const t = await table({ ...WORLD, ...w }, ['random', 'envsched', 'coverage-only']);
    const r = (s) => ((t[s].gain - t.random.gain) / t.random.gain).toFixed(3);
    process.stdout.write(
      `${name.padEnd(32)} random gain ${t.random.gain.toFixed(3)}  envsched ${r('envsched')}  coverage-only ${r('coverage-only')}  signal ratio env/rnd ${(t.envsched.signal / t.random.signal).toFixed(3)}  transfer ratio ${(t.envsched.transferPerGroup / t.random.transferPerGroup).toFixed(3)}\n`,
    );
  }
}
