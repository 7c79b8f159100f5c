import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CaseViewStore } from '../application/case-view-store.js';
import type { CaseView, CaseViewChange, CaseViewDraft } from '../domain/case-view.js';

interface ViewRow {
  organization_id: string;
  id: string;
  owner_id: string | null;
  name: string;
  filters: Record<string, string>;
  columns: string[];
  shared: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'organization_id, id, owner_id, name, filters, columns, shared, created_at, updated_at';

@Injectable()
export class PostgresCaseViewStore extends CaseViewStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async create(tx: Transaction, d: CaseViewDraft): Promise<CaseView> {
    const rows = (await entityManager(tx).query(
      `INSERT INTO case_views (organization_id, owner_id, name, filters, columns, shared) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [d.organizationId, d.ownerId, d.name, JSON.stringify(d.filters), d.columns, d.shared],
    )) as ViewRow[];
    return toView(rows[0]!);
  }

  async visible(organizationId: number, ownerId: number | null): Promise<CaseView[]> {
    const rows = (await this.db.query(
      `SELECT ${COLUMNS} FROM case_views WHERE organization_id = $1 AND (shared OR owner_id = $2) ORDER BY id`,
      [organizationId, ownerId],
    )) as ViewRow[];
    return rows.map(toView);
  }

  async find(tx: Transaction, organizationId: number, id: number): Promise<CaseView | null> {
    const rows = (await entityManager(tx).query(`SELECT ${COLUMNS} FROM case_views WHERE organization_id = $1 AND id = $2 FOR UPDATE`, [organizationId, id])) as ViewRow[];
    return rows[0] ? toView(rows[0]) : null;
  }

  async update(tx: Transaction, organizationId: number, id: number, c: CaseViewChange): Promise<CaseView> {
    const rows = (await entityManager(tx).query(
      `UPDATE case_views SET name = coalesce($3, name), filters = coalesce($4::jsonb, filters), columns = coalesce($5::text[], columns),
         shared = coalesce($6, shared), updated_at = now()
       WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [organizationId, id, c.name ?? null, c.filters === undefined ? null : JSON.stringify(c.filters), c.columns ?? null, c.shared ?? null],
    )) as [ViewRow[], number];
    return toView(rows[0][0]!);
  }

  async delete(tx: Transaction, organizationId: number, id: number): Promise<void> {
    await entityManager(tx).query('DELETE FROM case_views WHERE organization_id = $1 AND id = $2', [organizationId, id]);
  }

  async counts(tx: Transaction, organizationId: number, ownerId: number | null): Promise<{ own: number; shared: number }> {
    // Serializes the organization's creations, so two at once cannot both pass a cap.
    await entityManager(tx).query(`SELECT pg_advisory_xact_lock(hashtextextended('case-views:' || $1::text, 0))`, [organizationId]);
    const rows = (await entityManager(tx).query(
      'SELECT count(*) FILTER (WHERE owner_id = $2)::int AS own, count(*) FILTER (WHERE shared)::int AS shared FROM case_views WHERE organization_id = $1',
      [organizationId, ownerId],
    )) as { own: number; shared: number }[];
    return rows[0]!;
  }
}

function toView(row: ViewRow): CaseView {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    ownerId: row.owner_id === null ? null : Number(row.owner_id),
    name: row.name,
    filters: row.filters,
    columns: row.columns,
    shared: row.shared,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
