import type { RunState } from './run.js';

/** What a worker needs to execute a run without looking anything up first (a queue job's data). */
export interface RunRef {
  runId: number;
  caseId: number;
  workflowId: number;
  workflowVersion: number;
}

/** A run the relay hands to the queue, with what its job's id is made from. */
export interface DueRun extends RunRef {
  state: RunState;
  attempts: number;
  resumeAt: Date | null;
}

/**
 * Runs as the engine's relay and a worker's lease see them. What runs do is stored with their
 * case (CaseRepository); this port only hands them to the queue and keeps them held.
 */
export abstract class RunQueue {
  /** Keeps the run while a long step (an HTTP call) is under way. */
  abstract renewLease(runId: number, leaseMs: number): Promise<void>;
  /** Marks up to `limit` new runs as enqueued and returns them, oldest first; relays running at once take different runs. */
  abstract takeNew(limit: number): Promise<DueRun[]>;
  /** The same for runs whose worker's lease ran out. */
  abstract takeExpired(limit: number): Promise<DueRun[]>;
  /** The same for runs enqueued more than `graceMs` ago that still have not run (job lost, worker dead, resumption overdue). */
  abstract takeStale(limit: number, graceMs: number): Promise<DueRun[]>;
  /** The queue refused the runs: they are due again at once rather than after the grace period. */
  abstract untake(ids: number[]): Promise<void>;
  /** Seconds since the oldest run not yet started was created; 0 when none waits (the queue lag). */
  abstract oldestPendingAgeSeconds(): Promise<number>;
}
