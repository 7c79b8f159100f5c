import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { CaseLinkStore } from '../application/case-link-store.js';
import type { CaseLink, LinkType } from '../domain/case-link.js';
import { column, type RowOf } from '../../../shared/database/typed-statement.js';
import { prepared, rowsIn, statement } from './persistence.js';

const LINK_COLUMNS = 'id, case_id, other_case_id, type, created_at';
const LINK_ROW = { id: column.int8, case_id: column.int8, other_case_id: column.int8, type: column.textOf<LinkType>(), created_at: column.timestamptz };

/** By case_links_pair. */
const BETWEEN = statement(
  `
  SELECT ${LINK_COLUMNS} FROM case_links
  WHERE organization_id = $1 AND least(case_id, other_case_id) = least($2::bigint, $3::bigint)
    AND greatest(case_id, other_case_id) = greatest($2::bigint, $3::bigint) AND type = $4`,
  LINK_ROW,
);

/** Each case's links both ways, by case_links_case and case_links_other_case. */
const COUNTS = statement(
  `
  SELECT c.id, (SELECT count(*) FROM case_links l WHERE l.organization_id = $1 AND l.case_id = c.id)
             + (SELECT count(*) FROM case_links l WHERE l.organization_id = $1 AND l.other_case_id = c.id) AS links
  FROM unnest($2::bigint[]) AS c(id)`,
  { id: column.int8, links: column.int8 },
);

const INSERT = statement(
  `
  INSERT INTO case_links (organization_id, case_id, other_case_id, type) VALUES ($1, $2, $3, $4) RETURNING ${LINK_COLUMNS}`,
  LINK_ROW,
);

const FIND = statement(`SELECT ${LINK_COLUMNS} FROM case_links WHERE organization_id = $1 AND id = $2`, LINK_ROW);

const DELETE = statement(`DELETE FROM case_links WHERE organization_id = $1 AND id = $2 RETURNING ${LINK_COLUMNS}`, LINK_ROW);

const OF_CASE = statement(
  `
  SELECT ${LINK_COLUMNS} FROM case_links WHERE organization_id = $1 AND case_id = $2
  UNION ALL
  SELECT ${LINK_COLUMNS} FROM case_links WHERE organization_id = $1 AND other_case_id = $2
  ORDER BY id`,
  LINK_ROW,
);

/** The retention purge: the links of the closed cases it deletes, both ways. */
export const PURGE_LINKS = statement(
  `WITH gone AS (
     DELETE FROM case_links WHERE organization_id = $1 AND (case_id = ANY($2::bigint[]) OR other_case_id = ANY($2::bigint[])) RETURNING 1
   )
   SELECT count(*)::int AS purged FROM gone`,
  { purged: column.int4 },
);

function toLink(row: RowOf<typeof LINK_ROW>): CaseLink {
  return { id: Number(row.id), caseId: Number(row.case_id), otherCaseId: Number(row.other_case_id), type: row.type, createdAt: row.created_at };
}

@Injectable()
export class PostgresCaseLinkStore extends CaseLinkStore {
  private readonly prepared: ReturnType<typeof prepared>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    super();
    this.prepared = prepared(dataSource);
  }

  async between(tx: Transaction, organizationId: number, caseId: number, otherCaseId: number, type: LinkType): Promise<CaseLink | null> {
    const [row] = await rowsIn(tx, BETWEEN, [organizationId, caseId, otherCaseId, type]);
    return row ? toLink(row) : null;
  }

  async counts(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await rowsIn(tx, COUNTS, [organizationId, caseIds]);
    return new Map(rows.map((row) => [Number(row.id), Number(row.links)]));
  }

  async insert(tx: Transaction, organizationId: number, link: Omit<CaseLink, 'id' | 'createdAt'>): Promise<CaseLink> {
    const [row] = await rowsIn(tx, INSERT, [organizationId, link.caseId, link.otherCaseId, link.type]);
    return toLink(row!);
  }

  async find(organizationId: number, linkId: number): Promise<CaseLink | null> {
    const [row] = await this.prepared.rows(FIND, [organizationId, linkId]);
    return row ? toLink(row) : null;
  }

  async delete(tx: Transaction, organizationId: number, linkId: number): Promise<CaseLink | null> {
    const [row] = await rowsIn(tx, DELETE, [organizationId, linkId]);
    return row ? toLink(row) : null;
  }

  async of(organizationId: number, caseId: number): Promise<CaseLink[]> {
    return (await this.prepared.rows(OF_CASE, [organizationId, caseId])).map(toLink);
  }
}
