// The simulated policy's constants (docs/simulator.md, "Constants and calibration"). They are not
// configuration keys (SPEC 12 fixes those); they are the model, calibrated once and documented.

export interface SimModelParams {
  /** Initial competence of every operation family (added to every gate's logit). */
  competence0: number;
  /** Probability that a rollout of an exploitable task uses its exploit (and is flagged). */
  exploitRate: number;
  /** Reward of an exploited rollout (every check passes). */
  exploitReward: number;
  /** Competence learning rate per unit of family credit. */
  etaCompetence: number;
  /** Per-step saturation of a family's credit: credit c teaches c / (1 + c / sat). */
  competenceSaturation: number;
  /** Familiarity gained per unit of reward spread of a group of the environment. */
  etaFamiliarity: number;
  /** Fraction of familiarity an environment loses in a step without a group in the batch. */
  familiarityDecay: number;
  /** Memorisation gained per unit of reward spread of the task's own group. */
  etaMemo: number;
  familiarityMax: number;
  memoMax: number;
  /** Sharpness of every gate's sigmoid: p = sigmoid(logitScale * z). */
  logitScale: number;
}

export const DEFAULT_SIM_MODEL: Readonly<SimModelParams> = Object.freeze({
  competence0: 0.68,
  exploitRate: 0.15,
  exploitReward: 1,
  etaCompetence: 0.001,
  competenceSaturation: 4,
  etaFamiliarity: 0.015,
  familiarityDecay: 0.05,
  etaMemo: 0.05,
  familiarityMax: 3,
  memoMax: 3,
  logitScale: 7.5,
});

/** The params array of assembly/sim/model.ts, in its index order (P_EXPLOIT ... P_LOGIT_SCALE). */
export function packModelParams(p: SimModelParams): Float64Array {
  return Float64Array.of(
    p.exploitRate,
    p.exploitReward,
    p.etaCompetence,
    p.competenceSaturation,
    p.etaFamiliarity,
    p.familiarityDecay,
    p.etaMemo,
    p.familiarityMax,
    p.memoMax,
    p.logitScale,
  );
}
