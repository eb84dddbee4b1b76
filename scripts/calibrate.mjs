#!/usr/bin/env node
// `npm run calibrate`: fits the simulated world's free parameters to the fit targets declared in
// docs/calibration.md (facts about the world and the random scheduler, plus Table 4(a)'s step-1
// hit rate) with CMA-ES (or, as the first four fits ran, Nelder-Mead) over a bounded box, common
// random numbers and several seeds per evaluation; refits on a disjoint seed set and reports the
// spread; writes the fitted values to src/sim/calibrated.ts (the simulator's defaults) and a
// report to docs/calibration-report.md. The checks are not evaluated here: `envsched reproduce`
// evaluates them on seeds no fit used.
//
// Usage: node scripts/calibrate.mjs [--optimiser cmaes|nm] [--evals N] [--seeds S] [--t4-runs R]
//          [--world third|grpo|adam|decay|std|noise|envdrift|noisedrift|famcap|memo|memob|gradcredit|coldstart|coldnoise|coldnoisedrift] [--start fifth|declared] [--parallel] [--write none] [--out F.json]
//          [--from F.json [--cross]] [--default A|B|fresh] [--dry-run] [--noise K]
//   defaults: the twelfth fit (CMA-ES, 600 evaluations per fit, world memo, 24 cold starts, from its
//   declared start, the defaults chosen on fresh seed sets); `npm run calibrate` adds --world coldstart
//   --t4-runs 96 --evals 300 --parallel, the sixteenth fit, so it fits the values of src/sim/calibrated.ts
//   again (its fit B; the rule then keeps them)
//   --start declared, --optimiser nm and --evals 70 / 150 / 110 are the first four fits
//   --parallel      fits A and B in two processes (one per core)
//   --cross         with --from, evaluates each saved fit on the other fit's seeds too (prints JSON):
//                   whether fit B's point beats fit A's on fit A's own seeds, and the reverse
//   --noise K       evaluates the world's start (with --from F.json, each saved fit) on K seed sets no fit
//                   uses (30000, 40000, ...) and prints each set's objective and every figure's mean and
//                   spread across the sets (JSON): how much of a fit's objective was its seeds' luck
//   --named a,b     with --noise, evaluates these named worlds (and `defaults`) instead, whole
//   --default       which fit becomes the defaults: A, B, or fresh (the default: the twelfth revision's
//                   rule of docs/calibration.md: the defaults, fit A and fit B on 8 fresh seed sets with
//                   192 cold starts each; the best replaces the defaults only if it is better by more
//                   than twice the standard error of the difference, about 3 minutes)
//   --write none    leaves src/sim/calibrated.ts and the report alone (prints the report); with
//                   --out, both fits are saved, and `--from F.json` later reports them and, with
//                   --default A or B (or when the fresh-set rule picks one), writes one as the defaults
// Needs the compiled sources (dist/) and the envscaler-rl dataset (`npm run calibrate` builds both).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { withHistory } from './report-history.mjs';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { loadDataset } = await import(dist('sim/dataset-node.js'));
const { loadRunWasmNode, loadSimWasmNode } = await import(dist('sim/wasm-node.js'));
const { SimulationRun } = await import(dist('sim/run.js'));
const { randomTraining } = await import(dist('sim/env-scaling.js'));
const { DEFAULT_SIM_MODEL, PREVIOUS_SIM_MODEL, parseWorldOverrides } = await import(dist('sim/model-params.js'));
const { DEFAULT_CONFIG } = await import(dist('engine/config.js'));
const { cmaes, nelderMead, reflectUnit } = await import(dist('sim/optimise.js'));
const { TABLE4_STEP0_VARIANCE } = await import(dist('sim/checks.js'));

const { values: flags } = parseArgs({
  options: {
    evals: { type: 'string', default: '600' },
    seeds: { type: 'string', default: '3' },
    't4-runs': { type: 'string', default: '24' },
    'dry-run': { type: 'boolean', default: false },
    world: { type: 'string', default: 'memo' },
    optimiser: { type: 'string', default: 'cmaes' },
    start: { type: 'string', default: 'fifth' },
    sigma0: { type: 'string', default: '0.15' },
    parallel: { type: 'boolean', default: false },
    fit: { type: 'string' },
    write: { type: 'string', default: 'defaults' },
    out: { type: 'string' },
    from: { type: 'string' },
    cross: { type: 'boolean', default: false },
    noise: { type: 'string' },
    named: { type: 'string' },
    default: { type: 'string', default: 'fresh' },
  },
});
const OPTIMISERS = { cmaes: 'CMA-ES on the reflected unit cube', nm: 'Nelder-Mead on the reflected unit cube' };
if (!(flags.optimiser in OPTIMISERS)) throw new Error(`--optimiser: expected cmaes or nm, got ${flags.optimiser}`);
if (!['fifth', 'declared'].includes(flags.start)) throw new Error(`--start: expected fifth or declared, got ${flags.start}`);
if (!['A', 'B', 'fresh'].includes(flags.default)) throw new Error(`--default: expected A, B or fresh, got ${flags.default}`);
if (!['defaults', 'none'].includes(flags.write)) throw new Error(`--write: expected defaults or none, got ${flags.write}`);
// Options that only mean something together: checked before any fit runs, not after it.
if (flags.cross && !flags.from) throw new Error('--cross: needs --from F.json (the saved fits to evaluate)');
if (flags.cross && flags.noise) throw new Error('--cross and --noise: one evaluation at a time');
if (flags.named && !flags.noise) throw new Error('--named: needs --noise K (the fresh seed sets to score the named worlds on)');
if (flags.named && flags.from) throw new Error('--named and --from: score either named worlds or saved fits');
const EVALS = Number(flags.evals);
const SEEDS = Number(flags.seeds);
const T4_RUNS = Number(flags['t4-runs']);

