// The glossary: every symbol the inspector and the walkthrough show, in plain words, with the
// paper's equation number (arXiv 2610.37609 numbers five equations in its main text; the rest is
// in its appendices) and the section of the contract (docs/spec.md) where it is defined exactly.
// One colour per quantity: the caption, the figure, the batch and the charts use the same one.
import { QUANTITY_COLOUR } from '../lib/palette.ts';

export interface GlossaryEntry {
  /** How the symbol is written on screen. */
  symbol: string;
  /** Plain words, one or two sentences. */
  words: string;
  /** The paper's equation or appendix. */
  paper: string;
  /** The contract's section ("SPEC n" in code). */
  spec: number;
  /** The colour that marks this quantity everywhere (null: plain ink). */
  colour: string | null;
}

export { QUANTITY_COLOUR };

const C = QUANTITY_COLOUR;

export const GLOSSARY = {
  K: {
    symbol: 'K',
    words: 'Rollouts per task: each selected task is attempted K times and every attempt gets a reward in [0, 1].',
    paper: 'Eq. 2',
    spec: 2,
    colour: null,
  },
  r: {
    symbol: 'r',
    words: 'One rollout\u2019s reward: the fraction of the task\u2019s verifier checks that passed.',
    paper: 'Eq. 2',
    spec: 2,
    colour: C.reward,
  },
  m: {
    symbol: 'm',
    words: 'Mean reward of a group of K rollouts. Near 0 or 1 the task is too hard or too easy to teach anything.',
    paper: 'Eq. 2, App. B',
    spec: 2,
    colour: C.reward,
  },
  v: {
    symbol: 'v',
    words:
      'Within-group reward variance (population variance of the K rewards): the signal GRPO learns from. The scheduler wants tasks with high v.',
    paper: 'Eq. 2',
    spec: 2,
    colour: C.variance,
  },
  d: {
    symbol: 'd',
    words: 'Mean-corrected dispersion v / max(m(1 \u2212 m), 0.01), clipped to [0, 1]: how much of the possible spread the group used.',
    paper: 'App. B',
    spec: 2,
    colour: C.dispersion,
  },
  h: {
    symbol: 'h',
    words:
      'A half-life in steps: an observation h steps old counts half as much. Everything is computed twice, for a long and a short half-life.',
    paper: 'App. B',
    spec: 3,
    colour: null,
  },
  w: {
    symbol: 'w(t,s)',
    words: 'Decay weight 2^(\u2212(t \u2212 s)/h) of an observation made at step s, seen from step t.',
    paper: 'App. B',
    spec: 3,
    colour: C.own,
  },
  b: {
    symbol: 'b_s',
    words:
      'Step reference: the mean statistic over all tasks observed at step s. Centring subtracts it, so a step where everything was easy does not look like an easy task.',
    paper: 'App. B',
    spec: 3,
    colour: C.reference,
  },
  B: {
    symbol: 'B_t',
    words: 'Global reference: the decay-weighted mean of the step references. Tasks with no information are assumed to be like this.',
    paper: 'Eq. 3, App. B',
    spec: 3,
    colour: C.reference,
  },
  ybar: {
    symbol: '\u0233',
    words: 'The task\u2019s own history: the decay-weighted mean of its centred observations (B_t when it was never observed).',
    paper: 'Eq. 4, App. B',
    spec: 3,
    colour: C.own,
  },
  W: {
    symbol: 'W',
    words: 'How much own history the task has: the sum of its decay weights. 0 when never observed; it grows with recent observations.',
    paper: 'Eq. 4',
    spec: 3,
    colour: C.own,
  },
  Nin: {
    symbol: 'N_in',
    words: 'The first K_within observed tasks of the same environment, most similar first.',
    paper: 'Eq. 3',
    spec: 4,
    colour: C.within,
  },
  Ncross: {
    symbol: 'N_cross',
    words:
      'The first K_cross observed tasks of other environments with the most similar abstract structure (operation, gate and reward topology).',
    paper: 'Eq. 3',
    spec: 4,
    colour: C.cross,
  },
  S: {
    symbol: 'S',
    words:
      'Similarity of two tasks: S_full (text, verifier, context and operation views) within an environment, S_abs (abstract topology) across environments.',
    paper: 'Eq. 1',
    spec: 1,
    colour: null,
  },
  delta: {
    symbol: '\u03b4',
    words: 'Distance 1 \u2212 S between the target and a neighbour, clipped to [0, 1].',
    paper: 'Eq. 3',
    spec: 4,
    colour: null,
  },
  sigma: {
    symbol: '\u03c3',
    words: 'Kernel bandwidth: the median neighbour distance (at least 0.05), so weights adapt to how close the neighbours are.',
    paper: 'Eq. 3',
    spec: 4,
    colour: null,
  },
  a: {
    symbol: 'a',
    words:
      'A neighbour\u2019s weight exp(\u2212\u00bd(\u03b4/\u03c3)\u00b2) \u00b7 clip(W_j, 0.1, 3): close and well-observed neighbours count most.',
    paper: 'Eq. 3',
    spec: 4,
    colour: null,
  },
  Gin: {
    symbol: 'G_in',
    words: 'Within-environment estimate: the weighted mean of the neighbours\u2019 \u0233, shrunk toward B_t with strength \u03bb_g.',
    paper: 'Eq. 3',
    spec: 4,
    colour: C.within,
  },
  Gcross: {
    symbol: 'G_cross',
    words: 'Cross-environment estimate: the same over structurally similar tasks of other environments.',
    paper: 'Eq. 3',
    spec: 4,
    colour: C.cross,
  },
  lambda_g: {
    symbol: '\u03bb_g',
    words: 'Shrinkage of a relation estimate toward the reference: with few or distant neighbours, G stays near B_t.',
    paper: 'Eq. 3',
    spec: 4,
    colour: C.reference,
  },
  P: {
    symbol: 'P',
    words: 'Graph prior: \u00bd G_in + \u00bd G_cross (one of them in the edge ablations).',
    paper: 'Eq. 4',
    spec: 5,
    colour: null,
  },
  lambda_s: {
    symbol: '\u03bb_s',
    words: 'How many observations\u2019 worth of trust the graph prior gets against the task\u2019s own history W.',
    paper: 'Eq. 4',
    spec: 5,
    colour: null,
  },
  yhat: {
    symbol: '\u0177',
    words:
      'The prediction (W \u0233 + \u03bb_s P) / (W + \u03bb_s): own history where there is some, the graph prior where there is none. \u0177.v is the predicted variance v\u0302.',
    paper: 'Eq. 4',
    spec: 5,
    colour: C.variance,
  },
  f: {
    symbol: 'f',
    words:
      'Learnability d\u0302 \u00b7 m\u0302 (1 \u2212 m\u0302): high for tasks that are neither solved nor hopeless and whose groups spread.',
    paper: 'App. B',
    spec: 5,
    colour: C.dispersion,
  },
  uh: {
    symbol: 'u^h',
    words:
      'Calibrated score under one half-life: the predicted-variance quantile at 0.65 pr(v\u0302) + 0.35 pr(f), so it is on the scale of a variance.',
    paper: 'App. B',
    spec: 5,
    colour: C.variance,
  },
  decline: {
    symbol: '\u03b7\u00b7max(u^long \u2212 u^short, 0)',
    words:
      'Decline adjustment: when the short half-life sees less variance than the long one, the task is getting learned; its score drops by \u03b7 times the gap.',
    paper: 'App. B',
    spec: 5,
    colour: null,
  },
  u: { symbol: 'u', words: 'The combined score u^long \u2212 decline.', paper: 'App. B', spec: 5, colour: C.priority },
  q: {
    symbol: 'q',
    words: 'Priority: the percentile rank of u over the whole pool, between 0 and 1. Both phases rank tasks by it.',
    paper: 'App. B',
    spec: 5,
    colour: C.priority,
  },
  rho: {
    symbol: '\u03c1',
    words: 'Coverage fraction: floor(\u03c1 B) slots of the batch are filled by the coverage phase first.',
    paper: 'Sec. 2.4',
    spec: 6,
    colour: null,
  },
  Bcov: {
    symbol: 'B_cov',
    words: 'Coverage slots floor(\u03c1 B); the remaining B \u2212 B_cov slots are exploitation.',
    paper: 'Sec. 2.4',
    spec: 6,
    colour: null,
  },
  ne: {
    symbol: 'n_e',
    words: 'Tasks of the environment already in the batch being built. Coverage prefers environments not yet in it.',
    paper: 'Eq. 5',
    spec: 6,
    colour: null,
  },
  Xe: {
    symbol: 'X_e',
    words: 'Cumulative selections of the environment so far: coverage prefers the least exposed environment.',
    paper: 'Eq. 5',
    spec: 6,
    colour: null,
  },
  c: { symbol: 'c_i', words: 'How often the task was selected (and observed) before this step.', paper: 'Sec. 2.4', spec: 6, colour: null },
  omega: {
    symbol: '\u03c9',
    words:
      'Exposure factor (1 + c_i/c0)^(\u22121/2): a task picked often counts for less, so exploitation does not pick the same tasks forever.',
    paper: 'Sec. 2.4',
    spec: 6,
    colour: C.reward,
  },
  lambda_sim: {
    symbol: '\u03bb_sim',
    words:
      'Similarity penalty: each pick loses \u03bb_sim times its largest S_full to the tasks already in the batch, so the batch does not fill with near-duplicates.',
    paper: 'Eq. 5',
    spec: 6,
    colour: C.penalty,
  },
  C1: { symbol: 'C1', words: 'At most C1 tasks of one environment per batch.', paper: 'App. C', spec: 6, colour: null },
  C3: {
    symbol: 'C3',
    words: 'At most C3 tasks of one environment over this step and the two before.',
    paper: 'App. C',
    spec: 6,
    colour: null,
  },
  C_task: {
    symbol: 'C_task',
    words: 'A task picked at each of the last C_task steps must sit this one out.',
    paper: 'App. C',
    spec: 6,
    colour: null,
  },
  progress: {
    symbol: 'p',
    words:
      'Progress filter: a ridge model predicts each task\u2019s next mean reward; a task that keeps doing worse than predicted (p \u2264 0 over \u2265 3 residuals) is kept out of exploitation.',
    paper: 'App. C',
    spec: 8,
    colour: null,
  },
  removed: {
    symbol: '\u2691',
    words: 'Identifier filter: a rollout that scored \u2265 0.5 through a suspicious identifier (an exploit) removes its task for good.',
    paper: 'App. C',
    spec: 8,
    colour: null,
  },
  coldStart: {
    symbol: 't = 0',
    words:
      'Cold start: with no history, the batch takes each environment\u2019s most central task, then fills up by novelty (least similar to what is in the batch).',
    paper: 'App. C',
    spec: 7,
    colour: null,
  },
} as const satisfies Record<string, GlossaryEntry>;

export type GlossaryKey = keyof typeof GLOSSARY;

/** The section heading of docs/spec.md that defines a symbol (for the "where it is defined" line). */
export const SPEC_TITLE: Record<number, string> = {
  1: 'The static graph',
  2: 'Observations',
  3: 'History under one half-life',
  4: 'Neighbours and relation estimates',
  5: 'Fusion, calibration and the priority',
  6: 'Choosing the batch',
  7: 'Cold start',
  8: 'Candidate filters',
};

/** "Eq. 3 · docs/spec.md §4 Neighbours and relation estimates" */
export function whereDefined(entry: GlossaryEntry): string {
  return `${entry.paper} · docs/spec.md §${entry.spec} ${SPEC_TITLE[entry.spec] ?? ''}`.trim();
}
