import { Injectable } from '@nestjs/common';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { firstRowOf, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CaseViewStore } from '../application/case-view-store.js';
import type { CaseView, CaseViewChange, CaseViewDraft } from '../domain/case-view.js';

const COLUMNS = 'organization_id, id, owner_id, name, filters, columns, shared, created_at, updated_at';
const VIEW_ROW = {
  organization_id: column.int8,
  id: column.int8,
  owner_id: column.nullable(column.int8),
  name: column.text,
  filters: column.jsonb<Record<string, string>>(),
  columns: column.textArray,
  shared: column.bool,
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
};

const INSERT_VIEW = statement(
  `INSERT INTO case_views (organization_id, owner_id, name, filters, columns, shared) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
  VIEW_ROW,
);
const VISIBLE_VIEWS = statement(`SELECT ${COLUMNS} FROM case_views WHERE organization_id = $1 AND (shared OR owner_id = $2) ORDER BY id`, VIEW_ROW);
const LOCK_VIEW = statement(`SELECT ${COLUMNS} FROM case_views WHERE organization_id = $1 AND id = $2 FOR UPDATE`, VIEW_ROW);
const UPDATE_VIEW = statement(
  `UPDATE case_views SET name = coalesce($3, name), filters = coalesce($4::jsonb, filters), columns = coalesce($5::text[], columns),
     shared = coalesce($6, shared), updated_at = now()
   WHERE organization_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
  VIEW_ROW,
);
const DELETE_VIEW = statement('DELETE FROM case_views WHERE organization_id = $1 AND id = $2');
const LOCK_ORGANIZATION_VIEWS = statement(`SELECT pg_advisory_xact_lock(hashtextextended('case-views:' || $1::text, 0))`, { pg_advisory_xact_lock: column.void });
const COUNT_VIEWS = statement(
  'SELECT count(*) FILTER (WHERE owner_id = $2)::int AS own, count(*) FILTER (WHERE shared)::int AS shared FROM case_views WHERE organization_id = $1',
  { own: column.int4, shared: column.int4 },
);

@Injectable()
export class PostgresCaseViewStore extends CaseViewStore {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async create(tx: Transaction, d: CaseViewDraft): Promise<CaseView> {
    const row = await firstRowOf(entityManager(tx), INSERT_VIEW, [d.organizationId, d.ownerId, d.name, JSON.stringify(d.filters), d.columns, d.shared]);
    return toView(row!);
  }

  async visible(organizationId: number, ownerId: number | null): Promise<CaseView[]> {
    return (await rowsOf(this.db, VISIBLE_VIEWS, [organizationId, ownerId])).map(toView);
  }

  async find(tx: Transaction, organizationId: number, id: number): Promise<CaseView | null> {
    const row = await firstRowOf(entityManager(tx), LOCK_VIEW, [organizationId, id]);
    return row ? toView(row) : null;
  }

  async update(tx: Transaction, organizationId: number, id: number, c: CaseViewChange): Promise<CaseView> {
    const row = await firstRowOf(entityManager(tx), UPDATE_VIEW, [
      organizationId,
      id,
      c.name ?? null,
      c.filters === undefined ? null : JSON.stringify(c.filters),
      c.columns ?? null,
      c.shared ?? null,
    ]);
    return toView(row!);
  }

  async delete(tx: Transaction, organizationId: number, id: number): Promise<void> {
    await rowsOf(entityManager(tx), DELETE_VIEW, [organizationId, id]);
  }

  async counts(tx: Transaction, organizationId: number, ownerId: number | null): Promise<{ own: number; shared: number }> {
    // Serializes the organization's creations, so two at once cannot both pass a cap.
    await rowsOf(entityManager(tx), LOCK_ORGANIZATION_VIEWS, [organizationId]);
    return (await firstRowOf(entityManager(tx), COUNT_VIEWS, [organizationId, ownerId]))!;
  }
}

function toView(row: RowOf<typeof VIEW_ROW>): CaseView {
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