// ---- declared in docs/calibration.md before the first fit ----
/**
 * The declared worlds (docs/calibration.md), each declared before it ran: `third` (the third fit's
 * fixed values and start), `grpo` (the fourth fit: GRPO's update and drift), `adam` (the sixth fit:
 * GRPO's update with a fixed-length step and gradient noise), `decay` (the seventh fit: `third`
 * with the familiarity decay free), `std` (the eighth fit: `decay` with GRPO's signal exponent),
 * `noise` (the ninth: drift that adds in quadrature), `envdrift` and `noisedrift` (the tenth:
 * familiarity that drifts), `famcap` (the eleventh: the familiarity cap free), `memo` (the
 * twelfth: the memorisation rate free), `memob` (the fourteenth: `memo` from its twelfth fit's B),
 * `gradcredit` (the fifteenth: gradient credit), `coldstart` (the sixteenth: `memob` with one more
 * target, the cold-start batch's variance), `coldnoise` and `coldnoisedrift` (the seventeenth: `coldstart` with
 * GRPO's drift, and with environments' skills drifting too).
 * FIXED: not identifiable from the fit targets. START: where a fit begins. FIFTH_START: where
 * CMA-ES begins instead, in the two worlds fitted before it. BOX: the free parameters and their
 * box, when the world's differ from the common one. TARGETS: fit targets the world adds.
 */
/**
 * The fifth fit's A in the `third` world (the defaults since the fifth fit), where the sixth and
 * seventh fits start. Written out, not read from src/sim/calibrated.ts: a declared start must not
 * move when the defaults do.
 */
const FIFTH_FIT_A = {
  competence0: 0.59088,
  logitScale: 5.2364,
  partialCredit: 0.74199,
  etaCompetence: 0.00069556,
  forgetting: 0.060488,
  breadth: 0.35207,
  hiddenNoise: 0.062017,
  repeatDiscount: 0.084622,
  etaFamiliarity: 0.015101,
};

/**
 * The seventh fit's A in the `decay` world (the defaults from the seventh fit to the eighth), where the eighth
 * fit starts (rescaled). Written out for the same reason as FIFTH_FIT_A.
 */
const SEVENTH_FIT_A = {
  competence0: 0.60391,
  logitScale: 4.9054,
  partialCredit: 0.77168,
  etaCompetence: 0.00063463,
  forgetting: 0.050536,
  breadth: 0.18456,
  hiddenNoise: 0.083121,
  repeatDiscount: 0.20114,
  etaFamiliarity: 0.010656,
  familiarityDecay: 0.024348,
};
/**
 * The eighth fit's A in the `std` world (the defaults since the eighth fit), where the ninth fit
 * starts. Written out for the same reason as FIFTH_FIT_A.
 */
const EIGHTH_FIT_A = {
  competence0: 0.7675,
  logitScale: 4.9018,
  partialCredit: 0.97199,
  etaCompetence: 0.00087843,
  forgetting: 0.13609,
  breadth: 0.30728,
  hiddenNoise: 0.049576,
  repeatDiscount: 0.036055,
  etaFamiliarity: 0.026147,
  familiarityDecay: 0.069692,
};
/**
 * Random training in the eighth fit's world (seed 10000, 200 steps): mean signal per group 0.1396,
 * mean sqrt(groups with spread) / n 0.1142. The forgetting rate moves from the one driver to the
 * other by their ratio (docs/calibration.md, ninth fit).
 */
const DRIFT_RESCALE = 0.1396 / 0.1142;
/** The ninth fit's A in the `noise` world, where the tenth fit's `noisedrift` world starts (5 significant digits). */
const NINTH_FIT_A = {
  competence0: 0.6425,
  logitScale: 4.9086,
  partialCredit: 0.85147,
  etaCompetence: 0.00080353,
  forgetting: 0.15417,
  breadth: 0.014342,
  hiddenNoise: 0.097503,
  repeatDiscount: 0.01519,
  etaFamiliarity: 0.027615,
  familiarityDecay: 0.042945,
};
/**
 * The twelfth fit's B in the `memo` world (the defaults from the twelfth fit to the fourteenth), where the fourteenth
 * fit starts. Written out for the same reason as FIFTH_FIT_A.
 */
const TWELFTH_FIT_B = {
  competence0: 0.31141,
  logitScale: 3.5188,
  partialCredit: 0.60727,
  etaCompetence: 0.0019389,
  forgetting: 0.17335,
  breadth: 0.3073,
  hiddenNoise: 0.016494,
  repeatDiscount: 0.024276,
  etaFamiliarity: 0.03646,
  familiarityDecay: 0.00068801,
  etaMemo: 0.089719,
};
/**
 * The fourteenth fit's A in the `memob` world (the defaults since 5 December 2026, 12:05 UTC), where the
 * fifteenth fit starts. Written out for the same reason as FIFTH_FIT_A.
 */
