import type { AuditEntry, AuditFilters } from '../domain/audit-entry.js';

/** Reads of the audit log, bound to the module's infrastructure; entries are never changed or deleted but by retention. */
export abstract class AuditLog {
  /** The organization's newest `limit` matching entries, newest first. */
  abstract newest(organizationId: number, filters: AuditFilters, limit: number): Promise<AuditEntry[]>;
  /** The organization's matching entries after the one with id `afterId`, oldest first. */
  abstract after(organizationId: number, afterId: string, filters: AuditFilters, limit: number): Promise<AuditEntry[]>;
}
