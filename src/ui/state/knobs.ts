// Every knob of the control panel: what it means, the equation it enters (SPEC section), and the
// slider range of the six headline knobs. Numeric entry accepts the whole CONFIG_RULES range.
import type { ConfigKey } from '../../engine/config.ts';

export interface Knob {
  key: ConfigKey;
  label: string;
  /** One or two sentences naming the equation it enters. */
  explain: string;
  spec: string;
  /** Slider range (headline knobs) or input step (others). */
  min?: number;
  max?: number;
  step: number;
  /** True when it only matters when a graph is built (the bundled graphs are prebuilt). */
  buildTime?: boolean;
}

export const HEADLINE_KNOBS: Knob[] = [
  {
    key: 'rho',
    label: 'ρ coverage fraction',
    spec: 'SPEC 6',
    min: 0,
    max: 1,
    step: 0.05,
    explain: 'Splits the batch: B_cov = ⌊ρ·B⌋ tasks are picked by the coverage phase, B_exp = B − B_cov by the exploitation phase.',
  },
  {
    key: 'h_long',
    label: 'h_long half-life',
    spec: 'SPEC 3, 5',
    min: 0.5,
    max: 64,
    step: 0.5,
    explain: 'History weight w(t,s) = 2^(−(t−s)/h_long) for the long view; its calibrated score u^long is the base of u.',
  },
  {
    key: 'h_short',
    label: 'h_short half-life',
    spec: 'SPEC 3, 5',
    min: 0.5,
    max: 32,
    step: 0.5,
    explain: 'The short view of the same history; u = u^long − η·max(u^long − u^short, 0) penalises a recent decline.',
  },
  {
    key: 'K_within',
    label: 'K_within neighbours',
    spec: 'SPEC 4',
    min: 0,
    max: 32,
    step: 1,
    explain: 'N_in(i): the first K_within observed tasks of the same environment, by S_full; they form G_in.',
  },
  {
    key: 'K_cross',
    label: 'K_cross neighbours',
    spec: 'SPEC 4',
    min: 0,
    max: 64,
    step: 1,
    explain: 'N_cross(i): the first K_cross observed tasks of other environments, by topology similarity S_abs; they form G_cross.',
  },
  {
    key: 'lambda_sim',
    label: 'λ_sim similarity penalty',
    spec: 'SPEC 6',
    min: 0,
    max: 0.5,
    step: 0.01,
    explain: 'Each pick maximises q_i(·ω_i) − λ_sim·max_{j∈batch} S_full(i,j): larger values spread the batch over dissimilar tasks.',
  },
];

export const RUN_KNOBS: Knob[] = [
  {
    key: 'B',
    label: 'B batch size',
    spec: 'SPEC 6',
    step: 1,
    min: 1,
    max: 512,
    explain: 'Tasks per step; the budgets B_cov and B_exp are split from it.',
  },
  {
    key: 'K',
    label: 'K rollouts per task',
    spec: 'SPEC 2',
    step: 1,
    min: 1,
    max: 64,
    explain: 'Rewards per group; m, v and d of each observation are computed over these K rewards.',
  },
  { key: 'T', label: 'T steps', spec: 'SPEC 11', step: 1, min: 1, max: 1000, explain: 'Training steps simulated.' },
  {
    key: 'seed',
    label: 'seed',
    spec: 'SPEC 10',
    step: 1,
    min: 0,
    max: 0xffffffff,
    explain: 'Seeds the one PCG32 generator inside the WASM module: the same seed and settings give the same run everywhere.',
  },
];

