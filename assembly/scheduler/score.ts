// One scheduling step at step t: everything the Scores object of SPEC 12 holds, from the stored
// history restricted to steps s < t.
import { cfg, cfgInt, configCheck } from './config';
import { CFG_B, CFG_ETA_DECLINE, CFG_H_LONG, CFG_H_SHORT, INFO_BATCH_LENGTH, INFO_COLD_START, INFO_OBSERVATIONS_USED, INFO_STEPS_USED } from './layout';
import { gN, gReady } from './graph';
import { hStepCount, hStepFirst, hObsCount, stepsBefore } from './history';
import { getF64, getI32, setF64, setI32, setU8 } from './mem';
import { gatherCounts, predictBothHalfLives } from './predict';
import { updateNeighbours } from './neighbours';
import { progressScore, progressUpdate } from './progress-filter';
import { percentileRanks } from './rank';
import { chooseBatch, chooseColdStart } from './batch';
import {
  ensureBatchCapacity, ensureStepScratch, oExcluded, oInfo,
  oLongU, oQ, oShortU, oU,
} from './state';

/** Scores step t and chooses its batch. Returns the batch length. */
export function scoreStep(t: i32): i32 {
  if (!gReady) abort('score: no graph loaded');
  if (t < 0) abort('score: step must be >= 0');
  configCheck();
  const B = cfgInt(CFG_B);
  if (B < 1) abort('score: B must be >= 1');
  ensureBatchCapacity(B);
  const nSteps = stepsBefore(t);
  const nObs = nSteps < hStepCount ? getI32(hStepFirst, nSteps) : hObsCount;
  setI32(oInfo, INFO_OBSERVATIONS_USED, nObs);
  setI32(oInfo, INFO_STEPS_USED, nSteps);

  gatherCounts(t, nObs);
  if (nObs == 0) {
    // SPEC 7: nothing observed before t (t = 0, or a history that starts later): static structure only
    setI32(oInfo, INFO_COLD_START, 1);
    for (let i = 0; i < gN; i++) setU8(oExcluded, i, 0);
    chooseColdStart();
    return getI32(oInfo, INFO_BATCH_LENGTH);
  }
  setI32(oInfo, INFO_COLD_START, 0);
  ensureStepScratch(nSteps);
  updateNeighbours(nObs); // SPEC 4, incremental
  predictBothHalfLives(cfg(CFG_H_LONG), cfg(CFG_H_SHORT), t, nSteps, nObs);

  // SPEC 5: decline-adjusted u, then q = pr(u)
  const eta = cfg(CFG_ETA_DECLINE);
  for (let i = 0; i < gN; i++) {
    const ul = getF64(oLongU, i);
    setF64(oU, i, ul - eta * max<f64>(ul - getF64(oShortU, i), 0.0));
  }
  percentileRanks(oU, oQ, gN);

  // SPEC 8: filters (identifier removals were gathered with the counts)
  progressUpdate();
  progressScore(nObs);

  chooseBatch();
  return getI32(oInfo, INFO_BATCH_LENGTH);
}


