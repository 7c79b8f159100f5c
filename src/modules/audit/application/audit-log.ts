import type { AuditEntry, AuditFilters, AuditPosition } from '../domain/audit-entry.js';

/**
 * Reads of the audit log, bound to the module's infrastructure; entries are never changed or
 * deleted but by retention. Both reads see only entries whose position no running transaction
 * can still precede, so nothing ever lands behind a position a reader was given.
 */
export abstract class AuditLog {
  /** The organization's newest `limit` matching entries, newest first. */
  abstract newest(organizationId: number, filters: AuditFilters, limit: number): Promise<AuditEntry[]>;
  /** The organization's matching entries after `position`, oldest first. */
  abstract after(organizationId: number, position: AuditPosition, filters: AuditFilters, limit: number): Promise<AuditEntry[]>;
}
