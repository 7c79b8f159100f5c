import { Inject, Injectable } from '@nestjs/common';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { keepLease } from '../../../shared/queue/lease.js';
import { type HandlingRef, ListenerHandlings, ListenerMetrics, MAX_HANDLING_ATTEMPTS } from '../domain/listener-handlings.js';
import { CaseEventListenerRegistry } from './case-event-listener.registry.js';

/** How long a worker holds a handling without renewing it; a dead worker's handling is taken over after this. */
const LEASE_MS = 6_000;
/** Kept of a listener's error message, so one listener cannot fill the table. */
const ERROR_LIMIT = 1_000;

export class ListenerFailed extends Error {}

/**
 * Gives one stored event to its listener. A listener that throws only fails its own handling:
 * the error is kept and the queue tries again with backoff, until the last attempt, after which
 * the handling is failed for good (logged and counted). Subscriptions and other listeners have
 * rows and jobs of their own, so they never wait on it.
 */
@Injectable()
export class CaseEventDispatcher {
  constructor(
    private readonly handlings: ListenerHandlings,
    private readonly listeners: CaseEventListenerRegistry,
    private readonly metrics: ListenerMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Throws ListenerFailed when the queue should try again. */
  async dispatch(ref: HandlingRef): Promise<void> {
    const handling = await this.handlings.claim(ref, LEASE_MS, this.listeners.names());
    if (!handling) return;
    const listener = this.listeners.get(handling.listener)!;
    const releaseLease = keepLease(() => this.handlings.renewLease(handling, LEASE_MS), LEASE_MS);
    let error: string | undefined;
    try {
      await listener.handle(handling.event);
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, ERROR_LIMIT);
    } finally {
      releaseLease();
    }
    if (error === undefined) {
      await this.handlings.recordHandled(handling);
      this.metrics.handled(handling.listener);
      return;
    }
    const forGood = handling.event.attempt >= MAX_HANDLING_ATTEMPTS;
    await this.handlings.recordFailure(handling, error, forGood);
    const context = { listener: handling.listener, event: handling.event.id, type: handling.event.type, case_id: handling.event.case_id, attempt: handling.event.attempt, error };
    if (!forGood) {
      this.logger.warn(context, 'case-event listener threw; the event is given to it again after a backoff');
      throw new ListenerFailed(`case-event listener "${handling.listener}" threw: ${error}`);
    }
    this.metrics.failedForGood(handling.listener);
    this.logger.error(context, 'case-event listener failed its last attempt; the event is given up');
  }
}
