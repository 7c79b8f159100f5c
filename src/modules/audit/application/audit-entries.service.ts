import { Injectable } from '@nestjs/common';
import type { AuditActor, AuditEntry, AuditFilters, AuditPosition, AuditTarget } from '../domain/audit-entry.js';
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

const MAX_XID8 = 2n ** 64n - 1n;
const MAX_BIGINT = 2n ** 63n - 1n;
const START: AuditPosition = { xid: '0', id: '0' };
/** What a cursor looks like: base64url of `b<xid>.<id>`, at most 20 and 19 digits (56 characters). */
export const AUDIT_CURSOR_TEXT = /^[A-Za-z0-9_-]{1,56}$/;

/**
 * A cursor is the position of the newest entry a reader has seen (base64url, opaque to clients):
 * the first page reads the newest entries, later ones what was recorded since.
 */
export function auditCursor(position: AuditPosition): string {
  return Buffer.from(`b${position.xid}.${position.id}`, 'latin1').toString('base64url');
}

/** The position a cursor stands for; undefined for anything that is not one of ours. */
export function parseAuditCursor(cursor: string): AuditPosition | undefined {
  if (!AUDIT_CURSOR_TEXT.test(cursor)) return undefined;
  const parts = /^b(0|[1-9][0-9]{0,19})\.(0|[1-9][0-9]{0,18})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!parts || BigInt(parts[1]!) > MAX_XID8 || BigInt(parts[2]!) > MAX_BIGINT) return undefined;
  return { xid: parts[1]!, id: parts[2]! };
}

@Injectable()
export class AuditEntriesService {
  constructor(private readonly log: AuditLog) {}

  /**
   * Without `after`, the newest entries, newest first; after a cursor, the entries recorded
   * since, oldest first. `next_cursor` is the newest entry read (the cursor given when there was none).
   */
  async list(organizationId: number, after: AuditPosition | undefined, filters: AuditFilters, limit: number): Promise<{ entries: AuditEntryView[]; next_cursor: string }> {
    const entries = after === undefined ? await this.log.newest(organizationId, filters, limit) : await this.log.after(organizationId, after, filters, limit);
    const newest = after === undefined ? entries[0] : entries.at(-1);
    return { entries: entries.map(toView), next_cursor: auditCursor(newest?.position ?? after ?? START) };
  }
}

function toView(entry: AuditEntry): AuditEntryView {
  return { id: entry.id, at: entry.at.toISOString(), actor: entry.actor, action: entry.action, target: entry.target, address: entry.address, summary: entry.summary };
}
