// The paper's figures that a simulated reproduction is held against (EnvSched, Qwen3-4B unless
// said; Tables 1-4 and Figure 1). Benchmark scores are not on the simulator's held-out scale, so
// they enter as orderings and as gains relative to random's gain over the untrained policy.

/** Training statistics of one configuration (Tables 2 and 3(a)). */
export interface PaperRow {
  meanVariance?: number;
  medianVariance?: number;
  medianReward?: number;
  envsPerBatch?: number;
  toolsPerBatch?: number;
  /** Mean of the three benchmarks' Overall scores (BFCL-v3 MT, tau-Bench, ACEBench-Agent) at step 200. */
  benchmarkMean?: number;
}

const mean3 = (a: number, b: number, c: number) => Math.round(((a + b + c) / 3) * 100) / 100;

export const PAPER_ROWS: Readonly<Record<string, PaperRow>> = Object.freeze({
  random: {
    meanVariance: 0.03208,
    medianVariance: 0.01468,
    medianReward: 0.595,
    envsPerBatch: 36.53,
    toolsPerBatch: 413.41,
    benchmarkMean: mean3(28.83, 37.78, 56.0),
  },
  dps: { benchmarkMean: mean3(30.38, 36.77, 56.67) },
  envsched: {
    meanVariance: 0.0429,
    medianVariance: 0.02108,
    medianReward: 0.592,
    envsPerBatch: 45.96,
    toolsPerBatch: 478.39,
    benchmarkMean: mean3(31.88, 41.01, 58.0),
  },
  'within-only': { meanVariance: 0.0391, envsPerBatch: 46.7, toolsPerBatch: 498.55, benchmarkMean: mean3(30.42, 40.4, 58.0) },
  'cross-only': { meanVariance: 0.0383, envsPerBatch: 46.18, toolsPerBatch: 466.5, benchmarkMean: mean3(30.63, 41.01, 57.33) },
  'coverage-only': { meanVariance: 0.0357, envsPerBatch: 51.0, toolsPerBatch: 502.1, benchmarkMean: mean3(29.71, 39.39, 56.67) },
  'exploitation-only': { meanVariance: 0.0442, envsPerBatch: 33.95, toolsPerBatch: 420.63, benchmarkMean: mean3(29.17, 38.59, 56.0) },
});

/** The untrained Qwen3-4B (Table 1 "base"): mean of the three benchmarks. */
export const PAPER_BASE = mean3(25.38, 36.36, 53.33);

/** EnvSched's gain over random as a share of random's gain over base, across the four model sizes (Table 1). */
export const PAPER_GAIN_SHARE_RANGE: readonly [number, number] = [0.75, 2.27];

/** Table 4(a): means over 100 seven-step runs from random cold starts (step 0 = the cold-start batch). */
export const PAPER_TABLE4 = Object.freeze({
  step1: { meanVariance: 0.0596, cumulativeVariance: 0.0534, hitRate: 0.572 },
  step7: { meanVariance: 0.0813, cumulativeVariance: 0.0679, hitRate: 0.921, hitRateP5: 0.844 },
});

/** Figure 1: EnvSched after 40 steps is above random's best of 120 steps. */
export const PAPER_FIGURE1 = Object.freeze({ envschedSteps: 40, randomSteps: 120 });

/** Analytic environments per uniform batch of 64 distinct tasks from 51 x 50 (not a paper figure). */
export const ANALYTIC_RANDOM_ENVS = 36.87;