const FOURTEENTH_FIT_A = {
  competence0: 0.23799,
  logitScale: 2.7632,
  partialCredit: 0.77896,
  etaCompetence: 0.0020822,
  forgetting: 0.15509,
  breadth: 0.35165,
  hiddenNoise: 0.087977,
  repeatDiscount: 0.024578,
  etaFamiliarity: 0.047995,
  familiarityDecay: 0.0025712,
  etaMemo: 0.055967,
};
/**
 * The sixteenth fit's B in the `coldstart` world (the defaults since 6 December 2026), where the seventeenth
 * fit starts. Written out for the same reason as FIFTH_FIT_A.
 */
const SIXTEENTH_FIT_B = {
  competence0: 0.34241,
  logitScale: 3.9582,
  partialCredit: 0.26198,
  etaCompetence: 0.0039073,
  forgetting: 0.38912,
  breadth: 0.69315,
  hiddenNoise: 0.36159,
  repeatDiscount: 0.026991,
  etaFamiliarity: 0.024802,
  familiarityDecay: 0.0077422,
  etaMemo: 0.33909,
};
/**
 * Random training in the sixteenth fit's world (seed 10000, 200 steps): mean signal per group 0.14978,
 * mean sqrt(groups with spread) / n 0.11042. The forgetting rate moves from the one driver to the other
 * by their ratio, as DRIFT_RESCALE did for the ninth fit (docs/calibration.md, seventeenth fit).
 */
const COLD_DRIFT_RESCALE = 0.14978 / 0.11042;
/** Random's mean sigma^0.5 over its mean sigma (0.32 / 0.144): the rates that multiply a group's signal, moved from the one to the other. */
const SIGNAL_RESCALE = 2.2;

