import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PreparedStatements } from '../../../shared/database/prepared-statements.js';
import type { Transaction } from '../../../shared/database/transaction.js';
import { CaseLinkStore } from '../application/case-link-store.js';
import type { CaseLink, LinkType } from '../domain/case-link.js';
import { column, statement } from '../../../shared/database/typed-statement.js';

const LINK_COLUMNS = 'id, case_id, other_case_id, type, created_at';

/** By case_links_pair. */
const BETWEEN_SQL = `
  SELECT ${LINK_COLUMNS} FROM case_links
  WHERE organization_id = $1 AND least(case_id, other_case_id) = least($2::bigint, $3::bigint)
    AND greatest(case_id, other_case_id) = greatest($2::bigint, $3::bigint) AND type = $4`;

/** Each case's links both ways, by case_links_case and case_links_other_case. */
const COUNTS_SQL = `
  SELECT c.id, (SELECT count(*) FROM case_links l WHERE l.organization_id = $1 AND l.case_id = c.id)
             + (SELECT count(*) FROM case_links l WHERE l.organization_id = $1 AND l.other_case_id = c.id) AS links
  FROM unnest($2::bigint[]) AS c(id)`;

const INSERT_SQL = `
  INSERT INTO case_links (organization_id, case_id, other_case_id, type) VALUES ($1, $2, $3, $4) RETURNING ${LINK_COLUMNS}`;

const FIND_SQL = `SELECT ${LINK_COLUMNS} FROM case_links WHERE organization_id = $1 AND id = $2`;

const DELETE_SQL = `DELETE FROM case_links WHERE organization_id = $1 AND id = $2 RETURNING ${LINK_COLUMNS}`;

const OF_CASE_SQL = `
  SELECT ${LINK_COLUMNS} FROM case_links WHERE organization_id = $1 AND case_id = $2
  UNION ALL
  SELECT ${LINK_COLUMNS} FROM case_links WHERE organization_id = $1 AND other_case_id = $2
  ORDER BY id`;

/** The retention purge: the links of the closed cases it deletes, both ways. */
export const PURGE_LINKS = statement(
  `WITH gone AS (
     DELETE FROM case_links WHERE organization_id = $1 AND (case_id = ANY($2::bigint[]) OR other_case_id = ANY($2::bigint[])) RETURNING 1
   )
   SELECT count(*)::int AS purged FROM gone`,
  { purged: column.int4 },
);

type LinkRow = { id: string; case_id: string; other_case_id: string; type: LinkType; created_at: Date };

function toLink(row: LinkRow): CaseLink {
  return { id: Number(row.id), caseId: Number(row.case_id), otherCaseId: Number(row.other_case_id), type: row.type, createdAt: row.created_at };
}

@Injectable()
export class PostgresCaseLinkStore extends CaseLinkStore {
  private readonly prepared: PreparedStatements;

  constructor(@InjectDataSource() dataSource: DataSource) {
    super();
    this.prepared = new PreparedStatements(dataSource);
  }

  async between(tx: Transaction, organizationId: number, caseId: number, otherCaseId: number, type: LinkType): Promise<CaseLink | null> {
    const [row] = await PreparedStatements.rowsIn<LinkRow>(tx, BETWEEN_SQL, [organizationId, caseId, otherCaseId, type]);
    return row ? toLink(row) : null;
  }

  async counts(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await PreparedStatements.rowsIn<{ id: string; links: string }>(tx, COUNTS_SQL, [organizationId, caseIds]);
    return new Map(rows.map((row) => [Number(row.id), Number(row.links)]));
  }

  async insert(tx: Transaction, organizationId: number, link: Omit<CaseLink, 'id' | 'createdAt'>): Promise<CaseLink> {
    const [row] = await PreparedStatements.rowsIn<LinkRow>(tx, INSERT_SQL, [organizationId, link.caseId, link.otherCaseId, link.type]);
    return toLink(row!);
  }

  async find(organizationId: number, linkId: number): Promise<CaseLink | null> {
    const [row] = await this.prepared.rows<LinkRow>(FIND_SQL, [organizationId, linkId]);
    return row ? toLink(row) : null;
  }

  async delete(tx: Transaction, organizationId: number, linkId: number): Promise<CaseLink | null> {
    const [row] = await PreparedStatements.rowsIn<LinkRow>(tx, DELETE_SQL, [organizationId, linkId]);
    return row ? toLink(row) : null;
  }

  async of(organizationId: number, caseId: number): Promise<CaseLink[]> {
    return (await this.prepared.rows<LinkRow>(OF_CASE_SQL, [organizationId, caseId])).map(toLink);
  }
}
