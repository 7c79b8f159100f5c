import type { Transaction } from '../../../shared/database/transaction.js';
import type { CalendarSettings } from '../domain/business-calendar.js';
import type { SlaPolicySettings } from '../domain/sla-policy.js';
import type { TimerSpec } from '../domain/sla-timers.js';

export interface StoredCalendar {
  name: string;
  settings: CalendarSettings;
  createdAt: Date;
  updatedAt: Date;
}

export interface StoredSlaPolicy {
  workflowId: number;
  settings: SlaPolicySettings;
  /** When the workflow's policy was first set: it applies to cases created since. */
  createdAt: Date;
  updatedAt: Date;
}

/** `business_calendars`, bound to the module's infrastructure. */
export abstract class CalendarStore {
  /** Creates or replaces a calendar; `before` is the replaced one's settings. */
  abstract put(tx: Transaction, organizationId: number, name: string, settings: CalendarSettings): Promise<StoredCalendar & { before: CalendarSettings | null }>;
  abstract list(organizationId: number): Promise<StoredCalendar[]>;
  abstract find(organizationId: number, name: string): Promise<StoredCalendar | undefined>;
  /**
   * Locks the calendar for the rest of the transaction: `exclusive` before deleting it, shared
   * (no delete meanwhile) before a policy names it. Whether it exists.
   */
  abstract lock(tx: Transaction, organizationId: number, name: string, exclusive: boolean): Promise<boolean>;
  abstract delete(tx: Transaction, organizationId: number, name: string): Promise<void>;
}

/** `sla_policies`, bound to the module's infrastructure. */
export abstract class SlaPolicyStore {
  /** Creates or replaces a workflow's policy; `before` is the replaced one's settings. */
  abstract put(tx: Transaction, organizationId: number, workflowId: number, settings: SlaPolicySettings): Promise<StoredSlaPolicy & { before: SlaPolicySettings | null }>;
  abstract find(organizationId: number, workflowId: number): Promise<StoredSlaPolicy | undefined>;
  /** Whether there was one to delete. */
  abstract delete(tx: Transaction, organizationId: number, workflowId: number): Promise<boolean>;
  /** The workflows whose policy names the calendar, as of the transaction (the calendar locked first). */
  abstract workflowsUsing(tx: Transaction, organizationId: number, calendarName: string): Promise<number[]>;
}

/** A policy with its calendar, and where the sweep left its workflow's change feed. */
export interface PolicyInForce {
  policy: StoredSlaPolicy;
  calendar: CalendarSettings;
  /** Where the last pass left the workflow's change feed; null: from the start. */
  feedCursor: string | null;
}

/** `sla_policies` with their calendars, as the clocks read them and the worker's sweep moves them on. */
export abstract class SlaSweepStore {
  /** Every policy of every organization, as `organizationId:workflowId` pairs. */
  abstract policies(): Promise<{ organizationId: number; workflowId: number }[]>;
  /** The organization's workflows that have a policy, in id order. */
  abstract workflowsWithPolicies(organizationId: number): Promise<number[]>;
  /** The policy with its calendar and its place in the feed; undefined when it is gone. */
  abstract inForce(organizationId: number, workflowId: number): Promise<PolicyInForce | undefined>;
  /**
   * Locks the policy for the rest of the transaction if it is still as `read` was (same
   * settings, same place in the feed) and no other sweep holds it: whether it did.
   */
  abstract claim(tx: Transaction, organizationId: number, read: PolicyInForce): Promise<boolean>;
  abstract saveFeedCursor(tx: Transaction, organizationId: number, workflowId: number, cursor: string): Promise<void>;
}

/** A timer fired: which, and when it fired (its lateness is `firedAt - fireAt`). */
export interface FiredTimer extends TimerSpec {
  organizationId: number;
  workflowId: number;
  caseId: number;
  firedAt: Date;
}

/** `sla_timers`, bound to the module's infrastructure. */
export abstract class SlaTimerStore {
  /** Makes the case's unfired timers exactly `timers`; fired ones stay (each fires once per period). */
  abstract replace(tx: Transaction, organizationId: number, workflowId: number, caseId: number, timers: readonly TimerSpec[]): Promise<void>;
  /**
   * Marks at most `limit` unfired timers due at `now` fired and answers them, skipping those
   * another transaction holds: the caller acts on them in the same transaction.
   */
  abstract fireDue(tx: Transaction, now: Date, limit: number): Promise<FiredTimer[]>;
}
