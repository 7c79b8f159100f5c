import type { Transaction } from '../../../shared/database/transaction.js';
import type { CalendarSettings } from '../domain/business-calendar.js';
import type { SlaPolicySettings } from '../domain/sla-policy.js';

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