const WORLDS = {
  third: {
    FIXED: { signalExponent: 0.5 },
    /** The second fit's values, forgetting rescaled to the per-signal form (docs/calibration.md, third fit). */
    START: {
      competence0: 0.6347,
      logitScale: 4.584,
      partialCredit: 0.8343,
      etaCompetence: 0.0006327,
      forgetting: 0.035,
      breadth: 0.5,
      hiddenNoise: 0.5,
      repeatDiscount: 0.1,
      etaFamiliarity: 0.008,
    },
    /** Where the fifth fit (CMA-ES) starts: this world's fit A before it, the third fit's (docs/calibration-report.md). */
    FIFTH_START: {
      competence0: 0.671,
      logitScale: 4.5645,
      partialCredit: 0.84257,
      etaCompetence: 0.00050456,
      forgetting: 0.03826,
      breadth: 0.50739,
      hiddenNoise: 0.524,
      repeatDiscount: 0.12711,
      etaFamiliarity: 0.012212,
    },
  },
  grpo: {
    FIXED: { signalExponent: 1, normalisedDrift: 1 },
    /**
     * The third fit's values, the rates that multiply a group's signal rescaled from sigma^0.5
     * to sigma (mean 0.32 to 0.144 under random: x 2.2) and forgetting from the mean signal (0.32)
     * to the share of groups with spread (0.84) as its driver (docs/calibration.md, fourth fit).
     */
    START: {
      competence0: 0.671,
      logitScale: 4.5645,
      partialCredit: 0.84257,
      etaCompetence: 0.00112,
      forgetting: 0.0146,
      breadth: 0.50739,
      hiddenNoise: 0.524,
      repeatDiscount: 0.12711,
      etaFamiliarity: 0.027,
    },
    /** Where the fifth fit (CMA-ES) starts: this world's fit A before it, the fourth fit's (docs/calibration-report.md). */
    FIFTH_START: {
      competence0: 0.6771,
      logitScale: 4.552,
      partialCredit: 0.8445,
      etaCompetence: 0.001103,
      forgetting: 0.01504,
      breadth: 0.5116,
      hiddenNoise: 0.5284,
      repeatDiscount: 0.1356,
      etaFamiliarity: 0.03002,
    },
  },
  adam: {
    FIXED: { signalExponent: 1 },
    /**
     * The fifth fit's values of the `third` world (the defaults) for the parameters the worlds share;
     * `etaFamiliarity` rescaled from sigma^0.5 to sigma (x 2.2, as for the fourth fit); the fixed
     * step's rate and noise from a scan of random training alone (docs/calibration.md, sixth fit).
     */
    START: { ...FIFTH_FIT_A, etaCompetence: 0.028, etaFamiliarity: 0.033, gradientNoise: 1 },
    /** A fixed step's rate is a length, not a rate per unit of credit; the noise may not reach 0 (the old rule). */
    BOX: { etaCompetence: [0.002, 0.2], gradientNoise: [0.05, 4] },
  },
  decay: {
    FIXED: { signalExponent: 0.5 },
    /**
     * The defaults (the fifth fit's A in the `third` world) and the hand calibration's familiarity
     * decay (docs/calibration.md, seventh fit).
     */
    START: { ...FIFTH_FIT_A, familiarityDecay: 0.05 },
    /** The `third` world with the familiarity decay free. */
    BOX: { familiarityDecay: [0, 0.2] },
  },
  std: {
    FIXED: { signalExponent: 1 },
    /** The defaults (the seventh fit's A) with the signal's rates rescaled to GRPO's exponent (docs/calibration.md, eighth fit). */
    START: {
      ...SEVENTH_FIT_A,
      etaCompetence: SEVENTH_FIT_A.etaCompetence * SIGNAL_RESCALE,
      etaFamiliarity: SEVENTH_FIT_A.etaFamiliarity * SIGNAL_RESCALE,
      forgetting: SEVENTH_FIT_A.forgetting * SIGNAL_RESCALE,
    },
    /** The `decay` world's box. */
    BOX: { familiarityDecay: [0, 0.2] },
  },
  noise: {
    FIXED: { signalExponent: 1, normalisedDrift: 1, driftExponent: 0.5 },
    /** The defaults (the eighth fit's A) with the forgetting rate moved to its new driver (docs/calibration.md, ninth fit). */
    START: { ...EIGHTH_FIT_A, forgetting: EIGHTH_FIT_A.forgetting * DRIFT_RESCALE },
    /** The `std` world's box. */
    BOX: { familiarityDecay: [0, 0.2] },
  },
  envdrift: {
    FIXED: { signalExponent: 1 },
    /** The defaults (the eighth fit's A) with environments' skills drifting as the shared ones do (docs/calibration.md, tenth fit). */
    START: { ...EIGHTH_FIT_A, familiarityDrift: EIGHTH_FIT_A.forgetting },
    /** The `std` world's box and the familiarity drift. */
    BOX: { familiarityDecay: [0, 0.2], familiarityDrift: [0, 2] },
  },
  noisedrift: {
    FIXED: { signalExponent: 1, normalisedDrift: 1, driftExponent: 0.5 },
    /** The ninth fit's A with environments' skills drifting as the shared ones do (docs/calibration.md, tenth fit). */
    START: { ...NINTH_FIT_A, familiarityDrift: NINTH_FIT_A.forgetting },
    /** The `noise` world's box and the familiarity drift. */
    BOX: { familiarityDecay: [0, 0.2], familiarityDrift: [0, 2] },
  },
  famcap: {
    FIXED: { signalExponent: 1 },
    /** The defaults (the eighth fit's A) with the familiarity cap at the hand calibration's 3 (docs/calibration.md, eleventh fit). */
    START: { ...EIGHTH_FIT_A, familiarityMax: 3 },
    /** The `std` world's box and the familiarity cap. */
    BOX: { familiarityDecay: [0, 0.2], familiarityMax: [0.1, 4] },
  },
  memo: {
    FIXED: { signalExponent: 1 },
    /** The defaults (the eighth fit's A) with the memorisation rate at the hand calibration's 0.05 (docs/calibration.md, twelfth fit). */
    START: { ...EIGHTH_FIT_A, etaMemo: 0.05 },
    /** The `std` world's box and the memorisation rate. */
    BOX: { familiarityDecay: [0, 0.2], etaMemo: [0, 0.5] },
  },
  memob: {
    FIXED: { signalExponent: 1 },
    /** The `memo` world started from its twelfth fit's B, the defaults until the fourteenth fit (docs/calibration.md, fourteenth fit). */
    START: TWELFTH_FIT_B,
    BOX: { familiarityDecay: [0, 0.2], etaMemo: [0, 0.5] },
  },
  coldstart: {
    FIXED: { signalExponent: 1 },
    /** The defaults' world and start with one more target: a random batch's variance at the untrained policy (docs/calibration.md, sixteenth fit). */
    START: FOURTEENTH_FIT_A,
    BOX: { familiarityDecay: [0, 0.2], etaMemo: [0, 0.5] },
    TARGETS: {
      t4VarStep0: {
        value: TABLE4_STEP0_VARIANCE,
        tol: 0.003,
        what: 'Table 4(a) step 0: mean variance of the random cold-start batch (2 x 0.0534 - 0.0596, from step 1)',
      },
    },
  },
  coldnoise: {
    FIXED: { signalExponent: 1, normalisedDrift: 1, driftExponent: 0.5 },
    /**
     * The defaults' world (the sixteenth fit's B) with GRPO's drift: a step disturbs what it does not
     * renew by the quadrature sum of its groups with spread, not by its mean signal; forgetting moved
     * to that driver (docs/calibration.md, seventeenth fit). Its box is wider: the start is above 0.5.
     */
    START: { ...SIXTEENTH_FIT_B, forgetting: SIXTEENTH_FIT_B.forgetting * COLD_DRIFT_RESCALE },
    BOX: { familiarityDecay: [0, 0.2], etaMemo: [0, 0.5], forgetting: [0, 1] },
    TARGETS: {
      t4VarStep0: {
        value: TABLE4_STEP0_VARIANCE,
        tol: 0.003,
        what: 'Table 4(a) step 0: mean variance of the random cold-start batch (2 x 0.0534 - 0.0596, from step 1)',
      },
    },
  },
  coldnoisedrift: {
    FIXED: { signalExponent: 1, normalisedDrift: 1, driftExponent: 0.5 },
    /** `coldnoise` with environments' skills drifting as the shared ones do, started at the same rate (docs/calibration.md, seventeenth fit). */
    START: {
      ...SIXTEENTH_FIT_B,
      forgetting: SIXTEENTH_FIT_B.forgetting * COLD_DRIFT_RESCALE,
      familiarityDrift: SIXTEENTH_FIT_B.forgetting * COLD_DRIFT_RESCALE,
    },
    BOX: { familiarityDecay: [0, 0.2], etaMemo: [0, 0.5], forgetting: [0, 1], familiarityDrift: [0, 2] },
    TARGETS: {
      t4VarStep0: {
        value: TABLE4_STEP0_VARIANCE,
        tol: 0.003,
        what: 'Table 4(a) step 0: mean variance of the random cold-start batch (2 x 0.0534 - 0.0596, from step 1)',
      },
    },
  },
  gradcredit: {
    FIXED: { signalExponent: 1, gradientCredit: 1 },
    /** The defaults' world with a group's lesson split by the gradient of its expected reward, started from the defaults (docs/calibration.md, fifteenth fit). */
    START: FOURTEENTH_FIT_A,
    BOX: { familiarityDecay: [0, 0.2], etaMemo: [0, 0.5] },
  },
};
if (!(flags.world in WORLDS)) throw new Error(`--world: expected one of ${Object.keys(WORLDS).join(', ')}, got ${flags.world}`);
const { FIXED } = WORLDS[flags.world];
/** With --start fifth (the default) a world with an earlier fit of its own starts from it (FIFTH_START); every other world from its declared START. */
const HAS_FIFTH_START = 'FIFTH_START' in WORLDS[flags.world];
const START = flags.start === 'fifth' && HAS_FIFTH_START ? WORLDS[flags.world].FIFTH_START : WORLDS[flags.world].START;
/** The free parameters and their box (a world's BOX overrides or adds entries). */
const COMMON_BOX = {
  competence0: [0.2, 1.4],
  logitScale: [2, 10],
  partialCredit: [0, 1],
  etaCompetence: [0.0002, 0.01],
  forgetting: [0, 0.5],
  breadth: [0, 1],
  hiddenNoise: [0, 1.5],
  repeatDiscount: [0, 2],
  etaFamiliarity: [0, 0.05],
};
const BOX = { ...COMMON_BOX, ...WORLDS[flags.world].BOX };
/** Fit targets: value and tolerance (the objective's scale). */
const TARGETS = {
  randomMeanVariance: { value: 0.03208, tol: 0.003, what: 'random: mean within-task variance (Table 2)' },
  randomMedianVariance: { value: 0.01468, tol: 0.003, what: 'random: median within-task variance (Table 2)' },
  randomMedianReward: { value: 0.595, tol: 0.03, what: 'random: median reward (Table 2)' },
  randomGain: { value: 2.51, tol: 0.5, what: 'random: held-out gain over the untrained policy at step 200 (Table 1)' },
  randomShare120: { value: 0.95, tol: 0.04, what: 'random: share of its step-200 held-out gain reached by step 120' },
  envShare20: { value: 0.8, tol: 0.1, what: 'random on 20 of 51 environments: held-out gain / gain on all 51 (EnvScaler 5.4)' },
  envShare5: { value: 0.45, tol: 0.15, what: 'the same on 5 environments' },
  t4HitStep1: { value: 0.572, tol: 0.04, what: 'Table 4(a) step 1: exploitation hit rate' },
  ...WORLDS[flags.world].TARGETS,
};
/** Disjoint seed sets: fit A and fit B (the refit). The checks use 0..N-1 and 1000.. */
const SEED_SETS = { A: { runs: 10000, t4: 11000 }, B: { runs: 20000, t4: 21000 } };
/** CMA-ES's sampler seed per fit (docs/calibration.md, fifth fit). */
const CMAES_SEEDS = { A: 1, B: 2 };
const STEPS = 200;

