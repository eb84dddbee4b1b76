#!/usr/bin/env node
// The teaching figures docs/reproduction.md, docs/teaching.md and docs/simulator.md quote, in the
// calibrated world (or --world W), EnvSched against random:
// - `classroom`, the lecture link's B = 8 and 40 steps: coverage, variance and held-out gain on
//   seeds 0-19, and the lecture's result card (seeds 0-4: coverage, variance, steps to random's final);
// - `classroom` over 200 steps: the held-out lead at steps 40, 100, 120 and 200 on seeds 0-9;
// - `tiny` with B = 8 over 200 steps: coverage and the held-out gain ratio on seeds 0-9;
// - `envscaler-rl` with the defaults: the gain ratio at steps 40 and 200 on seeds 0-9;
// - `tiny` with B = 12 and `envscaler-rl`, both over 40 steps: coverage, variance and gain, seeds 0-9.
// Usage: node scripts/teaching-figures.mjs [--world W]   (needs dist/: npm run build:node)
import { parseArgs } from 'node:util';

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { loadDataset } = await import(dist('sim/dataset-node.js'));
const { loadRunWasmNode } = await import(dist('sim/wasm-node.js'));
const { runSimulation } = await import(dist('sim/run.js'));
const { DEFAULT_CONFIG } = await import(dist('engine/config.js'));
const { parseWorldOverrides } = await import(dist('sim/model-params.js'));

const { values: flags } = parseArgs({ options: { world: { type: 'string' } } });
const model = flags.world ? parseWorldOverrides(flags.world, 'command line', '--world') : undefined;
const config = (scheduler, overrides) => ({ ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha], scheduler, ...overrides });
/** EnvSched's and random's runs on one seed, same dataset and settings. */
async function pair(data, overrides) {
  const one = async (scheduler) =>
    runSimulation(await loadRunWasmNode(), data.loaded, config(scheduler, overrides), data.source, { model });
  return { e: await one('envsched'), r: await one('random') };
}
const at = (run, t) => (t === 0 ? run.summary.heldoutInitial : run.steps[t - 1].heldoutOverall);
const gain = (run, t) => at(run, t) - run.summary.heldoutInitial;
/** The first step (1-based) at which a run's held-out reaches `target`, as the result card counts it (stepsToReach, src/ui/result/card.ts, which dist/ does not build). */
const reach = (run, target) => {
  const k = run.steps.findIndex((s) => s.heldoutOverall >= target);
  return k < 0 ? null : k + 1;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f = (x, d = 3) => x.toFixed(d);
/** "EnvSched / random" means of a figure over pairs, and the seeds on which EnvSched's is larger. */
function side(pairs, figure, digits) {
  const above = pairs.filter((p) => figure(p.e) > figure(p.r)).length;
  return `${f(mean(pairs.map((p) => figure(p.e))), digits)} / ${f(mean(pairs.map((p) => figure(p.r))), digits)} (above on ${above})`;
}
const seeds = (n) => Array.from({ length: n }, (_, seed) => seed);
/** Coverage, variance and held-out gain over `T` steps, as the lecture's charts show them. */
function lectureLine(pairs, T) {
  return `  envs per batch ${side(pairs, (x) => x.summary.envsPerBatch, 2)}; mean variance ${side(pairs, (x) => x.summary.meanVariance, 4)}; held-out gain ${side(pairs, (x) => gain(x, T), 3)}`;
}

const classroom = await loadDataset('classroom');
const lecture = [];
for (const seed of seeds(20)) lecture.push(await pair(classroom, { seed, B: 8, T: 40 }));
console.log('classroom, B = 8, 40 steps, seeds 0-19 (EnvSched / random, means; seeds on which EnvSched is above)');
console.log(lectureLine(lecture, 40));
const allThree = lecture.filter(
  ({ e, r }) =>
    e.summary.envsPerBatch > r.summary.envsPerBatch && e.summary.meanVariance > r.summary.meanVariance && gain(e, 40) > gain(r, 40),
);
console.log(`  seeds on which EnvSched is above on all three: ${allThree.length} of 20`);
const card = lecture.slice(0, 5);
const steps = (run, { r }) => reach(run, r.summary.heldoutFinal);
const reached = (who) => card.map((p) => steps(p[who], p)).filter((x) => x !== null);
console.log("the lecture's result card, seeds 0-4 (EnvSched / random, means)");
console.log(
  `  envs per batch ${side(card, (x) => x.summary.envsPerBatch, 2)}; mean variance ${side(card, (x) => x.summary.meanVariance, 4)}; steps to random's final held-out ${f(mean(reached('e')), 1)} (${reached('e').length} seeds) / ${f(mean(reached('r')), 1)}`,
);

console.log('classroom, B = 8, 200 steps, seeds 0-9: EnvSched minus random held-out at steps 40 / 100 / 120 / 200');
const long = [];
for (const seed of seeds(10)) {
  const p = await pair(classroom, { seed, B: 8, T: 200 });
  long.push(p);
  console.log(`  seed ${seed}: ${[40, 100, 120, 200].map((t) => f(at(p.e, t) - at(p.r, t), 4)).join(' / ')}`);
}
for (const t of [40, 100, 120, 200]) {
  const leads = long.map((p) => at(p.e, t) - at(p.r, t));
  console.log(`  step ${t}: EnvSched ahead on ${leads.filter((x) => x > 0).length} of 10 seeds, mean lead ${f(mean(leads), 4)}`);
}
console.log(`  gain at step 200: ${side(long, (x) => gain(x, 200), 3)}`);

const tiny = await loadDataset('tiny');
console.log('tiny, B = 8, 200 steps, seeds 0-9: envs per batch EnvSched / random, held-out gain ratio EnvSched / random');
const ratios = [];
for (const seed of seeds(10)) {
  const { e, r } = await pair(tiny, { seed, B: 8 });
  ratios.push(gain(e, 200) / gain(r, 200));
  console.log(`  seed ${seed}: ${f(e.summary.envsPerBatch, 2)} / ${f(r.summary.envsPerBatch, 2)}, ratio ${f(ratios[seed])}`);
}
console.log(
  `  EnvSched's gain above random's on ${ratios.filter((x) => x > 1).length} of 10 seeds; ratios ${f(Math.min(...ratios))} to ${f(Math.max(...ratios))}`,
);

const pool = await loadDataset('envscaler-rl');
const full = [];
for (const seed of seeds(10)) full.push(await pair(pool, { seed }));
console.log('envscaler-rl, defaults, seeds 0-9: held-out gain EnvSched / random at steps 40 and 200');
for (const t of [40, 200]) {
  const rs = full.map((p) => gain(p.e, t) / gain(p.r, t));
  console.log(`  step ${t}: ${side(full, (x) => gain(x, t), 3)}; ratios ${f(Math.min(...rs))} to ${f(Math.max(...rs))}`);
}

const tiny12 = [];
for (const seed of seeds(10)) tiny12.push(await pair(tiny, { seed, B: 12, T: 40 }));
console.log('tiny, B = 12, 40 steps, seeds 0-9 (EnvSched / random, means; seeds on which EnvSched is above)');
console.log(lectureLine(tiny12, 40));
const pool40 = [];
for (const seed of seeds(10)) pool40.push(await pair(pool, { seed, T: 40 }));
console.log('envscaler-rl, B = 64, 40 steps, seeds 0-9 (the same)');
console.log(lectureLine(pool40, 40));
