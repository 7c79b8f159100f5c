import { DiscoveryService } from '@nestjs/core';

/**
 * The events a listener may ask for: the same names subscriptions use. `case.status_changed`
 * is every move; entering Closed, leaving it and being parked in Error are also told as such.
 */
export const CASE_EVENT_TYPES = ['case.created', 'case.status_changed', 'case.closed', 'case.reopened', 'case.errored', 'case.email_received', 'case.assigned', 'case.commented', 'case.sla_warning', 'case.sla_breached'] as const;
export type CaseEventType = (typeof CASE_EVENT_TYPES)[number];

/** The case as it was right after the change, as the cases API shows it. */
export interface CaseEventCase {
  id: number;
  workflow_id: number;
  subject: string;
  status: string;
  outcome: string | null;
  mode: 'live';
  attributes: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** One event as a listener receives it: plain data, the same on every delivery of it. */
export interface CaseEvent {
  /** Stable across deliveries of this event to this listener: drop a repeat by it. */
  id: string;
  type: CaseEventType;
  organization_id: number;
  workflow_id: number;
  case_id: number;
  /** `from` is null for `case.created`; a change without a move has `from` equal to `to`. */
  status: { from: string | null; to: string };
  /** When the change committed's transaction made it (ISO 8601, UTC). */
  occurred_at: string;
  /** 1 on the first delivery, more when an earlier one threw or its worker died. */
  attempt: number;
  case: CaseEventCase;
}

/**
 * What a `@CaseEventListener()` provider implements. `handle` runs in a worker after the change
 * committed, at least once per event: a throw (or a worker dying) delivers the event again with
 * backoff, up to a bounded number of attempts. Events of one case reach one listener in order.
 */
export interface CaseEventHandler {
  /** Unique among all listeners, built-in and extensions'; kept in the database with the events waiting for it. */
  readonly name: string;
  readonly events: readonly CaseEventType[];
  handle(event: CaseEvent): Promise<void>;
}

/** Marks a provider implementing CaseEventHandler as a listener: `@CaseEventListener() @Injectable() class ...`. */
export const CaseEventListener = DiscoveryService.createDecorator();
