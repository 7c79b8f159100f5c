import { Injectable } from '@nestjs/common';
import { ReplicaReads } from '../../../shared/database/replica-reads.js';
import { column, columnsOf } from '../../../shared/database/typed-statement.js';
import { AUDIT_ENTRIES, statementBuilder } from './persistence.js';
import { AuditLog } from '../application/audit-log.js';
import type { AuditEntry, AuditFilters, AuditPosition } from '../domain/audit-entry.js';

const COLUMNS = 'id, xid::text AS xid, at, actor_type, actor_id, actor_name, action, target_type, target_id, address, summary';
const ENTRY_ROW = {
  ...columnsOf(AUDIT_ENTRIES, 'id', 'at', 'actor_type', 'actor_id', 'actor_name', 'action', 'target_type', 'target_id', 'address', 'summary'),
  xid: column.text,
};

/** Entries of transactions older than every running one: no later commit can sort before them. */
const FINISHED = 'xid < pg_snapshot_xmin(pg_current_snapshot())';

/** The filters given, each a column and the value it must equal. */
function filterList(filters: AuditFilters): [column: string, value: string][] {
  const list: [string, string][] = [];
  if (filters.actor) list.push(['actor_type', filters.actor.type], ['actor_id', filters.actor.id]);
  if (filters.action) list.push(['action', filters.action]);
  if (filters.target) {
    list.push(['target_type', filters.target.type]);
    if (filters.target.id !== undefined) list.push(['target_id', filters.target.id]);
  }
  return list;
}

/** The filters as `AND ...` conditions on parameters numbered after the first `taken`. */
function conditions(filters: AuditFilters, taken: number): string {
  return filterList(filters)
    .map(([name], i) => ` AND ${name} = $${taken + i + 1}`)
    .join('');
}

/**
 * The newest entries ($1 the organization, $2 the limit), or with `after` those after the
 * position in $3, $4; the filters' values follow.
 */
const entries = statementBuilder(
  (after: boolean, filters: AuditFilters) =>
    after
      ? `SELECT ${COLUMNS} FROM audit_entries WHERE organization_id = $1 AND (xid, id) > ($3::xid8, $4::bigint) AND ${FINISHED}${conditions(filters, 4)} ORDER BY xid, id LIMIT $2`
      : `SELECT ${COLUMNS} FROM audit_entries WHERE organization_id = $1 AND ${FINISHED}${conditions(filters, 2)} ORDER BY xid DESC, id DESC LIMIT $2`,
  ENTRY_ROW,
  [
    [false, {}],
    [false, { actor: { type: 'user', id: '1' }, action: 'a', target: { type: 't', id: '1' } }],
    [true, { actor: { type: 'user', id: '1' }, action: 'a', target: { type: 't', id: '1' } }],
  ],
);

/** `audit_entries`, read by organization in commit order (`audit_entries_commit_order`). */
@Injectable()
export class PostgresAuditLog extends AuditLog {
  constructor(private readonly replicaReads: ReplicaReads) {
    super();
  }

  newest(organizationId: number, filters: AuditFilters, limit: number): Promise<AuditEntry[]> {
    return this.read(organizationId, false, filters, [limit]);
  }

  after(organizationId: number, position: AuditPosition, filters: AuditFilters, limit: number): Promise<AuditEntry[]> {
    return this.read(organizationId, true, filters, [limit, position.xid, position.id]);
  }

  private async read(organizationId: number, after: boolean, filters: AuditFilters, params: unknown[]): Promise<AuditEntry[]> {
    const rows = await this.replicaReads.rows(organizationId, entries(after, filters), [organizationId, ...params, ...filterList(filters).map(([, value]) => value)]);
    return rows.map((row) => ({
      id: row.id,
      position: { xid: row.xid, id: row.id },
      at: row.at,
      actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
      action: row.action,
      target: { type: row.target_type, id: row.target_id },
      address: row.address,
      summary: row.summary,
    }));
  }
}
