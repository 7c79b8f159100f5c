import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Transaction } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { rowsIn, rowsOf, statement } from './persistence.js';
import { CaseMergeReads, CaseMerges } from '../application/case-merges.js';
import type { MergePointers } from '../domain/case-merge.js';

/**
 * SQL (a subquery, for `IN (...)`) of the cases whose records a case shows: itself and every
 * case merged into it. `organizationId` and `caseId` are SQL expressions (parameters).
 */
export function casesShownOnSql(organizationId: string, caseId: string): string {
  return `SELECT ${caseId}::bigint UNION ALL SELECT merged_case_id FROM case_merges WHERE organization_id = ${organizationId} AND into_case_id = ${caseId}`;
}

const SHOWN_ON = statement(`SELECT id FROM (${casesShownOnSql('$1', '$2')}) AS shown(id)`, { id: column.int8 });

const POINTERS = statement(
  `
  SELECT merged_case_id, into_case_id FROM case_merges WHERE organization_id = $1 AND merged_case_id = ANY($2::bigint[])`,
  { merged_case_id: column.int8, into_case_id: column.int8 },
);

/**
 * $1 organization, $2 the merged case, $3 the target (both locked). The copies: the message
 * the merged case came from (its `email` attribute, when it came by email and still holds one)
 * and its replies, in order; a copy it holds from an earlier merge keeps its `merged_from`.
 * The Message-IDs are moved by case_message_ids_case.
 */
const STORE_MERGE = statement(`
  WITH moved AS (
    UPDATE case_merges SET into_case_id = $3 WHERE organization_id = $1 AND into_case_id = $2
  ), added AS (
    INSERT INTO case_merges (organization_id, merged_case_id, into_case_id) VALUES ($1, $2, $3)
  ), message_ids AS (
    UPDATE case_message_ids SET case_id = $3 WHERE case_id = $2
  ), messages AS (
    SELECT 0 AS n, 'email' AS actor, c.attributes -> 'email' AS data, c.created_at
    FROM cases c WHERE c.id = $2 AND c.source = 'Email' AND jsonb_typeof(c.attributes -> 'email') = 'object'
    UNION ALL
    SELECT e.id, e.actor, e.data, e.created_at FROM case_events e WHERE e.organization_id = $1 AND e.case_id = $2 AND e.type = 'email_received'
  )
  INSERT INTO case_events (organization_id, case_id, type, actor, data)
  SELECT $1, $3, 'email_received', m.actor,
         jsonb_build_object('merged_from', $2::bigint, 'received_at', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) || m.data
  FROM messages m ORDER BY m.n`);

@Injectable()
export class PostgresCaseMerges extends CaseMerges {
  async pointers(tx: Transaction, organizationId: number, caseIds: readonly number[]): Promise<MergePointers> {
    const rows = await rowsIn(tx, POINTERS, [organizationId, caseIds]);
    return new Map(rows.map((row) => [Number(row.merged_case_id), Number(row.into_case_id)]));
  }

  async store(tx: Transaction, organizationId: number, mergedId: number, intoId: number): Promise<void> {
    await rowsIn(tx, STORE_MERGE, [organizationId, mergedId, intoId]);
  }
}

@Injectable()
export class PostgresCaseMergeReads extends CaseMergeReads {
  constructor(@InjectDataSource() private readonly db: DataSource) {
    super();
  }

  async shownOn(organizationId: number, caseId: number): Promise<number[]> {
    return (await rowsOf(this.db, SHOWN_ON, [organizationId, caseId])).map((row) => Number(row.id));
  }
}
