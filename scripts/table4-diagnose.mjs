#!/usr/bin/env node
// Why Table 4's hit rates fall short (docs/reproduction.md, "Table 4: where the hit rate is
// lost"). On envscaler-rl, calibrated world, Table 4's protocol (step 0 a uniform random batch,
// then EnvSched): what the pool offers (its true variance at the untrained policy), how far
// knowing each environment's true mean variance would go (a ceiling for a prediction that cannot
// tell the tasks of one environment apart), where EnvSched's exploitation picks go (tasks
// observed before or not) and how often each kind hits, and the same runs on a counterfactual
// pool without the environments' difficulty offsets.
// Diagnostic only: it fits nothing, and no figure of it is a fit target or a check. Seeds 31000+
// (no fit and no check uses them).
//
// Usage: node scripts/table4-diagnose.mjs [--runs N] [--grid] [--family] [--family-cells k:s,...] [--smooth]
//                                          [--coherence] [--coherence-cells c:k,...] [--twins] [--twin-sizes s,...]
//                                          [--rollouts K]
//   (needs dist/ and the envscaler-rl dataset; a few seconds; about a minute with --grid:
//   environment offsets widened together with a wider variance hump; about a minute with
//   --family: the operation families' offsets widened the same way, the untrained policy's
//   skills made more uneven by family; --family-cells picks the grid's cells; about 20 s with
//   --smooth: each task's difficulty moved toward that of the tasks its description resembles;
//   about 30 s with --coherence: each environment's tasks made alike in expected reward; about
//   20 s with --twins: the tasks the graph puts together given one reward structure; --rollouts:
//   K rollouts per group instead of the default 8, for every run)
import { parseArgs } from 'node:util';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { loadDataset } = await import(dist('sim/dataset-node.js'));
const { loadRunWasmNode } = await import(dist('sim/wasm-node.js'));
const { SimulationRun } = await import(dist('sim/run.js'));
const { reproduce } = await import(dist('sim/reproduce.js'));
const { DEFAULT_SIM_MODEL } = await import(dist('sim/model-params.js'));
const { DEFAULT_CONFIG } = await import(dist('engine/config.js'));
const { averageRanks, hitsOfHighest, pearsonOfRanks } = await import(dist('sim/metrics.js'));

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '24' },
    grid: { type: 'boolean', default: false },
    family: { type: 'boolean', default: false },
    'family-cells': { type: 'string' },
    smooth: { type: 'boolean', default: false },
    coherence: { type: 'boolean', default: false },
    'coherence-cells': { type: 'string' },
    twins: { type: 'boolean', default: false },
    rollouts: { type: 'string', default: String(DEFAULT_CONFIG.K) },
    'twin-sizes': { type: 'string' },
  },
});
const RUNS = Number(flags.runs);
const STEPS = 7;
const SEED0 = 31_000;
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const K = Number(flags.rollouts);
const config = (seed, scheduler = 'envsched') => ({
  ...DEFAULT_CONFIG,
  alpha: [...DEFAULT_CONFIG.alpha],
  scheduler,
  seed,
  T: STEPS + 1,
  K,
});

/** Table 4 runs on `loaded`: per step 1..7, exploitation picks split by whether the task was observed before. */
async function table4(loaded, source, model = DEFAULT_SIM_MODEL, scheduler = 'envsched') {
  const perStep = Array.from({ length: STEPS + 1 }, () => ({
    picks: 0,
    hits: 0,
    fresh: 0,
    freshHits: 0,
    batchVar: [],
    topQ: [],
    topQOmega: [],
  }));
  let pool = null;
  for (let k = 0; k < RUNS; k++) {
    const run = new SimulationRun(await loadRunWasmNode(), loaded, config(SEED0 + k, scheduler), source, {
      model,
      randomColdStart: true,
    });
    const observed = new Uint8Array(run.sim.nTasks);
    const selections = new Float64Array(run.sim.nTasks); // c_i of docs/spec.md section 6
    for (let t = 0; t <= STEPS; t++) {
      const d = run.step();
      const truth = d.truthVariance;
      const threshold = d.hitThreshold; // SPEC 5's Q(0.75) of the truth, as `reproduce` judges a hit
      if (t === 0 && k === 0) pool = { truth: Float64Array.from(truth), mean: Float64Array.from(d.truthMean), threshold };
      const s = perStep[t];
      s.batchVar.push(d.metrics.meanVariance);
      d.metrics.batch.forEach((i, b) => {
        if (t > 0 && d.phases && d.phases[b] === 'exploitation') {
          const hit = truth[i] >= threshold ? 1 : 0;
          s.picks++;
          s.hits += hit;
          if (!observed[i]) {
            s.fresh++;
            s.freshHits += hit;
          }
        }
      });
      // What the picks would hit if they were the 32 highest priorities q, or the 32 highest
      // exploitation scores q * omega without the batch's rules (eligibility, the similarity penalty).
      const q = t > 0 ? run.scheduler.priorities?.() : null;
      if (q) {
        const scoreOmega = q.map((x, i) => x * (1 + selections[i] / DEFAULT_CONFIG.c0) ** -0.5);
        s.topQ.push(hitsOfHighest(q, 32, truth, threshold) / 32);
        s.topQOmega.push(hitsOfHighest(scoreOmega, 32, truth, threshold) / 32);
      }
      for (const i of d.metrics.batch) ((observed[i] = 1), selections[i]++);
    }
  }
  return { perStep, pool };
}

