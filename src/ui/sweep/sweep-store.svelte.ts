// The sweep view's state: the definition being edited, the points streamed in so far,
// progress, and cancellation. Each sweep gets a fresh pool (cancelling terminates its workers);
// the run cache outlives sweeps, so re-running or extending a sweep only runs the new points.
import type { Config } from '../../engine/types.ts';
import { RunCache } from '../../sweep/cache.ts';
import { SWEEP_METRICS, validateSweep, type SweepDefinition, type SweepMetric } from '../../sweep/definition.ts';
import type { SweepExecutor } from '../../sweep/executor.ts';
import { findPreset, presetKnobs } from '../../sweep/presets.ts';
import { runSweep, type SweepPointResult, type SweepResult } from '../../sweep/runner.ts';

export class SweepStore {
  definition: SweepDefinition | null = $state.raw(null);
  /** Points finished so far (ordered by index), replaced on every arrival. */
  points: SweepPointResult[] = $state.raw([]);
  result: SweepResult | null = $state.raw(null);
  progress = $state({ done: 0, total: 0, label: '' });
  running = $state(false);
  error: string | null = $state(null);
  /** The metric the heatmap shows (the line view shows every metric). */
  metric: SweepMetric = $state('final');
  readonly cache = new RunCache();
  private controller: AbortController | null = null;

  constructor(private readonly makePool: () => SweepExecutor) {}

  /** A preset's sweep over the app's configuration. */
  fromPreset(name: string, base: Config, seeds = 3): SweepDefinition {
    const preset = findPreset(name);
    if (!preset) throw new Error(`unknown preset ${name}`);
    return { knobs: presetKnobs(preset), seeds, base, metrics: [...SWEEP_METRICS], preset: preset.name };
  }

  async start(definition: SweepDefinition): Promise<SweepResult | null> {
    this.cancel();
    try {
      validateSweep(definition, 'sweep', { knobs: ['knob 1', 'knob 2'], seeds: 'seeds', metrics: 'metrics', world: 'simulated world' });
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      return null;
    }
    const controller = new AbortController();
    this.controller = controller;
    this.definition = definition;
    this.points = [];
    this.result = null;
    this.error = null;
    this.running = true;
    this.progress = { done: 0, total: 0, label: '' };
    if (!definition.metrics.includes(this.metric)) this.metric = definition.metrics[0];
    const pool = this.makePool();
    try {
      const result = await runSweep(definition, pool, {
        cache: this.cache,
        signal: controller.signal,
        onProgress: (p) => {
          if (this.controller === controller) this.progress = { done: p.done, total: p.total, label: p.label };
        },
        onPoint: (point) => {
          if (this.controller === controller) this.points = [...this.points, point].sort((x, y) => x.index - y.index);
        },
      });
      if (this.controller === controller) this.result = result;
      return result;
    } catch (error) {
      if (this.controller === controller) this.error = error instanceof Error ? error.message : String(error);
      return null;
    } finally {
      pool.terminate();
      if (this.controller === controller) {
        this.running = false;
        this.controller = null;
      }
    }
  }

  /** Stops handing out runs and terminates the workers; the points finished so far stay. */
  cancel(): void {
    this.controller?.abort();
  }
}
