// The baselines of the paper's comparison (docs/baselines.md): random, DAPO's
// dynamic sampling, MoPPS and DPS. Their state and random draws live in the simulator's WASM
// instance (assembly/sim/baselines.ts), so a seed gives the same batches in every engine.
import type { SchedulerName } from '../../engine/types.ts';
import type { BatchScheduler, ChosenBatch, StepGroups } from '../scheduler.ts';
import type { Simulator } from '../simulator.ts';

/** Constants of the baselines (docs/baselines.md). */
export const BASELINE_CONSTANTS = Object.freeze({
  /** DPS: candidate pool = min(N, dpsPoolFactor * B) uniformly drawn tasks. */
  dpsPoolFactor: 4,
  /** DPS: decay applied to a task's transition counts each time it is observed. */
  dpsDecay: 0.9,
  /** DPS: Dirichlet pseudo-count added to every transition. */
  dpsPrior: 1,
  /** MoPPS: posterior discount lambda and prior Beta(alpha0, beta0). */
  moppsLambda: 0.9,
  moppsAlpha0: 1,
  moppsBeta0: 1,
  /** MoPPS: target success rate. */
  moppsTarget: 0.5,
});

/** What a baseline needs of its simulator: the instance, its heap and the pool size (the library API runs them without a simulated world). */
export type BaselineHost = Pick<Simulator, 'heap' | 'wasm' | 'nTasks'>;
/** Baselines have no identifier filter (docs/baselines.md). */
const NO_REMOVALS: readonly number[] = Object.freeze([]);

function plainBatch(tasks: Int32Array): ChosenBatch {
  return { tasks, phases: null, relaxed: [], progressExcluded: 0 };
}

/** Uniform batches of B distinct tasks (step 0 included). */
export class RandomScheduler implements BatchScheduler {
  readonly name: SchedulerName = 'random';
  readonly dynamicSampling: boolean = false;
  protected readonly perm: number;
  protected readonly out: number;
  constructor(
    protected readonly sim: BaselineHost,
    protected readonly B: number,
  ) {
    this.perm = sim.heap.allocI32(sim.nTasks);
    this.out = sim.heap.allocI32(sim.nTasks);
    sim.wasm.base_perm_init(this.perm, sim.nTasks);
  }
  choose(): ChosenBatch {
    const m = Math.min(this.B, this.sim.nTasks);
    this.sim.wasm.base_random_choose(this.perm, this.sim.nTasks, m, this.out);
    return plainBatch(this.sim.heap.i32(this.out, m).slice());
  }
  observe(): readonly number[] {
    return NO_REMOVALS;
  }
  predicted(): null {
    return null;
  }
}

/** DAPO dynamic sampling: the whole pool in random order; the run loop keeps groups with spread until B are kept. */
export class DapoScheduler extends RandomScheduler {
  override readonly name: SchedulerName = 'dapo';
  override readonly dynamicSampling = true;
  override choose(): ChosenBatch {
    const n = this.sim.nTasks;
    this.sim.wasm.base_random_choose(this.perm, n, n, this.out);
    return plainBatch(this.sim.heap.i32(this.out, n).slice());
  }
}

