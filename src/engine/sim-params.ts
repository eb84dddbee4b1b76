// The simulator's hidden parameters (SPEC 10), stored in a graph file's optional `sim` field
// (SPEC 12). The pool generator writes them; the simulator reads them; the scheduler never does.

/** One gate of a task's chain: an operation that must succeed before the checks behind it can pass. */
export interface SimGate {
  /** Index into SimParams.families (operation family: lookup, authorise, update, ...). */
  family: number;
  /** Index into SimParams.gateTypes (identifier resolution, state precondition, authorisation, ...). */
  type: number;
  /** Difficulty on a logit scale: higher is harder. A function of visible structure plus noise. */
  difficulty: number;
  /** Verifier checks that can pass only if this gate and every earlier gate succeed (>= 1). */
  checks: number;
  /** Optional: the part of `difficulty` that no visible structure explains (the generator's noise; default 0). */
  noise?: number;
}

export interface SimTask {
  /** The chain in execution order; a failed gate fails every check behind it and behind later gates. */
  gates: SimGate[];
  /** Checks already true in the initial state: they pass whatever the rollout does. */
  initiallySatisfied: number;
  /** Whether a rollout can reach reward with a suspicious identifier (SPEC 8, 10). */
  exploitable: boolean;
}

export interface SimHeldoutTask extends SimTask {
  /** Index into the suite's `envs` (held-out environments are not in the training pool). */
  env: number;
}

export interface SimHeldoutSuite {
  name: string;
  envs: { id: string; name: string; category: string | null }[];
  tasks: SimHeldoutTask[];
}

export interface SimParams {
  version: 1;
  families: string[];
  gateTypes: string[];
  /** One per pool task, in graph order; the checks add up to the graph task's `checks`. */
  tasks: SimTask[];
  heldout: SimHeldoutSuite[];
  /**
   * Optional (sidecar files): the task id of each entry of `tasks`, so the graph builder can match
   * a sidecar to a pool whatever the order and refuse a sidecar of another pool.
   */
  taskIds?: string[];
}
