import type { SecretBinding } from './secret-box.js';

/**
 * A column of sealed secrets, as its owner publishes it to the key rotation: the statements
 * that page through its rows and rewrite one, and each row's binding. The rotation names no
 * table: every owner builds its columns from its own tables (sealedColumn), and the composition
 * root (src/rotate-encryption-key.ts) hands the rotation what the owners publish.
 */
export interface SealedColumn {
  /** How the rotation's counts name it. */
  readonly label: string;
  /** Where it is, for the check that every sealed column of the schema is published. */
  readonly table: string;
  readonly ciphertext: string;
  /** The primary key columns: the rotation pages by them and reports a row by them. */
  readonly key: readonly string[];
  /** Rows with a value, `limit` at most, in key order after the key in $1.. (from the start without `after`), locked FOR UPDATE. */
  lockBatchSql(after: boolean, limit: number): string;
  /** $1 the new ciphertext, $2.. the row's key. */
  readonly rewriteSql: string;
  /** The binding of a row (its columns as Postgres returns them: text for bigint). */
  binding(row: Record<string, string>): SecretBinding;
}

/** The owner's statements over its `table`.`ciphertext`, keyed by `key`. */
export function sealedColumn(spec: {
  table: string;
  ciphertext: string;
  key: readonly string[];
  /** Where a table has more than one sealed column; the table's name otherwise. */
  label?: string;
  binding(row: Record<string, string>): SecretBinding;
}): SealedColumn {
  const { table, ciphertext, key } = spec;
  const keyList = key.join(', ');
  const placeholders = (from: number) => key.map((_, i) => `$${from + i}`).join(', ');
  return {
    label: spec.label ?? table,
    table,
    ciphertext,
    key,
    binding: spec.binding,
    lockBatchSql: (after, limit) =>
      `SELECT * FROM ${table} WHERE ${ciphertext} IS NOT NULL ${after ? `AND (${keyList}) > (${placeholders(1)})` : ''}
       ORDER BY ${keyList} LIMIT ${limit} FOR UPDATE`,
    rewriteSql: `UPDATE ${table} SET ${ciphertext} = $1 WHERE (${keyList}) = (${placeholders(2)})`,
  };
}
