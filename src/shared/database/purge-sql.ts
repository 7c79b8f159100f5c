import type { EntityManager } from 'typeorm';
import type { TransactionRunner } from './transaction.js';
import { withoutStatementTimeout } from './without-statement-timeout.js';
import { runStatement } from './run-statement.js';
import type { Statement } from './typed-statement.js';

/**
 * Pieces of the retention purge's SQL that every owner's purge statements share (see the
 * retention module's PurgePass). `days` are decimal days; cutoffs are on the database's clock.
 */

export const purgeCutoff = (days: string) => `now() - ${days}::float8 * interval '1 day'`;

/**
 * `LEFT JOIN LATERAL`: `<alias>.found` is null when `fromWhere` (FROM ... WHERE ...) finds no
 * row. A LIMIT 1 lateral join stays an index probe whatever the statistics say, where a plain
 * join could become a hash join of a whole table.
 */
export const lateralLookUp = (alias: string, fromWhere: string) => `LEFT JOIN LATERAL (SELECT true AS found ${fromWhere} LIMIT 1) ${alias} ON true`;

/**
 * The organizations and their days for one retention setting (the owner-finding statements'
 * $1 and $2: bigint[] and float8[]), as a row source `o(id, days)`.
 */
export const ORGANIZATION_DAYS = 'unnest($1::bigint[], $2::float8[]) AS o(id, days)';

/**
 * One purge statement in a transaction of its own, sent unnamed (planned with its actual values
 * each time: a pass runs a few a minute, and a generic plan made while a table was small would
 * walk it the wrong way once it is big), and not cut off by the pool's statement_timeout.
 */
export function purgeStatement<Row>(transactions: TransactionRunner, statement: Statement<Row>, parameters: readonly unknown[]): Promise<Row[]> {
  return withoutStatementTimeout(transactions, (m) => runStatement(m, statement, parameters));
}

/** Whose rows a pass purges, read by an owner-finding statement given every organization's days (`ids`, `days`). */
export async function purgeOwners<P>(transactions: TransactionRunner, statement: Statement<{ id: string; days: number; start: P }>, organizations: { ids: number[]; days: number[] }): Promise<{ id: number; days: number; start: P }[]> {
  const rows = await purgeStatement(transactions, statement, [organizations.ids, organizations.days]);
  return rows.map((row) => ({ id: Number(row.id), days: Number(row.days), start: row.start }));
}

/** A manager's statements as a plain function, for purge steps that other modules' code runs in the same transaction. */
export const queryIn =
  (m: EntityManager) =>
  <Row>(statement: Pick<Statement<Row>, 'text' | 'row'>, parameters: readonly unknown[]): Promise<Row[]> =>
    runStatement(m, statement, parameters);
