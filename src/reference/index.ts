// The plain TypeScript reference scheduler (SPEC 2-8): the readable oracle the WASM kernels are
// tested against. `referenceScore` prints the SPEC 12 scores object; `explainTask` shows one task
// through the same code path; the formulas are exported for hand-worked tests.
export { referenceScore, explainTask, explainFromAnalysis, analyse, scoresOf, assertScorable } from './score.ts';
export type { Analysis, TaskExplanation, HalfLifeExplanation, Removal } from './score.ts';
export * from './formulas.ts';
export { JS_MATH, type ScalarMath } from './math.ts';
export { fullSimilarity, environmentCategories } from './graph.ts';
export { firstObserved, neighbourSets } from './neighbours.ts';
export type { NeighbourSets } from './neighbours.ts';
export { defaultStep, indexHistory } from './history.ts';
export type { HistoryIndex, ObservedGroup } from './history.ts';
export { stepReferences, globalReference, taskHistory, relationTerms, computeHalfLife, priorKind } from './predict.ts';
export type { HalfLifeResult, TaskUnderHalfLife, NeighbourTerm, RelationTerms, StepReference } from './predict.ts';
export { listTransitions, scoreTransitions, progressFilter, MIN_EARLIER_TRANSITIONS } from './progress-filter.ts';
export type { Transition, TaskProgress, ProgressResult } from './progress-filter.ts';
export {
  chooseBatch,
  coldStartBatch,
  coveragePick,
  exploitationPick,
  environmentRepresentative,
  isConsecutivelyCapped,
  selectionCounts,
  RELAXATION_ORDER,
} from './batch.ts';
export type { BatchInputs, BatchPick, BatchResult, SelectionCounts } from './batch.ts';
