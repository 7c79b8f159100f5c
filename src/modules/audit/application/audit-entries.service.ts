import { Injectable } from '@nestjs/common';
import type { AuditActor, AuditEntry, AuditFilters, AuditTarget } from '../domain/audit-entry.js';
import { AuditLog } from './audit-log.js';

export interface AuditEntryView {
  id: string;
  at: string;
  actor: AuditActor;
  action: string;
  target: AuditTarget;
  address: string | null;
  summary: Record<string, unknown>;
}

/**
 * A cursor is the position of the newest entry a reader has seen (base64url of its id, opaque to
 * clients): the first page reads the newest entries, later ones what was recorded since.
 */
export function auditCursor(id: string): string {
  return Buffer.from(`a${id}`, 'latin1').toString('base64url');
}

/** The entry id a cursor stands for; undefined for anything that is not one of ours. */
export function parseAuditCursor(cursor: string): string | undefined {
  if (cursor.length > 40 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  return /^a(0|[1-9][0-9]{0,17})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'))?.[1];
}

@Injectable()
export class AuditEntriesService {
  constructor(private readonly log: AuditLog) {}

  /**
   * Without `afterId`, the newest entries, newest first; after a cursor, the entries recorded
   * since, oldest first. `next_cursor` is the newest entry read (the cursor given when there was none).
   */
  async list(organizationId: number, afterId: string | undefined, filters: AuditFilters, limit: number): Promise<{ entries: AuditEntryView[]; next_cursor: string }> {
    const entries = afterId === undefined ? await this.log.newest(organizationId, filters, limit) : await this.log.after(organizationId, afterId, filters, limit);
    const newest = afterId === undefined ? entries[0] : entries.at(-1);
    return { entries: entries.map(toView), next_cursor: auditCursor(newest?.id ?? afterId ?? '0') };
  }
}

function toView(entry: AuditEntry): AuditEntryView {
  return { id: entry.id, at: entry.at.toISOString(), actor: entry.actor, action: entry.action, target: entry.target, address: entry.address, summary: entry.summary };
}