const NAMES = Object.keys(BOX);
/** A point of the unit cube (any real, reflected at the walls: the optimisers need no bounds) to parameters. */
const decode = (u) => Object.fromEntries(NAMES.map((k, j) => [k, BOX[k][0] + reflectUnit(u[j]) * (BOX[k][1] - BOX[k][0])]));
const encode = (p) => NAMES.map((k) => (p[k] - BOX[k][0]) / (BOX[k][1] - BOX[k][0]));

const { loaded, source } = await loadDataset('envscaler-rl');
const base = { ...DEFAULT_CONFIG, alpha: [...DEFAULT_CONFIG.alpha] };
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The fit targets' simulated figures for one parameter vector (seeds of one set: common random numbers). */
async function figures(params, set, t4Runs = T4_RUNS) {
  const model = { ...PREVIOUS_SIM_MODEL, ...FIXED, ...params };
  const acc = { mv: [], md: [], mr: [], g51: [], g20: [], g5: [], s120: [] };
  for (let k = 0; k < SEEDS; k++) {
    const config = { ...base, scheduler: 'random', seed: set.runs + k };
    const full = randomTraining(await loadSimWasmNode(), loaded, config, source, 51, STEPS, model);
    const gain = (r, t) => r.heldout[t - 1] - r.heldoutInitial;
    acc.mv.push(full.meanVariance);
    acc.md.push(full.medianVariance);
    acc.mr.push(full.medianReward);
    acc.g51.push(gain(full, STEPS));
    acc.s120.push(gain(full, 120));
    acc.g20.push(gain(randomTraining(await loadSimWasmNode(), loaded, config, source, 20, STEPS, model), STEPS));
    acc.g5.push(gain(randomTraining(await loadSimWasmNode(), loaded, config, source, 5, STEPS, model), STEPS));
  }
  let picks = 0;
  let hits = 0;
  let coldVariance = 0;
  for (let k = 0; k < t4Runs; k++) {
    const run = new SimulationRun(await loadRunWasmNode(), loaded, { ...base, scheduler: 'envsched', seed: set.t4 + k, T: 2 }, source, {
      randomColdStart: true,
      model,
      steps: 2,
    });
    const { steps } = run.run();
    coldVariance += steps[0].meanVariance;
    const s = steps[1];
    picks += s.exploitationPicks;
    hits += s.exploitationHits;
  }
  const g51 = mean(acc.g51);
  return {
    randomMeanVariance: mean(acc.mv),
    randomMedianVariance: mean(acc.md),
    randomMedianReward: mean(acc.mr),
    randomGain: g51,
    randomShare120: g51 > 0 ? mean(acc.s120) / g51 : 0,
    envShare20: g51 > 0 ? mean(acc.g20) / g51 : 0,
    envShare5: g51 > 0 ? mean(acc.g5) / g51 : 0,
    t4HitStep1: picks > 0 ? hits / picks : 0,
    t4VarStep0: t4Runs > 0 ? coldVariance / t4Runs : 0,
  };
}

