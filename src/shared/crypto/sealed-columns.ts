import type { Column, Statement } from '../database/typed-statement.js';
import type { SecretBinding } from './secret-box.js';

/** Rows the rotation locks per transaction: short enough that the service never waits long on one. */
export const ROTATION_BATCH_SIZE = 100;

/** What the rotation reads of a row: its key, its ciphertext and what its binding is made of, each bigint or text (a string either way). */
type SealedRow = Readonly<Record<string, string>>;
type Reads<Row extends SealedRow> = { readonly [K in keyof Row]: Column<Row[K]> };

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
  lockBatch(after: boolean, limit: number): Statement<SealedRow>;
  /** $1 the new ciphertext, $2.. the row's key. */
  readonly rewrite: Statement<unknown>;
  binding(row: SealedRow): SecretBinding;
}

type LockBatchArgs = [after: boolean, limit: number];

/** The texts of a sealed column's statements, for its owner to declare. */
export interface SealedColumnSql<Row extends SealedRow> {
  readonly lockBatch: [build: (...args: LockBatchArgs) => string, columns: Reads<Row>, shapes: LockBatchArgs[]];
  readonly rewrite: string;
}

/**
 * The owner's statements over its `table`.`ciphertext`, keyed by `key`. The owner declares them
 * (`declare`) in its own file: the schema check gives a statement to the module of the file that
 * declares it, so each is checked as its owner's, over its owner's table.
 */
export function sealedColumn<Row extends SealedRow>(
  spec: {
    table: string;
    ciphertext: string;
    key: readonly string[];
    /** Where a table has more than one sealed column; the table's name otherwise. */
    label?: string;
    /** The key, the ciphertext and the columns `binding` reads. */
    reads: Reads<Row>;
    binding(row: Row): SecretBinding;
    /** The owner declares the statements: statementBuilder(...sql.lockBatch), statement(sql.rewrite). */
    declare(sql: SealedColumnSql<Row>): { lockBatch: (...args: LockBatchArgs) => Statement<Row>; rewrite: Statement<unknown> };
  },
): SealedColumn {
  const { table, ciphertext, key, reads } = spec;
  const keyList = key.join(', ');
  const placeholders = (from: number) => key.map((_, i) => `$${from + i}`).join(', ');
  const { lockBatch, rewrite } = spec.declare({
    lockBatch: [
      (after, limit) =>
        `SELECT ${Object.keys(reads).join(', ')} FROM ${table} WHERE ${ciphertext} IS NOT NULL ${after ? `AND (${keyList}) > (${placeholders(1)})` : ''}
       ORDER BY ${keyList} LIMIT ${limit} FOR UPDATE`,
      reads,
      [
        [false, ROTATION_BATCH_SIZE],
        [true, ROTATION_BATCH_SIZE],
      ],
    ],
    rewrite: `UPDATE ${table} SET ${ciphertext} = $1 WHERE (${keyList}) = (${placeholders(2)})`,
  });
  return { label: spec.label ?? table, table, ciphertext, key, lockBatch, rewrite, binding: spec.binding };
}