export const ADVANCED_KNOBS: Knob[] = [
  {
    key: 'w_in',
    label: 'w_in',
    spec: 'SPEC 5',
    step: 0.05,
    explain: 'Fusion weight of the within-environment estimate: P = w_in·G_in + w_cross·G_cross.',
  },
  { key: 'w_cross', label: 'w_cross', spec: 'SPEC 5', step: 0.05, explain: 'Fusion weight of the cross-environment estimate in P.' },
  {
    key: 'lambda_g',
    label: 'λ_g',
    spec: 'SPEC 4',
    step: 0.5,
    explain: 'Shrinks each relation estimate to the global reference: G = (Σ a·ȳ + λ_g·B_t) / (Σ a + λ_g).',
  },
  {
    key: 'lambda_s',
    label: 'λ_s',
    spec: 'SPEC 5',
    step: 0.5,
    explain: 'Shrinks the own history to the graph prior: ŷ = (W·ȳ + λ_s·P) / (W + λ_s).',
  },
  {
    key: 'eta_decline',
    label: 'η_decline',
    spec: 'SPEC 5',
    step: 0.1,
    explain: 'Recent-decline coefficient: u = u^long − η·max(u^long − u^short, 0).',
  },
  { key: 'c0', label: 'c0', spec: 'SPEC 6', step: 1, explain: 'Exposure scale of the exploitation pick: ω_i = (1 + c_i/c0)^(−1/2).' },
  {
    key: 'C1',
    label: 'C1 per-step env cap',
    spec: 'SPEC 6 rule 2',
    step: 1,
    explain: 'At most C1 tasks of one environment per batch (relaxed last).',
  },
  {
    key: 'C3',
    label: 'C3 rolling env cap',
    spec: 'SPEC 6 rule 3',
    step: 1,
    explain: 'R_e + n_e < C3: at most C3 selections of an environment over steps t−2..t (relaxed second).',
  },
  {
    key: 'C_task',
    label: 'C_task consecutive cap',
    spec: 'SPEC 6 rule 4',
    step: 1,
    explain: 'A task selected at each of the last C_task steps is not eligible (relaxed first).',
  },
  {
    key: 'lambda_ridge',
    label: 'λ_ridge',
    spec: 'SPEC 8',
    step: 0.5,
    explain: 'Ridge penalty of the progress filter’s regression of m2 on the transition features.',
  },
  {
    key: 'kappa',
    label: 'κ',
    spec: 'SPEC 8',
    step: 0.5,
    explain: 'Shrinkage of a task’s progress residuals to its environment’s and neighbours’: p = (ΣR + κ·ref)/(|R| + κ).',
  },
  {
    key: 'M_cross',
    label: 'M_cross',
    spec: 'SPEC 1',
    step: 1,
    buildTime: true,
    explain: 'Cross-environment candidates stored per task when the graph is built (the bundled graphs are prebuilt).',
  },
  {
    key: 'P_cross',
    label: 'P_cross',
    spec: 'SPEC 1',
    step: 1,
    buildTime: true,
    explain: 'Full-similarity cross candidates stored per task when the graph is built (prebuilt here).',
  },
];

export const ALPHA_EXPLAIN =
  'View weights of S_full = Σ α_a·cos(h_i^a, h_j^a) (SPEC 9). They shape the graph when it is built; the bundled graphs are prebuilt, so they do not change a run here.';

export const SCHEDULER_LABELS: Record<string, string> = {
  envsched: 'EnvSched',
  'within-only': 'EnvSched: within-env only',
  'cross-only': 'EnvSched: cross-env only',
  'coverage-only': 'EnvSched: coverage only (ρ=1)',
  'exploitation-only': 'EnvSched: exploitation only (ρ=0)',
  random: 'Random',
  dps: 'DPS',
  mopps: 'MoPPS',
  dapo: 'DAPO (dynamic sampling)',
};

export const KNOB_BY_KEY: Map<string, Knob> = new Map([...HEADLINE_KNOBS, ...RUN_KNOBS, ...ADVANCED_KNOBS].map((k) => [k.key, k]));

/** The simulated world's mechanisms (docs/simulator.md, "World mechanisms"): not scheduler knobs, the world it is tried in. */
export interface WorldKnobInfo {
  key: import('../../sim/model-params.ts').WorldKnob;
  label: string;
  explain: string;
  step: number;
}

