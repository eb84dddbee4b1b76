#!/usr/bin/env node
// The teaching figures docs/reproduction.md quotes ("What agrees" and "What does not"), in the
// calibrated world (or --world W): on `classroom` with the lecture link's B = 8, EnvSched against
// random over 40 steps on seeds 0-19 (coverage, variance, held-out gain) and at steps 100, 120 and
// 200 on seeds 0-9; on `tiny` with B = 8 over 200 steps, the held-out gain ratio per seed 0-9; on
// `envscaler-rl` with the defaults, the gain ratio at steps 40 and 200 on seeds 0-9; and the
// lecture's figures of docs/teaching.md (its result card on classroom, seeds 0-4; tiny with B = 12
// and envscaler-rl over 40 steps, seeds 0-9).
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
const run = async (loaded, source, scheduler, overrides) =>
  runSimulation(await loadRunWasmNode(), loaded, { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha], scheduler, ...overrides }, source, {
    model,
  });
const at = (r, t) => (t === 0 ? r.summary.heldoutInitial : r.steps[t - 1].heldoutOverall);
const gain = (r, t) => at(r, t) - r.summary.heldoutInitial;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f = (x, d = 3) => x.toFixed(d);

const classroom = await loadDataset('classroom');
const lecture = { envs: [[], []], vars: [[], []], gains: [[], []], allWins: 0 };
for (let seed = 0; seed < 20; seed++) {
  const r = await run(classroom.loaded, classroom.source, 'random', { seed, B: 8, T: 40 });
  const e = await run(classroom.loaded, classroom.source, 'envsched', { seed, B: 8, T: 40 });
  [r, e].forEach((x, k) => {
    lecture.envs[k].push(x.summary.envsPerBatch);
    lecture.vars[k].push(x.summary.meanVariance);
    lecture.gains[k].push(gain(x, 40));
  });
  const wins =
    e.summary.envsPerBatch > r.summary.envsPerBatch && e.summary.meanVariance > r.summary.meanVariance && gain(e, 40) > gain(r, 40);
  if (wins) lecture.allWins++;
}
console.log('classroom, B = 8, 40 steps, seeds 0-19 (EnvSched / random, means)');
console.log(
  `  envs per batch ${f(mean(lecture.envs[1]), 2)} / ${f(mean(lecture.envs[0]), 2)}; mean variance ${f(mean(lecture.vars[1]), 4)} / ${f(mean(lecture.vars[0]), 4)}; held-out gain ${f(mean(lecture.gains[1]))} / ${f(mean(lecture.gains[0]))}`,
);
console.log(`  seeds on which EnvSched is above on all three: ${lecture.allWins} of 20`);

console.log('classroom, B = 8, 200 steps, seeds 0-9: EnvSched minus random held-out at steps 40 / 100 / 120 / 200');
const lead = { 40: [], 100: [], 120: [], 200: [] };
const g200 = [[], []];
for (let seed = 0; seed < 10; seed++) {
  const r = await run(classroom.loaded, classroom.source, 'random', { seed, B: 8, T: 200 });
  const e = await run(classroom.loaded, classroom.source, 'envsched', { seed, B: 8, T: 200 });
  for (const t of [40, 100, 120, 200]) lead[t].push(at(e, t) - at(r, t));
  g200[0].push(gain(r, 200));
  g200[1].push(gain(e, 200));
  console.log(`  seed ${seed}: ${[40, 100, 120, 200].map((t) => f(at(e, t) - at(r, t), 4)).join(' / ')}`);
}
for (const t of [40, 100, 120, 200])
  console.log(`  step ${t}: EnvSched ahead on ${lead[t].filter((x) => x > 0).length} of 10 seeds, mean lead ${f(mean(lead[t]), 4)}`);
console.log(`  gain at step 200: EnvSched ${f(mean(g200[1]))}, random ${f(mean(g200[0]))}`);

const tiny = await loadDataset('tiny');
console.log('tiny, B = 8, 200 steps, seeds 0-9: envs per batch EnvSched / random, held-out gain ratio EnvSched / random');
const ratios = [];
for (let seed = 0; seed < 10; seed++) {
  const r = await run(tiny.loaded, tiny.source, 'random', { seed, B: 8 });
  const e = await run(tiny.loaded, tiny.source, 'envsched', { seed, B: 8 });
  ratios.push(gain(e, 200) / gain(r, 200));
  console.log(`  seed ${seed}: ${f(e.summary.envsPerBatch, 2)} / ${f(r.summary.envsPerBatch, 2)}, ratio ${f(ratios[seed])}`);
}
console.log(
  `  EnvSched's gain above random's on ${ratios.filter((x) => x > 1).length} of 10 seeds; ratios ${f(Math.min(...ratios))} to ${f(Math.max(...ratios))}`,
);

