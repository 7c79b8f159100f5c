import type { DataSource, EntityManager } from 'typeorm';
import { runStatement } from '../database/run-statement.js';
import { entityManager, TypeOrmTransactionRunner } from '../database/typeorm-transaction-runner.js';
import { ROTATION_BATCH_SIZE, type SealedColumn } from './sealed-columns.js';
import { SealedSecretError, type SecretBox } from './secret-box.js';

export interface RotationCounts {
  table: string;
  rewritten: number;
  current: number;
  /** Primary keys of values no configured key opens (never the values). */
  unopenable: string[];
}

/**
 * Re-seals every secret of `columns` (what their owners publish) with TOKEN_ENCRYPTION_KEY (v2,
 * bound to its row). Values already sealed so are only checked, so running it again changes
 * nothing. Rows are taken in small batches under FOR UPDATE, so it runs safely beside the service.
 */
export async function rotateEncryptionKey(
  source: DataSource,
  box: SecretBox,
  columns: readonly SealedColumn[],
  { batchSize = ROTATION_BATCH_SIZE }: { batchSize?: number } = {},
): Promise<RotationCounts[]> {
  const counts: RotationCounts[] = [];
  const transactions = new TypeOrmTransactionRunner(source);
  for (const column of columns) {
    const count: RotationCounts = { table: column.label, rewritten: 0, current: 0, unopenable: [] };
    let after: string[] | undefined;
    do {
      after = await transactions.run((tx) => rotateBatch(entityManager(tx), box, column, after, batchSize, count));
    } while (after);
    counts.push(count);
  }
  return counts;
}

/** One batch after the key `after`; returns the last key seen, or undefined at the end of the table. */
async function rotateBatch(
  manager: EntityManager,
  box: SecretBox,
  column: SealedColumn,
  after: string[] | undefined,
  batchSize: number,
  count: RotationCounts,
): Promise<string[] | undefined> {
  const rows = await runStatement(manager, column.lockBatch(after !== undefined, batchSize), after ?? []);
  for (const row of rows) {
    const sealed = row[column.ciphertext]!;
    const binding = column.binding(row);
    const keyValues = column.key.map((name) => String(row[name]));
    let plain: string;
    try {
      plain = box.open(sealed, binding);
    } catch (err) {
      if (!(err instanceof SealedSecretError)) throw err;
      count.unopenable.push(keyValues.join('/'));
      continue;
    }
    if (box.isCurrent(sealed)) {
      count.current += 1;
      continue;
    }
    await runStatement(manager, column.rewrite, [box.seal(plain, binding), ...keyValues]);
    count.rewritten += 1;
  }
  const last = rows.at(-1);
  return rows.length === batchSize && last ? column.key.map((name) => String(last[name])) : undefined;
}
