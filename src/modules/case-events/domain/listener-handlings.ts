import type { CaseEvent } from '../../../extension-api/case-events.js';

/** One event for one listener, as stored by the statement of its change. */
export interface HandlingRef {
  organizationId: number;
  id: number;
}

/** A handling taken for one attempt, under a lease. */
export interface ClaimedHandling extends HandlingRef {
  listener: string;
  event: CaseEvent;
}

/**
 * How many times a listener is given one event before it is failed for good: with the queue's
 * backoff (1 s, doubling) the last attempt comes about 8.5 minutes after the first.
 */
export const MAX_HANDLING_ATTEMPTS = 10;

/** What the dispatcher needs of the handlings' store. */
export abstract class ListenerHandlings {
  /**
   * Takes the handling for one more attempt with a lease of `leaseMs`, when it is pending, not
   * held, and its listener is one of `listeners` (those this process runs); null otherwise.
   */
  abstract claim(ref: HandlingRef, leaseMs: number, listeners: readonly string[]): Promise<ClaimedHandling | null>;
  abstract renewLease(handling: ClaimedHandling, leaseMs: number): Promise<void>;
  /** The handling is done and forgotten. */
  abstract recordHandled(handling: ClaimedHandling): Promise<void>;
  /** Keeps the error; the handling stays pending for the next attempt unless `forGood`. */
  abstract recordFailure(handling: ClaimedHandling, error: string, forGood: boolean): Promise<void>;
}

/** Where a listener's failures show besides the log. */
export abstract class ListenerMetrics {
  abstract handled(listener: string): void;
  abstract failedForGood(listener: string): void;
}