const pool = await loadDataset('envscaler-rl');
console.log('envscaler-rl, defaults, seeds 0-9: held-out gain EnvSched / random at steps 40 and 200');
const r40 = [];
const r200 = [];
const gs = { 40: [[], []], 200: [[], []] };
for (let seed = 0; seed < 10; seed++) {
  const r = await run(pool.loaded, pool.source, 'random', { seed });
  const e = await run(pool.loaded, pool.source, 'envsched', { seed });
  r40.push(gain(e, 40) / gain(r, 40));
  r200.push(gain(e, 200) / gain(r, 200));
  for (const t of [40, 200]) {
    gs[t][0].push(gain(r, t));
    gs[t][1].push(gain(e, t));
  }
}
for (const [t, rs] of [
  [40, r40],
  [200, r200],
])
  console.log(
    `  step ${t}: EnvSched ${f(mean(gs[t][1]))} against random ${f(mean(gs[t][0]))} (ratio of means ${f(mean(gs[t][1]) / mean(gs[t][0]))}); EnvSched ahead on ${rs.filter((x) => x > 1).length} of 10 seeds, ratios ${f(Math.min(...rs))} to ${f(Math.max(...rs))}`,
  );

/** The first step (1-based) at which a run's held-out reaches `target`, as the result card counts it. */
const reach = (r, target) => {
  const k = r.steps.findIndex((s) => s.heldoutOverall >= target);
  return k < 0 ? null : k + 1;
};
console.log("the lecture's result card: classroom, B = 8, 40 steps, seeds 0-4 (EnvSched / random, means)");
const card = { envs: [[], []], vars: [[], []], steps: [[], []] };
for (let seed = 0; seed < 5; seed++) {
  const r = await run(classroom.loaded, classroom.source, 'random', { seed, B: 8, T: 40 });
  const e = await run(classroom.loaded, classroom.source, 'envsched', { seed, B: 8, T: 40 });
  [e, r].forEach((x, k) => {
    card.envs[k].push(x.summary.envsPerBatch);
    card.vars[k].push(x.summary.meanVariance);
    const steps = reach(x, r.summary.heldoutFinal);
    if (steps !== null) card.steps[k].push(steps);
  });
}
console.log(
  `  envs per batch ${f(mean(card.envs[0]), 2)} / ${f(mean(card.envs[1]), 2)}; mean variance ${f(mean(card.vars[0]), 4)} / ${f(mean(card.vars[1]), 4)}; steps to random's final held-out ${f(mean(card.steps[0]), 1)} (${card.steps[0].length} seeds) / ${f(mean(card.steps[1]), 1)}`,
);

for (const [name, data, B] of [
  ['tiny', tiny, 12],
  ['envscaler-rl', pool, 64],
]) {
  const acc = { envs: [[], []], vars: [[], []], gains: [[], []], wins: [0, 0, 0] };
  for (let seed = 0; seed < 10; seed++) {
    const r = await run(data.loaded, data.source, 'random', { seed, B, T: 40 });
    const e = await run(data.loaded, data.source, 'envsched', { seed, B, T: 40 });
    [e, r].forEach((x, k) => {
      acc.envs[k].push(x.summary.envsPerBatch);
      acc.vars[k].push(x.summary.meanVariance);
      acc.gains[k].push(gain(x, 40));
    });
    if (e.summary.envsPerBatch > r.summary.envsPerBatch) acc.wins[0]++;
    if (e.summary.meanVariance > r.summary.meanVariance) acc.wins[1]++;
    if (gain(e, 40) > gain(r, 40)) acc.wins[2]++;
  }
  console.log(`${name}, B = ${B}, 40 steps, seeds 0-9 (EnvSched / random, means; seeds on which EnvSched is above)`);
  console.log(
    `  envs per batch ${f(mean(acc.envs[0]), 2)} / ${f(mean(acc.envs[1]), 2)} (${acc.wins[0]}); mean variance ${f(mean(acc.vars[0]), 4)} / ${f(mean(acc.vars[1]), 4)} (${acc.wins[1]}); held-out gain ${f(mean(acc.gains[0]))} / ${f(mean(acc.gains[1]))} (${acc.wins[2]})`,
  );
}
