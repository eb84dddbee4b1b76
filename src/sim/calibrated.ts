// The simulated world's calibrated constants: the simulator's defaults (src/sim/model-params.ts).
// Until `npm run calibrate` has run this holds the previous hand calibration with every world
// mechanism off; the calibration program (scripts/calibrate.mjs, docs/calibration.md) rewrites it.
import type { SimModelParams } from './model-params.ts';

export interface CalibratedWorld {
  /** Values the optimiser fitted to the declared fit targets. */
  fitted: Partial<SimModelParams>;
  /** Values fixed before fitting (not identifiable from the fit targets), with the reason in docs/calibration.md. */
  fixed: Partial<SimModelParams>;
  /** What the fit did (optimiser, seeds, objective, spread across refits); null before the first fit. */
  report: unknown;
}

export const CALIBRATED: CalibratedWorld = {
  fitted: {},
  fixed: {},
  report: null,
};
