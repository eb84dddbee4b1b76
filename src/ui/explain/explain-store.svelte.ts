// Explain mode's own small store: open or closed, the scene, and the explanation of the step being
// walked through. It receives what it explains through a narrow interface (which lane, which step,
// which task, whether the run is ready) and asks the worker for the rest; latest request wins,
// one in flight at a time, and an answer in flight is still shown when a newer step is asked
// for, so the walkthrough follows a playing player at most one step behind.
import type { Lane, Result } from '../../worker/api.ts';
import type { PoolGraph, StepExplanation } from '../../worker/explain.ts';
import type { ExplainLink } from './explain-url.ts';
import { scenesFor, type SceneId } from './scenes.ts';

/** What the walkthrough needs from the engine client. */
export interface ExplainEngine {
  explainStep(lane: Lane | 'imported', step: number, task: number | null): Promise<Result<StepExplanation>>;
  poolGraph(maxTasks: number): Promise<PoolGraph | null>;
}

/** What the walkthrough is shown: the app's current run, step and task. */
export interface ExplainSource {
  lane: Lane | 'imported';
  step: number;
  task: number | null;
  /** False until the run (or the imported history) is complete. */
  ready: boolean;
  /** Changes whenever the run changes (a new run id, a new import). */
  runKey: string;
}

/** True when two request keys differ only by step or task (same lane, same run). */
function sameRun(a: string | null, b: string): boolean {
  if (a === null) return false;
  const [laneA, , , runA] = JSON.parse(a) as unknown[];
  const [laneB, , , runB] = JSON.parse(b) as unknown[];
  return laneA === laneB && runA === runB;
}

/** Pools up to this size are drawn whole in the propagation view. */
export const WHOLE_POOL_MAX = 300;

export class ExplainStore {
  open = $state(false);
  scene: SceneId = $state('rollouts');
  data: StepExplanation | null = $state.raw(null);
  error: string | null = $state(null);
  loading = $state(false);
  pool: PoolGraph | null = $state.raw(null);
  /** Where focus was when the walkthrough opened (given back on close). */
  private opener: HTMLElement | null = null;
  private wanted: string | null = null;
  private busy = false;
  private poolKey: string | null = null;

  constructor(
    private readonly engine: ExplainEngine,
    link: ExplainLink | null,
  ) {
    if (link) {
      this.open = true;
      this.scene = link.scene;
    }
  }

  get scenes(): readonly SceneId[] {
    return scenesFor(this.data?.coldStart ?? false);
  }

  /** The scene shown: the chosen one, or the first of this step's scenes if it has no such scene. */
  get current(): SceneId {
    return this.scenes.includes(this.scene) ? this.scene : this.scenes[0];
  }

  get index(): number {
    return this.scenes.indexOf(this.current);
  }

  show(opener: HTMLElement | null): void {
    this.opener = opener;
    this.open = true;
  }

  close(): void {
    this.open = false;
    const back = this.opener;
    this.opener = null;
    // Focus goes back where it was (the Explain button), never to a removed dialog.
    queueMicrotask(() => (back && back.isConnected ? back : document.querySelector<HTMLElement>('[data-testid=explain-toggle]'))?.focus());
  }

  go(offset: number): void {
    const list = this.scenes;
    const k = Math.max(0, Math.min(list.length - 1, this.index + offset));
    this.scene = list[k];
  }

  goTo(scene: SceneId): void {
    this.scene = scene;
  }

  /** Asks for the explanation of the source's step (called whenever the source changes). */
  request(source: ExplainSource): void {
    if (!this.open || !source.ready) return;
    const key = JSON.stringify([source.lane, source.step, source.task, source.runKey]);
    if (key === this.wanted) return;
    this.wanted = key;
    void this.pump(source);
    if (this.poolKey !== source.runKey) {
      this.poolKey = source.runKey;
      void this.engine.poolGraph(WHOLE_POOL_MAX).then(
        (pool) => (this.pool = pool),
        () => (this.pool = null),
      );
    }
  }

  private async pump(source: ExplainSource): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.loading = true;
    const key = this.wanted;
    let next: ExplainSource | null = null;
    try {
      const result = await this.engine.explainStep(source.lane, source.step, source.task);
      // A newer request of the same run does not discard this answer: it is at most one request
      // behind (the walkthrough follows a playing player), and the newer one runs next.
      if (key === this.wanted || (this.wanted !== null && sameRun(key, this.wanted))) {
        if (result.ok) {
          this.data = result.value;
          this.error = null;
        } else this.error = result.notice;
      }
    } catch (error) {
      if (!(error instanceof Error && error.name === 'Cancelled')) this.error = (error as Error).message;
    } finally {
      this.busy = false;
      this.loading = false;
    }
    if (this.wanted !== null && key !== this.wanted) {
      const [lane, step, task, runKey] = JSON.parse(this.wanted) as [ExplainSource['lane'], number, number | null, string];
      next = { lane, step, task, ready: true, runKey };
      this.wanted = null;
      this.request(next);
    }
  }
}
