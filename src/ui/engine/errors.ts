// The engine client's errors (apart from client.ts so that plain TypeScript, the orchestrator and
// its Node tests, can tell them apart without loading the worker bridge).
import type { FaultKind } from '../../worker/api.ts';

/** Thrown into callers whose request was dropped because a newer one replaced its worker. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled by a newer request');
    this.name = 'Cancelled';
  }
}

export interface EngineFault {
  kind: FaultKind;
  /** What the worker was doing, in words ("running configuration A"). */
  during: string;
  /** The browser's own message, for the curious (and for bug reports). */
  detail: string;
}

/**
 * Thrown into callers whose worker failed (see EngineFault). A subclass of Cancelled: the caller
 * stops quietly, because the fault listener reports it once and starts the recovery.
 */
export class WorkerFault extends Cancelled {
  constructor(readonly fault: EngineFault) {
    super();
    this.name = 'WorkerFault';
    this.message = `engine worker failed (${fault.kind}) while ${fault.during}`;
  }
}
