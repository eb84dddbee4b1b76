// The result card's store: what it compares and the seed pairs finished so far.
import type { Config } from '../../engine/types.ts';
import type { CardFields } from './card-runner.ts';
import { DEFAULT_CARD_SEEDS } from './card-runner.ts';
import type { SeedPair } from './card.ts';

export class CardStore implements CardFields {
  a: Config | null = $state.raw(null);
  b: Config | null = $state.raw(null);
  pairs: SeedPair[] = $state.raw([]);
  seeds = $state(DEFAULT_CARD_SEEDS);
  running = $state(false);
  error: string | null = $state(null);
  /** The held-out chart's x axis: steps, or rollouts spent. */
  x: 'steps' | 'rollouts' = $state('steps');
  /** The page's simulated-world knobs differ from the calibrated world the card's seeds run in. */
  calibratedOnly = $state(false);
}
