// The rollout simulator as a stand-in for a trainer (serve's `simulate` operation): plays the
// batch a client names, in the simulator's own WASM instance, with the same calls in the same
// order as a simulated run (`envsched simulate`): play, replay the flagged rollouts, hash, learn.
// Given the same batches, a client's loop therefore ends with `envsched simulate`'s fingerprint.
import { InputError } from '../engine/errors.ts';
import { showValue } from '../engine/groups.ts';
import type { Config, GraphMeta } from '../engine/types.ts';
import { readSimParams } from '../sim/sim-params-read.ts';
import { Simulator } from '../sim/simulator.ts';
import { instantiateSimWasm } from '../sim/wasm.ts';

export interface SimulatedGroup {
  task: string;
  rewards: number[];
  /** Present when a rollout's suspicious identifier was confirmed by the replay (SPEC 8). */
  flags?: boolean[];
}

export interface SimulatedStep {
  step: number;
  groups: SimulatedGroup[];
  /** The world's FNV-1a 64 fingerprint after this step (as `envsched simulate` prints it). */
  fingerprint: string;
}

/** A batch of distinct known task ids as indices (checked before the world is touched). */
export function readBatch(tasks: unknown, taskIndex: ReadonlyMap<string, number>, source: string): Int32Array {
  if (!Array.isArray(tasks) || tasks.length === 0 || tasks.length > taskIndex.size)
    throw new InputError(source, 'tasks', `must be a non-empty list of at most ${taskIndex.size} task ids`);
  const batch = new Int32Array(tasks.length);
  const seen = new Set<number>();
  tasks.forEach((id: unknown, k) => {
    const i = typeof id === 'string' ? taskIndex.get(id) : undefined;
    if (i === undefined) throw new InputError(source, `tasks[${k}]`, `unknown task id ${showValue(id)} (not in the graph)`);
    if (seen.has(i)) throw new InputError(source, `tasks[${k}]`, `task ${id as string} is listed twice`);
    seen.add(i);
    batch[k] = i;
  });
  return batch;
}

export class SimulatedWorld {
  private steps = 0;
  private constructor(
    private readonly sim: Simulator,
    private readonly meta: GraphMeta,
  ) {}

  /** A world in its initial state for the configuration's K and seed; `source` names the graph in errors. */
  static async create(module: WebAssembly.Module, meta: GraphMeta, config: Config, source: string): Promise<SimulatedWorld> {
    const params = readSimParams(meta, source);
    const sim = new Simulator(
      await instantiateSimWasm({ module }),
      meta.envs.length,
      meta.tasks.map((t) => t.env),
      params,
      config.K,
    );
    sim.reset(config.seed);
    return new SimulatedWorld(sim, meta);
  }

  get nextStep(): number {
    return this.steps;
  }

  fingerprint(): string {
    return this.sim.fingerprint();
  }

  /** Rolls out K rollouts of each task of the batch (see readBatch) at `step`, the world's next step, and learns from them. */
  rollout(step: number, batch: Int32Array, source: string): SimulatedStep {
    if (step !== this.steps)
      throw new InputError(source, 'step', `the simulated world is at step ${this.steps}: steps are simulated in order, once each`);
    const K = this.sim.K;
    const { kept: n } = this.sim.play(batch, false, batch.length);
    const view = this.sim.rolloutView(n);
    // The simulator's own replay of flagged rollouts (SPEC 8); which of them remove a task is the scheduler's rule.
    const confirmed = this.sim.confirmedFlags(n);
    const groups: SimulatedGroup[] = [];
    for (let b = 0; b < n; b++) {
      const rewards = Array.from(view.rewards.subarray(b * K, (b + 1) * K));
      const flags = Array.from(confirmed.subarray(b * K, (b + 1) * K), (f) => f === 1);
      groups.push(
        flags.some((f) => f) ? { task: this.meta.tasks[batch[b]].id, rewards, flags } : { task: this.meta.tasks[batch[b]].id, rewards },
      );
    }
    this.sim.hashStep(n);
    this.sim.learn(n);
    this.steps++;
    return { step, groups, fingerprint: this.sim.fingerprint() };
  }
}
