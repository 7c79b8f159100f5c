import type { Transaction } from '../../../shared/database/transaction.js';
import type { AuditedChange } from '../domain/audit-entry.js';

/** Repeats of one event within this long of its first are counted in that entry, not written again. */
export const REPEATED_EVENT_WINDOW_MS = 3_600_000;

/**
 * The audit log as the modules that make changes see it: each records its change in the
 * transaction that makes it, so an entry exists exactly when the change committed. Bound in
 * AuditModule (global), implemented in the audit module's infrastructure.
 */
export abstract class AuditTrail {
  abstract record(tx: Transaction, change: AuditedChange): Promise<void>;

  /**
   * Records an event anyone may cause over and over (a failed sign-in): the same event (actor,
   * action, target and summary) within REPEATED_EVENT_WINDOW_MS of an entry for it adds one to
   * that entry's `summary.count` instead of a row, so a flood grows the log by a row an hour.
   */
  abstract recordRepeated(tx: Transaction, change: AuditedChange): Promise<void>;
}
