import type { Transaction } from '../../../shared/database/transaction.js';
import type { AuditedChange } from '../domain/audit-entry.js';

/**
 * The audit log as the modules that make changes see it: each records its change in the
 * transaction that makes it, so an entry exists exactly when the change committed. Bound in
 * AuditModule (global), implemented in the audit module's infrastructure.
 */
export abstract class AuditTrail {
  abstract record(tx: Transaction, change: AuditedChange): Promise<void>;
}
