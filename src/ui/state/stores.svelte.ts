// The app's small stores (Svelte 5 runes): each holds one kind of data and nothing else. They are
// written by the orchestrator (orchestrator.ts, plain TypeScript) and read by the views. Large
// arrays live in `$state.raw` and are replaced, never mutated; nothing reactive is handed to the
// worker or Chart.js without a copy.
import type { ReproduceResult } from '../../sim/reproduce.ts';
import type { DatasetInfo, ImportedScores, Inspection, PoolSnapshot } from '../../worker/api.ts';
import type { EngineFault } from '../engine/client.ts';
import type { DataFields, LaneFields, LaneRun, Notice, NoticeFields, ReproduceFields, ReproduceProgress, ViewFields } from './model.ts';

/** The lanes' runs (A, B, the random reference) and the previous runs shown faint while a new one streams. */
export class LaneStore implements LaneFields {
  a: LaneRun | null = $state.raw(null);
  b: LaneRun | null = $state.raw(null);
  ref: LaneRun | null = $state.raw(null);
  ghostA: LaneRun | null = $state.raw(null);
  ghostB: LaneRun | null = $state.raw(null);
  /** True while a run of the current configuration is computing or waiting in the throttle. */
  running = $state(false);
  /** True while a change waits in the throttle (the page must not call an older run the finished one). */
  pending = $state(false);
  /** Lane B shows the random reference itself (B = random with A's seed, B, K, T): drawn once. */
  refIsB = $state(false);
}

/** What the views show data of: the bundled datasets, the loaded one, an imported history. */
export class DataStore implements DataFields {
  datasets: string[] = $state.raw([]);
  dataset: DatasetInfo | null = $state.raw(null);
  source: 'sim' | 'imported' = $state('sim');
  imported: ImportedScores | null = $state.raw(null);
  /** What an import in progress is loading (for Copy link and the status line), null when none. */
  importing: string | null = $state(null);
  faults: EngineFault[] = $state.raw([]);
}

/** The on-demand views: inspector, pool scatter, linked highlight, the player. */
export class ViewStore implements ViewFields {
  inspection: Inspection | null = $state.raw(null);
  inspectError: string | null = $state(null);
  inspecting = $state(false);
  pool: PoolSnapshot | null = $state.raw(null);
  highlight: { env: number | null; task: number | null } = $state({ env: null, task: null });
  playing = $state(false);
}

export class ReproduceStore implements ReproduceFields {
  reproduce: ReproduceProgress = $state({ running: false, done: 0, total: 0, label: '', result: null as ReproduceResult | null });
}

/** Notices: every one is kept until dismissed (a link with many corrections reports them all). */
export class NoticeStore implements NoticeFields {
  notices: Notice[] = $state([]);
  private counter = 0;

  notify(kind: Notice['kind'], text: string): void {
    this.notices = [...this.notices, { id: ++this.counter, kind, text }];
  }

  dismiss(id: number): void {
    this.notices = this.notices.filter((n) => n.id !== id);
  }

  dismissAll(): void {
    this.notices = [];
  }
}

/** The explain box's text (hover or focus on any knob or view). */
export class ExplainStore {
  text = $state('');
}
