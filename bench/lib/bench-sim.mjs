// Hidden simulator parameters (SPEC 10, src/engine/sim-params.ts) for a bench pool
// (bench-graph.mjs), so a large pool can be simulated, not only scored (a 100K pool, 50
// steps in the browser). Same recipe as src/sim/synthetic-pool.ts (per-environment family profile,
// gate difficulty from visible structure plus noise), without its O(N^2) similarity pass: the bench
// graph already has its lists. Each task's checks add up to its graph task's `checks`.
import { benchRng } from './bench-graph.mjs';

const FAMILIES = ['lookup', 'create', 'update', 'delete', 'authorise', 'search', 'transfer', 'schedule', 'validate', 'notify'];
const GATE_TYPES = ['identifier-resolution', 'state-precondition', 'authorisation', 'write-effect'];

/** One chain of 2-4 gates whose checks, plus those initially satisfied, total `checks` (>= 3). */
function makeTask(next, profile, familyBase, checks) {
  const initiallySatisfied = next() < 0.4 ? 1 : 0;
  const nGates = Math.min(2 + Math.floor(next() * 3), checks - initiallySatisfied);
  let left = checks - initiallySatisfied;
  const gates = [];
  for (let k = 0; k < nGates; k++) {
    const rest = nGates - k - 1;
    const c = rest === 0 ? left : 1 + Math.floor(next() * (left - rest));
    left -= c;
    const family = profile.families[Math.floor(next() * profile.families.length)];
    const type = k === 0 ? 0 : 1 + Math.floor(next() * 3);
    const difficulty = profile.base + familyBase[family] + 0.25 * type + 0.08 * c + 0.6 * (next() - 0.5) * 2;
    gates.push({ family, type, difficulty, checks: c });
  }
  return { gates, initiallySatisfied, exploitable: next() < 0.02 };
}

/** SimParams for `meta` (the bench graph's metadata: envs, tasks with env and checks). */
export function benchSimParams(meta, seed = 5) {
  const next = benchRng(seed);
  const familyBase = FAMILIES.map(() => (next() - 0.5) * 1.6);
  const profile = () => {
    const fams = new Set();
    const count = 3 + Math.floor(next() * 3);
    while (fams.size < count) fams.add(Math.floor(next() * FAMILIES.length));
    return { families: [...fams].sort((a, b) => a - b), base: (next() - 0.5) * 1.4 };
  };
  const profiles = meta.envs.map(() => profile());
  const tasks = meta.tasks.map((t) => makeTask(next, profiles[t.env], familyBase, t.checks));
  const heldout = [0, 1].map((s) => {
    const envs = Array.from({ length: 4 }, (_, e) => ({ id: `heldout_${s}_env_${e}`, name: `HeldoutEnv${s}_${e}`, category: null }));
    const suiteProfiles = envs.map(() => profile());
    const suiteTasks = [];
    for (let e = 0; e < envs.length; e++)
      for (let k = 0; k < 20; k++) suiteTasks.push({ ...makeTask(next, suiteProfiles[e], familyBase, 8), env: e });
    return { name: `suite-${String.fromCharCode(65 + s)}`, envs, tasks: suiteTasks };
  });
  return { version: 1, families: FAMILIES, gateTypes: GATE_TYPES, tasks, heldout };
}