function objective(fig) {
  let s = 0;
  for (const [k, t] of Object.entries(TARGETS)) s += ((fig[k] - t.value) / t.tol) ** 2;
  return s;
}

async function fit(label, set) {
  const t0 = Date.now();
  let n = 0;
  const f = async (u) => {
    const fig = await figures(decode(u), set);
    const y = objective(fig);
    if (++n % 10 === 0) process.stderr.write(`calibrate: fit ${label}: ${n} evaluations, objective ${y.toFixed(3)}\n`);
    return y;
  };
  const { best, evals } =
    flags.optimiser === 'nm'
      ? await nelderMead(f, encode(START), EVALS)
      : await cmaes(f, encode(START), { sigma0: Number(flags.sigma0), budget: EVALS, seed: CMAES_SEEDS[label] });
  const params = decode(best.x);
  const fig = await figures(params, set);
  return { label, seeds: set, params, figures: fig, objective: objective(fig), evaluations: evals, seconds: (Date.now() - t0) / 1000 };
}

const round = (x, d = 4) => Number(x.toPrecision(d));
const started = Date.now();
if (flags['dry-run']) {
  const t0 = Date.now();
  const fig = await figures(START, SEED_SETS.A);
  process.stdout.write(
    `${JSON.stringify({ start: START, figures: fig, objective: objective(fig), seconds: (Date.now() - t0) / 1000 }, null, 1)}\n`,
  );
  process.exit(0);
}
/** Seed sets no fit uses (runs from 30000, cold starts from 35000, 10000 apart): the twelfth revision's fresh sets. */
const freshSets = (count) => Array.from({ length: count }, (_, k) => ({ runs: 30000 + 10000 * k, t4: 35000 + 10000 * k }));
const sd = (xs) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
/** One parameter vector on every fresh set: each set's objective, and each figure's mean and spread. */
async function onFreshSets(params, count, t4Runs) {
  const evaluated = [];
  for (const set of freshSets(count)) {
    const fig = await figures(params, set, t4Runs);
    evaluated.push({ seeds: set, objective: objective(fig), figures: fig });
  }
  const spread = Object.fromEntries(
    Object.entries(TARGETS).map(([k, t]) => {
      const xs = evaluated.map((e) => e.figures[k]);
      return [k, { mean: mean(xs), sd: sd(xs), sdOverTolerance: sd(xs) / t.tol }];
    }),
  );
  const objectives = evaluated.map((e) => e.objective);
  return { objective: { mean: mean(objectives), sd: sd(objectives), each: objectives }, spread };
}
/**
 * The fits saved by --out, in the world this run names (a fit's values mean something only there).
 * `asFitted`: they are also reported beside their own objectives, so the optimiser, the budget, the
 * seeds and the cold starts must be the ones they were fitted with (files saved before 5 December
 * 12:30 UTC do not record seeds or cold starts, so those two are not checked for them). --noise
 * scores them on its own seeds and cold starts, and needs only the world.
 */