/** A counterfactual pool's random figures (2 runs x 200 steps) and Table 4 runs of `scheduler`. */
async function gridRun(pool, model, scheduler = 'envsched') {
  const rnd = (
    await reproduce(loadRunWasmNode, pool.loaded, config(0), pool.source, {
      seeds: 2,
      steps: 200,
      table4Runs: 0,
      seedBase: SEED0,
      schedulers: ['random'],
      extras: false,
      model,
    })
  ).rows[0];
  return { rnd, ...(await table4(pool.loaded, pool.source, model, scheduler)) };
}

/** A grid cell's random figures and Table 4 hit rates, as columns. */
function gridColumns({ rnd, perStep }) {
  const hit = (t) => perStep[t].hits / perStep[t].picks;
  return {
    rndMean: rnd.meanVariance.toFixed(4).padStart(13),
    rndMedian: rnd.medianVariance.toFixed(4).padStart(12),
    rndReward: rnd.medianReward.toFixed(3).padStart(15),
    hits: `${hit(1).toFixed(3).padStart(12)}${hit(7).toFixed(3).padStart(12)}`,
  };
}

/** One grid cell's figures on a counterfactual pool: random's Table 2 figures (2 runs x 200 steps), then Table 4's step-1 and step-7 hit rates. */
async function gridFigures(pool, model) {
  const c = gridColumns(await gridRun(pool, model));
  return `${c.rndMean}${c.rndMedian}${c.rndReward}${c.hits}`;
}

function printSteps(label, perStep) {
  process.stdout.write(
    `${label}\nstep  batch var  hit rate  never-observed share  hit (never observed)  hit (observed)  top-32 q  top-32 q*omega\n`,
  );
  for (let t = 1; t <= STEPS; t++) {
    const s = perStep[t];
    const seen = s.picks - s.fresh;
    process.stdout.write(
      `${String(t).padEnd(6)}${mean(s.batchVar).toFixed(4).padStart(9)}${(s.hits / s.picks).toFixed(3).padStart(10)}` +
        `${(s.fresh / s.picks).toFixed(3).padStart(22)}${(s.freshHits / Math.max(1, s.fresh)).toFixed(3).padStart(22)}` +
        `${(seen > 0 ? (s.hits - s.freshHits) / seen : NaN).toFixed(3).padStart(16)}` +
        `${mean(s.topQ).toFixed(3).padStart(10)}${mean(s.topQOmega).toFixed(3).padStart(16)}\n`,
    );
  }
}

const { loaded, source } = await loadDataset('envscaler-rl');
const taskEnv = loaded.packed.taskEnv;
const nEnvs = loaded.packed.nEnvs;
const calibrated = await table4(loaded, source);

// What the pool offers at the untrained policy.
const { truth, threshold } = calibrated.pool;
const n = truth.length;
const sortedTruth = Float64Array.from(truth).sort();
const top = Array.from(truth).filter((v) => v >= threshold);
process.stdout.write(
  `envscaler-rl, calibrated world, ${RUNS} Table 4 runs (seeds ${SEED0}..${SEED0 + RUNS - 1})\n` +
    `pool at the untrained policy: true within-group variance mean ${mean(Array.from(truth)).toFixed(4)}, median ${sortedTruth[Math.floor(n / 2)].toFixed(4)}, ` +
    `highest quartile from ${threshold.toFixed(4)}, its mean ${mean(top).toFixed(4)} (a batch of hits only would have about this variance)\n`,
);