export const WORLD_KNOB_INFO: WorldKnobInfo[] = [
  {
    key: 'partialCredit',
    label: 'partial credit',
    step: 0.05,
    explain:
      'A check behind a passed gate still fails with probability q·(1 − p_gate): rewards are fractions of checks, not all-or-nothing. Off: 0.',
  },
  {
    key: 'signalExponent',
    label: 'learning signal exponent',
    step: 0.05,
    explain:
      'A group teaches σ^γ (σ its reward spread): 1 = GRPO’s std-normalised advantage, 2 = the unnormalised one, 0 = any spread teaches alike. Equal rewards teach nothing. Off: 1.',
  },
  {
    key: 'gradientCredit',
    label: 'credit by the gradient',
    step: 0.05,
    explain:
      'Where a group’s lesson goes along its task’s chain of steps. 0: evenly to every step’s skill. 1: as the policy gradient does, to the steps its reward depends on under the current policy (the step where its rollouts part ways); a step every rollout already passes, or one none reaches, learns almost nothing. Off: 0.',
  },
  {
    key: 'breadth',
    label: 'breadth (diminishing returns per environment)',
    step: 0.05,
    explain:
      'Each group’s transfer to held-out skills is divided by n_e^β, n_e the groups of its environment in the batch. 0: a world where breadth does not matter. Off: 0.',
  },
  {
    key: 'forgetting',
    label: 'forgetting',
    step: 0.005,
    explain:
      'Each step skills relax toward the untrained policy by this fraction, so training must keep renewing them. 0: nothing is forgotten. Off: 0.',
  },
  {
    key: 'normalisedDrift',
    label: 'normalised drift',
    step: 0.05,
    explain:
      'What a step’s forgetting follows: 0 = its mean learning signal (learning and drift scale together), 1 = the share of groups with any spread (under GRPO each such group pushes the policy alike). Off: 0.',
  },
  {
    key: 'driftExponent',
    label: 'drift exponent',
    step: 0.05,
    explain:
      'With normalised drift above 0: how a step’s forgetting grows with the number N of groups with spread, as N^ν. 1 = each such group pushes the policy as far as any other and the pushes add up; ½ = the pushes are independent noise and add in quadrature (√N), while the lessons still add up. Off: 1.',
  },
  {
    key: 'gradientNoise',
    label: 'gradient noise (fixed step)',
    step: 0.05,
    explain:
      'Above 0 every step has the same length (as with Adam) and the batch only sets its direction: the lessons of its groups plus this much noise per group with spread. More spread per group, a cleaner step; forgetting follows the noise’s share (normalised drift then has no effect). At 0 a step grows with its lessons. Off: 0.',
  },
  {
    key: 'familiarityDrift',
    label: 'familiarity drift',
    step: 0.05,
    explain:
      'Each step every environment’s own familiarity relaxes by ψ times the step’s drift (what forgetting follows), whether or not the environment is in the batch: practice renews it, a step without any update leaves it. 0: familiarity fades only in steps that leave the environment out. Off: 0.',
  },
  {
    key: 'repeatDiscount',
    label: 'memorisation vs transfer',
    step: 0.05,
    explain: 'A task practised n times before transfers 1/(1 + ρ·n) of a fresh task’s lesson (it memorises instead). Off: 0.',
  },
  {
    key: 'hiddenNoise',
    label: 'hidden difficulty',
    step: 0.05,
    explain:
      'Scales the part of each task’s difficulty no visible structure explains: 0 = the graph sees everything, 1 = as the pool was generated. Off: 1.',
  },
];

/** The world's fitted constants (docs/calibration.md): set by the "fitted worlds" buttons, editable, no "off". */
export interface WorldConstantInfo {
  key: import('../../sim/model-params.ts').WorldConstant;
  label: string;
  explain: string;
}

export const WORLD_CONSTANT_INFO: WorldConstantInfo[] = [
  {
    key: 'competence0',
    label: 'starting competence',
    explain:
      'The untrained policy’s competence in every operation family, added to every gate’s logit: it sets how hard the pool is at step 0.',
  },
  {
    key: 'logitScale',
    label: 'gate sharpness',
    explain:
      'How sharply a gate’s pass probability turns from 0 to 1 with competence minus difficulty: sharper gates, fewer tasks with spread.',
  },
  {
    key: 'etaCompetence',
    label: 'competence learning rate',
    explain:
      'How far a step’s lessons move the shared competence (with gradient noise above 0: the length of every step). It sets random’s held-out gain.',
  },
  {
    key: 'etaFamiliarity',
    label: 'familiarity learning rate',
    explain: 'How fast an environment’s own tasks get easier when its groups teach something; it does not carry to held-out environments.',
  },
  {
    key: 'familiarityDecay',
    label: 'familiarity decay',
    explain:
      'The fraction of its familiarity an environment loses in each step without a group in the batch: how easy its tasks stay between visits.',
  },
  {
    key: 'familiarityMax',
    label: 'familiarity cap',
    explain:
      'The most an environment’s own skill (its tools, its formats) can add to its tasks’ gates, in the units of competence: how far practice on one environment can make its tasks easy without general skill.',
  },
  {
    key: 'etaMemo',
    label: 'memorisation rate',
    explain:
      'How much a task’s own pass rate rises each time its group teaches something, beyond what carries to other tasks: the policy learning that very prompt.',
  },
];