function readSavedFits(asFitted) {
  const saved = JSON.parse(readFileSync(flags.from, 'utf8'));
  const same =
    saved.world === flags.world &&
    (!asFitted ||
      (saved.optimiser === flags.optimiser &&
        saved.evals === EVALS &&
        (saved.seeds === undefined || saved.seeds === SEEDS) &&
        (saved.t4Runs === undefined || saved.t4Runs === T4_RUNS)));
  if (!same)
    throw new Error(
      `--from ${flags.from}: saved for --world ${saved.world} --optimiser ${saved.optimiser} --evals ${saved.evals}` +
        (saved.seeds === undefined ? '' : ` --seeds ${saved.seeds} --t4-runs ${saved.t4Runs}`),
    );
  return saved;
}
if (flags.noise) {
  const points = flags.named
    ? // Whole worlds, every value spelled out, so the --world's FIXED values do not enter.
      flags.named.split(',').map((name) => ({
        point: name === 'defaults' ? 'the defaults' : `named world ${name}`,
        params: name === 'defaults' ? DEFAULT_SIM_MODEL : parseWorldOverrides(name, 'command line', '--named'),
      }))
    : flags.from
      ? readSavedFits(false).fits.map((f) => ({ point: `fit ${f.label} of ${flags.from}`, params: f.params }))
      : [{ point: 'the start', params: START }];
  const rows = [];
  for (const p of points) rows.push({ point: p.point, ...(await onFreshSets(p.params, Number(flags.noise), T4_RUNS)) });
  process.stdout.write(
    `${JSON.stringify({ world: flags.world, seeds: SEEDS, t4Runs: T4_RUNS, sets: freshSets(Number(flags.noise)), rows }, null, 1)}\n`,
  );
  process.exit(0);
}
let savedSeconds = null;
/** Fit A and fit B: in this process, in two (--parallel), one of them (--fit), or saved (--from). */
async function fitsToReport() {
  if (flags.from) {
    const saved = readSavedFits(true);
    savedSeconds = saved.seconds;
    return saved.fits;
  }
  if (flags.fit) return [await fit(flags.fit, SEED_SETS[flags.fit])];
  if (!flags.parallel) return [await fit('A', SEED_SETS.A), await fit('B', SEED_SETS.B)];
  const self = fileURLToPath(import.meta.url);
  const args = process.argv.slice(2).filter((x) => x !== '--parallel');
  const one = async (label) => {
    const out = `${root}.calibrate-${label}-${process.pid}.json`;
    await promisify(execFile)(process.execPath, [self, ...args, '--fit', label, '--out', out], { maxBuffer: 1 << 26 }).catch((e) => {
      throw new Error(`calibrate: fit ${label} failed: ${e.stderr || e.message}`);
    });
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    rmSync(out);
    return saved.fits[0];
  };
  return Promise.all([one('A'), one('B')]);
}
const fits = await fitsToReport();
if (flags.cross) {
  const other = { A: 'B', B: 'A' };
  const rows = [];
  for (const f of fits) {
    const fig = await figures(f.params, SEED_SETS[other[f.label]]);
    rows.push({ fit: f.label, ownSeeds: f.objective, otherSeeds: objective(fig), figuresOnOtherSeeds: fig });
  }
  process.stdout.write(`${JSON.stringify({ world: flags.world, cross: rows }, null, 1)}\n`);
  process.exit(0);
}
if (flags.out)
  writeFileSync(
    flags.out,
    `${JSON.stringify({ world: flags.world, optimiser: flags.optimiser, evals: EVALS, seeds: SEEDS, t4Runs: T4_RUNS, seconds: (Date.now() - started) / 1000, fits }, null, 1)}\n`,
  );
if (flags.fit) process.exit(0);
const [a, b] = fits;
const spread = Object.fromEntries(
  NAMES.map((k) => [
    k,
    {
      A: round(a.params[k]),
      B: round(b.params[k]),
      relativeSpread: round(Math.abs(a.params[k] - b.params[k]) / (BOX[k][1] - BOX[k][0]), 2),
    },
  ]),
);
/**
 * The twelfth revision's rule (docs/calibration.md): the defaults, fit A and fit B on 8 fresh seed
 * sets with 192 Table 4 cold starts each; the lowest mean objective replaces the defaults if it is
 * below them by more than twice the standard error of the paired difference. Returns the fit that
 * wins, or null when the defaults stay, with what it measured.
 */
async function byFreshSets() {
  const rows = [];
  // The defaults whole (every value of src/sim/calibrated.ts), not only this world's free ones: in a
  // world whose fixed values differ from the defaults', the free ones alone would score another world.
  for (const [label, params] of [
    ['defaults', DEFAULT_SIM_MODEL],
    ['A', a.params],
    ['B', b.params],
  ])
    rows.push({ label, ...(await onFreshSets(params, 8, 192)) });
  const [defaultsRow, ...fitRows] = rows;
  const best = fitRows.reduce((x, y) => (y.objective.mean < x.objective.mean ? y : x));
  const diff = defaultsRow.objective.each.map((y, k) => y - best.objective.each[k]);
  const se = sd(diff) / Math.sqrt(diff.length);
  const wins = mean(diff) > 2 * se;
  return { winner: wins ? best.label : null, difference: mean(diff), standardError: se, rows };
}
const fresh = flags.default === 'fresh' ? await byFreshSets() : null;
if (fresh)
  process.stderr.write(
    `calibrate: on 8 fresh seed sets: ${fresh.rows.map((r) => `${r.label} ${round(r.objective.mean)}`).join(', ')}; ${fresh.winner === null ? 'the defaults stay' : `fit ${fresh.winner} becomes the default`} (difference ${round(fresh.difference)}, standard error ${round(fresh.standardError)})\n`,
  );