// Ceiling of an environment-level prediction: picks spread over the k environments of highest true
// mean variance (the caps spread exploitation over several), tasks drawn at random inside them.
const envMean = new Float64Array(nEnvs);
const envHit = new Float64Array(nEnvs);
const envCount = new Float64Array(nEnvs);
for (let i = 0; i < n; i++) {
  envMean[taskEnv[i]] += truth[i];
  envCount[taskEnv[i]]++;
  if (truth[i] >= threshold) envHit[taskEnv[i]]++;
}
const envs = Array.from({ length: nEnvs }, (_, e) => ({ mean: envMean[e] / envCount[e], share: envHit[e] / envCount[e] })).sort(
  (a, b) => b.mean - a.mean,
);
const ceiling = (k) => mean(envs.slice(0, k).map((e) => e.share));
process.stdout.write(
  `environment-level ceiling (true mean variance known per environment, picks spread over its best k, tasks at random within): ` +
    `${[8, 12, 16].map((k) => `k = ${k}: ${ceiling(k).toFixed(3)}`).join(', ')}; best environment ${envs[0].share.toFixed(2)}\n\n`,
);
printSteps('calibrated pool', calibrated.perStep);

// Ceiling of the graph itself: predict each task's true variance by the similarity-weighted mean
// of its first k neighbours' true variances (every neighbour known exactly, which no scheduler
// has), and count how many of the 64 highest predictions are in the pool's highest quartile.
const truthRanks = averageRanks(truth);
/** Share of the 64 highest predictions whose true variance is at least `cut` (the pool's highest quartile). */
const precision64 = (pred, values = truth, cut = threshold) => hitsOfHighest(pred, 64, values, cut) / 64;
/** Similarity-weighted mean of `values` over the first k entries of task i's list (0 without entries). */
function neighbourMean(list, values, i, k) {
  let s = 0;
  let w = 0;
  for (let p = list.offsets[i]; p < Math.min(list.offsets[i + 1], list.offsets[i] + k); p++) {
    s += list.sim[p] * values[list.index[p]];
    w += list.sim[p];
  }
  return w > 0 ? s / w : 0;
}
const fromNeighbours = (list, k, values = truth) => Float64Array.from({ length: n }, (_, i) => neighbourMean(list, values, i, k));
const ceilingRow = (label, pred) =>
  `${label.padEnd(44)}${pearsonOfRanks(averageRanks(pred), truthRanks).toFixed(3).padStart(9)}${precision64(pred).toFixed(3).padStart(15)}\n`;
process.stdout.write(
  "\nthe graph's ceiling: each task predicted from its first k neighbours' exact true variances (Table 4's step-7 check: 0.85)\n" +
    `${'predictor'.padEnd(44)}${'Spearman'.padStart(9)}${'top-64 in Q4'.padStart(15)}\n` +
    [1, 3, 6, 12].map((k) => ceilingRow(`within-environment neighbours, k = ${k}`, fromNeighbours(loaded.packed.within, k))).join('') +
    [1, 3, 6, 12].map((k) => ceilingRow(`cross-environment neighbours, k = ${k}`, fromNeighbours(loaded.packed.cross, k))).join('') +
    ceilingRow(
      "the task's environment's mean",
      Float64Array.from({ length: n }, (_, i) => envMean[taskEnv[i]] / envCount[taskEnv[i]]),
    ),
);

// What neighbours share: Pearson correlation of a task's value with its first within-environment
// neighbour's, for the expected reward and the variance; and how much of the variance the expected
// reward alone explains (R^2 of the variance on 40 bins of the expected reward).
function firstNeighbourCorrelation(values) {
  const within = loaded.packed.within;
  const own = [];
  const next = [];
  for (let i = 0; i < n; i++)
    if (within.offsets[i + 1] > within.offsets[i]) (own.push(values[i]), next.push(values[within.index[within.offsets[i]]]));
  return pearsonOfRanks(own, next); // Pearson's correlation of any two series (here not ranks)
}
const truthMean = calibrated.pool.mean.subarray(0, n);
const binOf = (i) => Math.min(39, Math.floor(truthMean[i] * 40));
const binMean = Array.from({ length: 40 }, (_, b) => mean(Array.from(truth).filter((_, i) => binOf(i) === b)));
const truthAverage = mean(Array.from(truth));
const residual = Array.from(truth).reduce((s, v, i) => s + (v - binMean[binOf(i)]) ** 2, 0);
const total = Array.from(truth).reduce((s, v) => s + (v - truthAverage) ** 2, 0);
process.stdout.write(
  `first within-environment neighbour's correlation with the task: expected reward ${firstNeighbourCorrelation(truthMean).toFixed(3)}, ` +
    `variance ${firstNeighbourCorrelation(truth).toFixed(3)}; the expected reward explains R^2 = ${(1 - residual / total).toFixed(3)} of the variance\n`,
);

