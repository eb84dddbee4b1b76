// Bench pools at industry sizes: E environments x T tasks with within / cross / fullCross lists of SPEC 1,
// generated straight into CSR typed arrays (no TF-IDF). Shapes follow real graphs (envscaler-rl):
// within(i) is complete; cross(i) holds the M_cross tasks of other environments with the highest
// S_abs drawn mostly from a few related environments (same category cluster), fullCross(i) the
// P_cross highest S_full. Values are a symmetric function of the pair (S(i,j) = S(j,i), as the
// builder guarantees) rounded to 1e-6, so ties occur as in files. Deterministic for a seed.
import { mulberry32 } from '../../dist/util/mulberry32.js';

/** 32-bit mix of an unordered pair and a salt: the same value seen from i and from j. */
function pairHash(i, j, salt) {
  let a = Math.min(i, j) >>> 0;
  let b = Math.max(i, j) >>> 0;
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + salt, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

const round6 = (x) => Math.round(x * 1e6) / 1e6;

/** The bench data's generator (mulberry32, fixed data; never the app's PCG32). */
export const benchRng = mulberry32;

const KEY_SCALE = 2 ** 21; // task indices < 2^21 (2M tasks)
const keyScratch = new Float64Array(4096);

/**
 * Sorts entries [from, to) of (idx, sim) by sim descending, then index ascending: sims are on the
 * 1e-6 grid, so (1e6 - round(sim * 1e6)) * 2^21 + index is an exact integer key in a double.
 */
function sortList(idx, sim, from, to) {
  const len = to - from;
  const keys = keyScratch.subarray(0, len);
  for (let a = 0; a < len; a++) keys[a] = (1e6 - Math.round(sim[from + a] * 1e6)) * KEY_SCALE + idx[from + a];
  keys.sort();
  for (let a = 0; a < len; a++) {
    const k = keys[a];
    const j = k % KEY_SCALE;
    idx[from + a] = j;
    sim[from + a] = (1e6 - (k - j) / KEY_SCALE) / 1e6;
  }
}

const CLUSTER = 8; // related environments per category cluster

/**
 * A pool of `envs` x `perEnv` tasks. Returns { meta, packed } (the LoadedGraph shape of
 * src/engine/types.ts, metadata kept small: ids, env, category).
 */
export function generateBenchGraph({ envs, perEnv, mCross = 256, pCross = 32, seed = 1 }) {
  const n = envs * perEnv;
  const next = benchRng(seed);
  const taskEnv = new Int32Array(n);
  for (let i = 0; i < n; i++) taskEnv[i] = Math.floor(i / perEnv);
  const envBase = Float64Array.from({ length: envs }, () => 0.3 + 0.3 * next()); // mean within similarity

  // within: every other task of the environment
  const wLen = perEnv - 1;
  const within = { offsets: new Int32Array(n + 1), index: new Int32Array(n * wLen), sim: new Float64Array(n * wLen) };
  for (let i = 0; i < n; i++) {
    const e = taskEnv[i];
    const from = i * wLen;
    within.offsets[i] = from;
    let at = from;
    for (let j = e * perEnv; j < (e + 1) * perEnv; j++) {
      if (j === i) continue;
      within.index[at] = j;
      within.sim[at] = round6(Math.min(1, Math.max(0, envBase[e] + 0.3 * (pairHash(i, j, 1) - 0.5))));
      at++;
    }
    sortList(within.index, within.sim, from, at);
  }
  within.offsets[n] = n * wLen;

  // cross / fullCross: candidates from the environment's cluster (70%) or anywhere (30%)
  const otherTask = (i, salt, k) => {
    const e = taskEnv[i];
    const r = pairHash(i, k, salt);
    const r2 = pairHash(i, k, salt + 7);
    let f;
    if (r < 0.7 && envs > 1) {
      const c0 = Math.floor(e / CLUSTER) * CLUSTER;
      const size = Math.min(CLUSTER, envs - c0);
      f = size > 1 ? c0 + Math.floor(r2 * size) : Math.floor(r2 * envs);
    } else f = Math.floor(r2 * envs);
    if (f === e) f = (e + 1 + Math.floor(r2 * (envs - 1))) % envs;
    if (f === e) return -1;
    return f * perEnv + Math.floor(pairHash(i, k, salt + 13) * perEnv);
  };
  const buildCross = (m, salt, lo, span) => {
    const list = { offsets: new Int32Array(n + 1), index: new Int32Array(n * m), sim: new Float64Array(n * m) };
    const seen = new Int32Array(n); // stamp i + 1: j already drawn for task i
    let at = 0;
    for (let i = 0; i < n; i++) {
      list.offsets[i] = at;
      const from = at;
      const want = Math.min(m, n - perEnv);
      for (let k = 0; at - from < want && k < 8 * m + 64; k++) {
        const j = otherTask(i, salt, k);
        if (j < 0 || seen[j] === i + 1) continue;
        seen[j] = i + 1;
        list.index[at] = j;
        const related = Math.floor(taskEnv[j] / CLUSTER) === Math.floor(taskEnv[i] / CLUSTER);
        list.sim[at] = round6(lo + span * (related ? 0.4 + 0.6 * pairHash(i, j, salt + 29) : 0.7 * pairHash(i, j, salt + 29)));
        at++;
      }
      sortList(list.index, list.sim, from, at);
    }
    list.offsets[n] = at;
    return { offsets: list.offsets, index: list.index.subarray(0, at), sim: list.sim.subarray(0, at) };
  };
  const cross = buildCross(mCross, 101, 0.3, 0.6);
  const fullCross = buildCross(pCross, 201, 0.05, 0.4);

  const categories = ['finance', 'travel', 'retail', 'health', 'education', 'logistics', null];
  const meta = {
    format: 'envsched-graph',
    version: 1,
    name: `bench-${envs}x${perEnv}`,
    envs: Array.from({ length: envs }, (_, e) => ({
      id: `e${e}`,
      name: `E${e}`,
      category: categories[Math.floor(e / CLUSTER) % categories.length],
      tools: [],
    })),
    tasks: Array.from({ length: n }, (_, i) => ({ id: `e${taskEnv[i]}-t${i % perEnv}`, env: taskEnv[i], tools: [], checks: 8, text: '' })),
  };
  // categories numbered by first appearance over envs (SPEC 12); null = own category
  const seenCat = new Map();
  let nCategories = 0;
  const envCategory = Int32Array.from(meta.envs, (env) => {
    if (env.category === null) return nCategories++;
    if (!seenCat.has(env.category)) seenCat.set(env.category, nCategories++);
    return seenCat.get(env.category);
  });
  return { meta, packed: { nTasks: n, nEnvs: envs, nCategories, taskEnv, envCategory, within, cross, fullCross } };
}

/**
 * A history of `steps` steps of `perStep` distinct tasks with K rewards each (grid 1/K), task
 * difficulty from its environment plus noise, slowly improving, a few flagged rollouts.
 */
export function generateBenchHistory({ nTasks, perEnv, steps = 200, perStep = 64, K = 8, seed = 11 }) {
  const next = benchRng(seed);
  const out = [];
  for (let step = 0; step < steps; step++) {
    const chosen = new Set();
    while (chosen.size < Math.min(perStep, nTasks)) chosen.add(Math.floor(next() * nTasks));
    for (const task of [...chosen].sort((a, b) => a - b)) {
      const env = Math.floor(task / perEnv);
      const p = 0.15 + 0.7 * pairHash(env, env, 3) + 0.2 * (pairHash(task, task, 5) - 0.5) + 0.1 * (step / steps);
      const rewards = Array.from({ length: K }, () => Math.round(Math.min(1, Math.max(0, p + (next() - 0.5) * 0.7)) * K) / K);
      const o = { step, task, rewards };
      if (next() < 0.002) o.flags = rewards.map((_, k) => k === 0);
      out.push(o);
    }
  }
  return out;
}