/** MoPPS: per-task Beta posterior on the success rate, one Thompson sample each, the B nearest 0.5. */
export class MoppsScheduler implements BatchScheduler {
  readonly name: SchedulerName = 'mopps';
  readonly dynamicSampling = false;
  private readonly p: Record<'alpha' | 'beta' | 'theta' | 'key' | 'cand' | 'out' | 'outKeys', number>;
  constructor(
    private readonly sim: BaselineHost,
    private readonly B: number,
  ) {
    const h = sim.heap;
    const n = sim.nTasks;
    this.p = {
      alpha: h.allocF64(n),
      beta: h.allocF64(n),
      theta: h.allocF64(n),
      key: h.allocF64(n),
      cand: h.allocI32(n),
      out: h.allocI32(B),
      outKeys: h.allocF64(B),
    };
    h.f64(this.p.alpha, n).fill(BASELINE_CONSTANTS.moppsAlpha0);
    h.f64(this.p.beta, n).fill(BASELINE_CONSTANTS.moppsBeta0);
  }
  choose(): ChosenBatch {
    const { p, sim } = this;
    const m = sim.wasm.base_mopps_choose(
      p.alpha,
      p.beta,
      sim.nTasks,
      Math.min(this.B, sim.nTasks),
      BASELINE_CONSTANTS.moppsTarget,
      p.theta,
      p.key,
      p.cand,
      p.out,
      p.outKeys,
    );
    return plainBatch(sim.heap.i32(p.out, m).slice());
  }
  observe(_step: number, g: StepGroups): readonly number[] {
    const c = BASELINE_CONSTANTS;
    this.sim.wasm.base_mopps_update(
      this.p.alpha,
      this.p.beta,
      g.batchPtr,
      g.tasks.length,
      g.K,
      g.rewardsPtr,
      c.moppsLambda,
      c.moppsAlpha0,
      c.moppsBeta0,
    );
    return NO_REMOVALS;
  }
  /** Posterior Bernoulli variance mu(1 - mu): MoPPS's notion of an informative task. */
  predicted(): Float64Array {
    const n = this.sim.nTasks;
    const a = this.sim.heap.f64(this.p.alpha, n);
    const b = this.sim.heap.f64(this.p.beta, n);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const mu = a[i] / (a[i] + b[i]);
      out[i] = mu * (1 - mu);
    }
    return out;
  }
  posterior(): { alpha: Float64Array; beta: Float64Array } {
    const n = this.sim.nTasks;
    return { alpha: this.sim.heap.f64(this.p.alpha, n).slice(), beta: this.sim.heap.f64(this.p.beta, n).slice() };
  }
}

/** DPS: 3-state Markov model per task (unsolved / partial / solved), top-B by P(partial) among a random candidate pool. */
export class DpsScheduler implements BatchScheduler {
  readonly name: SchedulerName = 'dps';
  readonly dynamicSampling = false;
  private readonly p: Record<'counts' | 'belief' | 'last' | 'predicted' | 'perm' | 'cand' | 'out' | 'outKeys', number>;
  constructor(
    private readonly sim: BaselineHost,
    private readonly B: number,
  ) {
    const h = sim.heap;
    const n = sim.nTasks;
    this.p = {
      counts: h.allocF64(n * 9),
      belief: h.allocF64(n * 3),
      last: h.allocI32(n),
      predicted: h.allocF64(n),
      perm: h.allocI32(n),
      cand: h.allocI32(n),
      out: h.allocI32(B),
      outKeys: h.allocF64(B),
    };
    sim.wasm.base_dps_init(this.p.counts, this.p.belief, this.p.last, n);
    sim.wasm.base_perm_init(this.p.perm, n);
  }
  choose(): ChosenBatch {
    const { p, sim } = this;
    const n = sim.nTasks;
    sim.wasm.base_dps_predict(p.counts, p.belief, n, BASELINE_CONSTANTS.dpsPrior, p.predicted);
    const pool = Math.min(n, BASELINE_CONSTANTS.dpsPoolFactor * this.B);
    const m = sim.wasm.base_dps_choose(p.perm, n, pool, Math.min(this.B, pool), p.predicted, p.cand, p.out, p.outKeys);
    return plainBatch(sim.heap.i32(p.out, m).slice());
  }
  observe(_step: number, g: StepGroups): readonly number[] {
    this.sim.wasm.base_dps_update(
      this.p.counts,
      this.p.belief,
      this.p.last,
      g.batchPtr,
      g.tasks.length,
      g.K,
      g.rewardsPtr,
      BASELINE_CONSTANTS.dpsDecay,
    );
    return NO_REMOVALS;
  }
  predicted(): Float64Array {
    return this.sim.heap.f64(this.p.predicted, this.sim.nTasks).slice();
  }
  /** Last observed state per task (-1 never, 0 unsolved, 1 partial, 2 solved) and beliefs, for tests. */
  state(): { last: Int32Array; belief: Float64Array; counts: Float64Array } {
    const n = this.sim.nTasks;
    return {
      last: this.sim.heap.i32(this.p.last, n).slice(),
      belief: this.sim.heap.f64(this.p.belief, n * 3).slice(),
      counts: this.sim.heap.f64(this.p.counts, n * 9).slice(),
    };
  }
}