// Counterfactual pools, in memory: each gate's difficulty with its group's mean visible offset
// (over the pool, relative to all gates) scaled by `scale` (0: removed; 1: as generated). Groups:
// the task's environment (the visible structure of family, gate type, provenance and checks
// kept), or the gate's operation family (the untrained policy's skills made more uneven).
async function offsetScaledPool(scale, groupOf) {
  const copy = await loadDataset('envscaler-rl');
  const sim = copy.loaded.meta.sim;
  const sum = new Map();
  const cnt = new Map();
  let all = 0;
  let gates = 0;
  sim.tasks.forEach((task, i) => {
    for (const g of task.gates) {
      const visible = g.difficulty - (g.noise ?? 0);
      const key = groupOf(i, g);
      sum.set(key, (sum.get(key) ?? 0) + visible);
      cnt.set(key, (cnt.get(key) ?? 0) + 1);
      all += visible;
      gates++;
    }
  });
  const offsets = new Map([...sum].map(([key, v]) => [key, v / cnt.get(key) - all / gates]));
  sim.tasks.forEach((task, i) => {
    for (const g of task.gates) g.difficulty += (scale - 1) * offsets.get(groupOf(i, g));
  });
  return { copy, offsets };
}
const scaledPool = async (scale) => (await offsetScaledPool(scale, (i) => taskEnv[i])).copy;
const familyScaledPool = (scale) => offsetScaledPool(scale, (_, g) => g.family);

const flat = await scaledPool(0);
const noOffsets = await table4(flat.loaded, flat.source);
process.stdout.write('\n');
printSteps("counterfactual pool: the environments' mean difficulty offsets removed", noOffsets.perStep);

if (flags.grid) {
  // Wider environment offsets with a wider variance hump (lower logitScale): can the two together
  // keep random's variance near Table 2 and raise the hit rates? Random: 2 runs x 200 steps.
  process.stdout.write(
    '\nenvironment offsets x k, logitScale s (else the calibrated world): random (Table 2: 0.0321 / 0.0147 / 0.595) and Table 4 (0.572 / 0.921)\n' +
      '  k     s  rnd meanVar  rnd medVar  rnd medReward  step-1 hit  step-7 hit\n',
  );
  for (const logitScale of [2, 2.5, 3, 4])
    for (const scale of [1.5, 2, 2.5, 3]) {
      const model = { ...DEFAULT_SIM_MODEL, logitScale };
      const pool = await scaledPool(scale);
      process.stdout.write(`${String(scale).padStart(3)}${String(logitScale).padStart(6)}${await gridFigures(pool, model)}\n`);
    }
}

if (flags.family || flags['family-cells']) {
  const cells = flags['family-cells']
    ? flags['family-cells'].split(',').map((cell) => cell.split(':').map(Number))
    : [DEFAULT_SIM_MODEL.logitScale, 3.5, 2.5, 2].flatMap((s) => [0, 1, 2, 3].map((k) => [k, s]));
  const { offsets } = await familyScaledPool(1);
  process.stdout.write(
    `\noperation families' offsets x k, logitScale s (else the calibrated world); the generated offsets (k = 1): ` +
      `${[...offsets].map(([f, v]) => `family ${f}: ${v.toFixed(2)}`).join(' ')}\n` +
      'random on 2 runs x 200 steps (Table 2: 0.0321 / 0.0147 / 0.595) and Table 4 (step 1: 0.572, step 7: 0.921)\n' +
      '  k       s  rnd meanVar  rnd medVar  rnd medReward  step-1 hit  step-7 hit\n',
  );
  for (const [scale, logitScale] of cells) {
    const model = { ...DEFAULT_SIM_MODEL, logitScale };
    const { copy } = await familyScaledPool(scale);
    process.stdout.write(`${String(scale).padStart(3)}${logitScale.toFixed(4).padStart(8)}${await gridFigures(copy, model)}\n`);
  }
}