/** The fit written as the defaults (--default A or B, or the fresh sets' winner), or null: the defaults stay. */
const chosen = fresh ? (fresh.winner === null ? null : fresh.winner === 'A' ? a : b) : flags.default === 'B' ? b : a;
const fitted = chosen ? Object.fromEntries(NAMES.map((k) => [k, round(chosen.params[k], 5)])) : null;
const report = {
  date: new Date().toISOString(),
  dataset: 'envscaler-rl',
  optimiser: OPTIMISERS[flags.optimiser],
  start: flags.start === 'fifth' && HAS_FIFTH_START ? "the fifth fit's start (this world's fit A before it)" : 'the declared start',
  sigma0: flags.optimiser === 'cmaes' ? Number(flags.sigma0) : null,
  world: flags.world,
  evaluationsPerFit: EVALS,
  seedsPerEvaluation: SEEDS,
  table4RunsPerEvaluation: T4_RUNS,
  steps: STEPS,
  seedSets: SEED_SETS,
  targets: Object.fromEntries(
    Object.entries(TARGETS).map(([k, t]) => [
      k,
      { target: t.value, tolerance: t.tol, fitA: round(a.figures[k]), fitB: round(b.figures[k]) },
    ]),
  ),
  objective: { A: round(a.objective), B: round(b.objective) },
  defaults: chosen ? chosen.label : null,
  freshSets: fresh
    ? {
        difference: round(fresh.difference),
        standardError: round(fresh.standardError),
        objective: Object.fromEntries(fresh.rows.map((r) => [r.label, round(r.objective.mean)])),
      }
    : null,
  spread,
  seconds: round(savedSeconds ?? (Date.now() - started) / 1000, 4),
};

const ts = `// The simulated world's calibrated constants: the simulator's defaults (src/sim/model-params.ts).
// Written by \`npm run calibrate\` (scripts/calibrate.mjs; targets and method in docs/calibration.md,
// the last report in docs/calibration-report.md). Do not edit by hand: re-run the calibration.
import type { SimModelParams } from './model-params.ts';

export interface CalibratedWorld {
  /** Values the optimiser fitted to the declared fit targets. */
  fitted: Partial<SimModelParams>;
  /** Values fixed before fitting (not identifiable from the fit targets), with the reason in docs/calibration.md. */
  fixed: Partial<SimModelParams>;
  /** What the fit did (optimiser, seeds, objective, spread across refits); null before the first fit. */
  report: unknown;
}

export const CALIBRATED: CalibratedWorld = ${JSON.stringify({ fitted, fixed: FIXED, report }, null, 2)};
`;
if (flags.write === 'defaults' && chosen) writeFileSync(`${root}src/sim/calibrated.ts`, ts);

const lines = [
  '# Calibration report',
  '',
  `Written by \`npm run calibrate\` on ${report.date} (dataset envscaler-rl; world \`${flags.world}\`; ${report.optimiser}${report.sigma0 === null ? '' : ` (sigma0 ${report.sigma0}, sampler seeds ${CMAES_SEEDS.A} / ${CMAES_SEEDS.B})`}, from ${report.start}; ${EVALS} evaluations per fit, ${SEEDS} seeds x ${STEPS} steps and ${T4_RUNS} Table 4 cold starts per evaluation; ${report.seconds} s in all). Targets and method: docs/calibration.md.`,
  '',
  chosen === a
    ? '## Fitted parameters (fit A = the defaults; fit B = the refit on disjoint seeds)'
    : chosen === b
      ? '## Fitted parameters (fit A; fit B, the refit on disjoint seeds, = the defaults)'
      : '## Fitted parameters (fit A; fit B = the refit on disjoint seeds; the defaults stayed)',
  '',
  '| parameter | box | fit A | fit B | |A - B| / box width |',
  '| --- | --- | --- | --- | --- |',
  ...NAMES.map((k) => `| \`${k}\` | [${BOX[k].join(', ')}] | ${spread[k].A} | ${spread[k].B} | ${spread[k].relativeSpread} |`),
  '',
  `Fixed before fitting: ${Object.entries(FIXED)
    .map(([k, v]) => `\`${k}\` = ${v}`)
    .join(', ')}.`,
  '',
  "## Fit targets (on the fit's own seeds)",
  '',
  '| target | value | tolerance | fit A | fit B |',
  '| --- | --- | --- | --- | --- |',
  ...Object.entries(TARGETS).map(([k, t]) => `| ${t.what} | ${t.value} | ${t.tol} | ${round(a.figures[k])} | ${round(b.figures[k])} |`),
  '',
  `Objective (sum of squared standardised misses): fit A ${round(a.objective)}, fit B ${round(b.objective)}.`,
  '',
];
if (flags.write === 'defaults' && chosen) {
  // The fits before this one stay in the report, below it (scripts/report-history.mjs).
  const path = `${root}docs/calibration-report.md`;
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : null;
  const history = withHistory(lines, previous, 'The previous defaults (the report this fit replaced; name its fit here)');
  writeFileSync(path, `${history.join('\n')}\n`);
}
process.stdout.write(`${lines.join('\n')}\n`);
