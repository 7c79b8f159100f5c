import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AuditLog } from '../application/audit-log.js';
import type { AuditActor, AuditEntry, AuditFilters } from '../domain/audit-entry.js';

type EntryRow = {
  id: string;
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

const COLUMNS = 'id, at, actor_type, actor_id, actor_name, action, target_type, target_id, address, summary';

/** `audit_entries`, read by organization in id order (the primary key). */
@Injectable()
export class PostgresAuditLog extends AuditLog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
  }

  newest(organizationId: number, filters: AuditFilters, limit: number): Promise<AuditEntry[]> {
    const { sql, params } = conditions(filters, [organizationId, limit]);
    return this.read(`SELECT ${COLUMNS} FROM audit_entries WHERE organization_id = $1${sql} ORDER BY id DESC LIMIT $2`, params);
  }

  after(organizationId: number, afterId: string, filters: AuditFilters, limit: number): Promise<AuditEntry[]> {
    const { sql, params } = conditions(filters, [organizationId, limit, afterId]);
    return this.read(`SELECT ${COLUMNS} FROM audit_entries WHERE organization_id = $1 AND id > $3${sql} ORDER BY id LIMIT $2`, params);
  }

  private async read(sql: string, params: unknown[]): Promise<AuditEntry[]> {
    const rows = (await this.dataSource.query(sql, params)) as EntryRow[];
    return rows.map((row) => ({
      id: row.id,
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