if (flags.smooth) {
  // Tasks described alike made alike: every gate of a task moved by rho times the difference
  // between the similarity-weighted mean difficulty of its first 6 within-environment neighbours
  // and its own mean gate difficulty (rho = 0: as generated). If the graph's neighbours were more
  // alike in difficulty, would they be more alike in variance?
  const smoothedPool = async (rho) => {
    const copy = await loadDataset('envscaler-rl');
    const tasks = copy.loaded.meta.sim.tasks;
    const within = copy.loaded.packed.within;
    const own = tasks.map((task) => mean(task.gates.map((g) => g.difficulty)));
    const shift = own.map((d, i) => rho * (neighbourMean(within, own, i, 6) - d));
    tasks.forEach((task, i) => task.gates.forEach((g) => (g.difficulty += shift[i])));
    return copy;
  };
  process.stdout.write(
    "\ndifficulty moved toward the within-environment neighbours' (rho), calibrated world otherwise\n" +
      'random on 2 runs x 200 steps (Table 2: 0.0321 / 0.0147 / 0.595) and Table 4 (step 1: 0.572, step 7: 0.921)\n' +
      'rho  rnd meanVar  rnd medVar  rnd medReward  step-1 hit  step-7 hit\n',
  );
  for (const rho of [0, 0.5, 1, 1.5])
    process.stdout.write(`${String(rho).padEnd(3)}${await gridFigures(await smoothedPool(rho), DEFAULT_SIM_MODEL)}\n`);
}

if (flags.coherence || flags['coherence-cells']) {
  // Environments whose tasks are alike: each task's gates shifted by one amount so that the logit
  // of its expected reward at the untrained policy moves from its environment's mean by (1 - c)
  // times its own deviation, and the environments' means from the pool's by k times theirs (c = 0,
  // k = 1: as generated). If an environment's tasks were alike in expected reward, would the
  // graph's neighbours be alike in variance?
  const model = DEFAULT_SIM_MODEL;
  /** A task's exact expected honest reward with every gate `shift` harder, untrained policy (docs/simulator.md). */
  const expectedReward = (task, shift) => {
    const total = task.initiallySatisfied + task.gates.reduce((s, g) => s + g.checks, 0);
    let prefix = 1;
    let checks = task.initiallySatisfied;
    let mu = 0;
    for (const g of task.gates) {
      const d = g.difficulty + (model.hiddenNoise - 1) * (g.noise ?? 0) + shift;
      const p = 1 / (1 + Math.exp(-model.logitScale * (model.competence0 - d)));
      mu += (prefix * (1 - p) * checks) / total;
      prefix *= p;
      checks += g.checks * (1 - model.partialCredit * (1 - p));
    }
    return mu + (prefix * checks) / total;
  };
  const logit = (x) => Math.log(Math.max(1e-9, x) / Math.max(1e-9, 1 - x));
  const coherentPool = async (c, k) => {
    const copy = await loadDataset('envscaler-rl');
    const tasks = copy.loaded.meta.sim.tasks;
    const own = tasks.map((task) => logit(expectedReward(task, 0)));
    const envLogit = new Float64Array(nEnvs);
    own.forEach((l, i) => (envLogit[taskEnv[i]] += l / envCount[taskEnv[i]]));
    const poolLogit = mean(own);
    tasks.forEach((task, i) => {
      const e = envLogit[taskEnv[i]];
      const target = poolLogit + k * (e - poolLogit) + (1 - c) * (own[i] - e);
      let lo = -20; // the expected reward falls as the shift grows: bisect for the target
      let hi = 20;
      for (let it = 0; it < 60; it++) {
        const mid = (lo + hi) / 2;
        if (logit(expectedReward(task, mid)) > target) lo = mid;
        else hi = mid;
      }
      for (const g of task.gates) g.difficulty += (lo + hi) / 2;
    });
    return copy;
  };
  // The script's own formula is the kernel's: the untrained policy's expected reward, as sim_expect
  // gives it (tasks without an exploit, whose truth is the honest walk's).
  const worst = Math.max(
    ...loaded.meta.sim.tasks.map((task, i) => (task.exploitable ? 0 : Math.abs(expectedReward(task, 0) - calibrated.pool.mean[i]))),
  );
  if (!(worst < 1e-9)) throw new Error(`the coherence probe's expected reward differs from the kernel's by ${worst}`);
  const cells = (flags['coherence-cells'] ?? '0:1,0.5:1,0.8:1,0.95:1,0.8:1.5,0.95:2,0.95:3')
    .split(',')
    .map((cell) => cell.split(':').map(Number));
  process.stdout.write(
    "\nenvironments' tasks made alike in expected reward (c) and environments spread apart (k), calibrated world otherwise\n" +
      "random on 2 runs x 200 steps (Table 2: 0.0321 / 0.0147 / 0.595), the graph's ceiling (6 within / 12 cross neighbours) and Table 4 (0.572 / 0.921)\n" +
      '   c     k  rnd meanVar  rnd medVar  rnd medReward  ceiling-in  ceiling-x  step-1 hit  step-7 hit\n',
  );
  for (const [c, k] of cells) {
    const pool = await coherentPool(c, k);
    const run = await gridRun(pool, DEFAULT_SIM_MODEL);
    const at0 = run.pool;
    const ceilingOf = (list, kn) => precision64(fromNeighbours(list, kn, at0.truth), at0.truth, at0.threshold);
    const col = gridColumns(run);
    process.stdout.write(
      `${c.toFixed(2).padStart(5)}${k.toFixed(2).padStart(6)}${col.rndMean}${col.rndMedian}${col.rndReward}` +
        `${ceilingOf(pool.loaded.packed.within, 6).toFixed(3).padStart(12)}${ceilingOf(pool.loaded.packed.cross, 12).toFixed(3).padStart(11)}` +
        `${col.hits}\n`,
    );
  }
}

