import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AuditLog } from '../application/audit-log.js';
import type { AuditActor, AuditEntry, AuditFilters, AuditPosition } from '../domain/audit-entry.js';

type EntryRow = {
  id: string;
  xid: string;
  at: Date;
  actor_type: AuditActor['type'];
  actor_id: string;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  address: string | null;
  summary: Record<string, unknown>;
};

const COLUMNS = 'id, xid::text AS xid, at, actor_type, actor_id, actor_name, action, target_type, target_id, address, summary';

/** Entries of transactions older than every running one: no later commit can sort before them. */
const FINISHED = 'xid < pg_snapshot_xmin(pg_current_snapshot())';

/** `audit_entries`, read by organization in commit order (`audit_entries_commit_order`). */
@Injectable()
export class PostgresAuditLog extends AuditLog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  newest(organizationId: number, filters: AuditFilters, limit: number): Promise<AuditEntry[]> {
    const { sql, params } = conditions(filters, [organizationId, limit]);
    return this.read(`SELECT ${COLUMNS} FROM audit_entries WHERE organization_id = $1 AND ${FINISHED}${sql} ORDER BY xid DESC, id DESC LIMIT $2`, params);
  }

  after(organizationId: number, position: AuditPosition, filters: AuditFilters, limit: number): Promise<AuditEntry[]> {
    const { sql, params } = conditions(filters, [organizationId, limit, position.xid, position.id]);
    return this.read(`SELECT ${COLUMNS} FROM audit_entries WHERE organization_id = $1 AND (xid, id) > ($3::xid8, $4::bigint) AND ${FINISHED}${sql} ORDER BY xid, id LIMIT $2`, params);
  }

  private async read(sql: string, params: unknown[]): Promise<AuditEntry[]> {
    const rows = (await this.dataSource.query(sql, params)) as EntryRow[];
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

/** The filters as `AND ...` conditions on parameters numbered after `params`. */
function conditions(filters: AuditFilters, params: unknown[]): { sql: string; params: unknown[] } {
  let sql = '';
  const add = (column: string, value: string) => {
    params.push(value);
    sql += ` AND ${column} = $${params.length}`;
  };
  if (filters.actor) {
    add('actor_type', filters.actor.type);
    add('actor_id', filters.actor.id);
  }
  if (filters.action) add('action', filters.action);
  if (filters.target) {
    add('target_type', filters.target.type);
    if (filters.target.id !== undefined) add('target_id', filters.target.id);
  }
  return { sql, params };
}