if (flags.twins || flags['twin-sizes']) {
  // Neighbours that share a reward structure: tasks taken in pool order, each one not yet taken
  // starts a group with its first s - 1 untaken within-environment neighbours, and every member
  // gets the first one's chain (families, gate types, checks, initially satisfied checks) and
  // difficulties, moved by its own hidden offset (the mean of its gates' hidden noise). s = 1 is the
  // generated pool; s = 50, one structure per environment. The cross-environment lists are not
  // rebuilt (they would follow the new structures), so Table 4 is run with within-only EnvSched.
  const twinPool = async (size) => {
    const copy = await loadDataset('envscaler-rl');
    const tasks = copy.loaded.meta.sim.tasks;
    const within = copy.loaded.packed.within;
    const first = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      if (first[i] >= 0) continue;
      first[i] = i;
      let members = 1;
      for (let p = within.offsets[i]; p < within.offsets[i + 1] && members < size; p++)
        if (first[within.index[p]] < 0) ((first[within.index[p]] = i), members++);
    }
    const generated = tasks.map((task) => ({ ...task, gates: task.gates.map((g) => ({ ...g })) }));
    const hiddenOffset = generated.map((task) => mean(task.gates.map((g) => g.noise ?? 0)));
    tasks.forEach((task, i) => {
      const model = generated[first[i]];
      const delta = hiddenOffset[i] - hiddenOffset[first[i]];
      task.gates = model.gates.map((g) => ({ ...g, difficulty: g.difficulty + delta, noise: (g.noise ?? 0) + delta }));
      task.initiallySatisfied = model.initiallySatisfied;
      copy.loaded.meta.tasks[i].checks = task.gates.reduce((s, g) => s + g.checks, task.initiallySatisfied);
    });
    return copy;
  };
  const sizes = (flags['twin-sizes'] ?? '1,2,4,8,16,50').split(',').map(Number);
  process.stdout.write(
    '\nneighbours sharing one reward structure (groups of s), calibrated world otherwise\n' +
      "random on 2 runs x 200 steps (Table 2: 0.0321 / 0.0147 / 0.595), the graph's ceiling (6 within-environment neighbours) and Table 4 with within-only EnvSched (0.572 / 0.921)\n" +
      '   s  rnd meanVar  rnd medVar  rnd medReward  ceiling-in  step-1 hit  step-7 hit\n',
  );
  for (const size of sizes) {
    const pool = await twinPool(size);
    const run = await gridRun(pool, DEFAULT_SIM_MODEL, 'within-only');
    const ceilingIn = precision64(fromNeighbours(pool.loaded.packed.within, 6, run.pool.truth), run.pool.truth, run.pool.threshold);
    const col = gridColumns(run);
    process.stdout.write(
      `${String(size).padStart(4)}${col.rndMean}${col.rndMedian}${col.rndReward}${ceilingIn.toFixed(3).padStart(12)}${col.hits}\n`,
    );
  }
}
