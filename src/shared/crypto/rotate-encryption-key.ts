import 'reflect-metadata';
import { DataSource, type EntityManager } from 'typeorm';
import { validateEnv } from '../config/env.js';
import { dataSourceOptions } from '../database/data-source-options.js';
import { entityManager, TypeOrmTransactionRunner } from '../database/typeorm-transaction-runner.js';
import { secretBoxFor } from './crypto.module.js';
import { SealedSecretError, type SecretBox } from './secret-box.js';
import { SEALED_COLUMNS, type SealedColumn } from './stored-secrets.js';

/** Rows locked per transaction: short enough that the service never waits long on one. */
const BATCH_SIZE = 100;

export interface RotationCounts {
  table: string;
  rewritten: number;
  current: number;
  /** Primary keys of values no configured key opens (never the values). */
  unopenable: string[];
}

/**
 * Re-seals every stored secret with TOKEN_ENCRYPTION_KEY (v2, bound to its row). Values already
 * sealed so are only checked, so running it again changes nothing. Rows are taken in small
 * batches under FOR UPDATE, so it runs safely beside the service.
 */
export async function rotateEncryptionKey(
  source: DataSource,
  box: SecretBox,
  { columns = SEALED_COLUMNS, batchSize = BATCH_SIZE }: { columns?: readonly SealedColumn[]; batchSize?: number } = {},
): Promise<RotationCounts[]> {
  const counts: RotationCounts[] = [];
  const transactions = new TypeOrmTransactionRunner(source);
  for (const column of columns) {
    const count: RotationCounts = { table: column.label ?? column.table, rewritten: 0, current: 0, unopenable: [] };
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
  const key = column.key.join(', ');
  const placeholders = (from: number) => column.key.map((_, i) => `$${from + i}`).join(', ');
  const rows = (await manager.query(
    `SELECT * FROM ${column.table}
     WHERE ${column.ciphertext} IS NOT NULL ${after ? `AND (${key}) > (${placeholders(1)})` : ''}
     ORDER BY ${key} LIMIT ${batchSize} FOR UPDATE`,
    after ?? [],
  )) as Record<string, string>[];
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
    await manager.query(
      `UPDATE ${column.table} SET ${column.ciphertext} = $1 WHERE (${key}) = (${placeholders(2)})`,
      [box.seal(plain, binding), ...keyValues],
    );
    count.rewritten += 1;
  }
  const last = rows.at(-1);
  return rows.length === batchSize && last ? column.key.map((name) => String(last[name])) : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const main = async (): Promise<number> => {
    const env = validateEnv(process.env);
    const source = new DataSource(dataSourceOptions(env));
    await source.initialize();
    try {
      const counts = await rotateEncryptionKey(source, secretBoxFor(env));
      for (const { table, rewritten, current, unopenable } of counts) {
        console.log(`${table}: ${rewritten} re-encrypted, ${current} already current, ${unopenable.length} not opened`);
        if (unopenable.length) console.error(`${table}: no configured key opens the value of row(s) ${unopenable.join(', ')}`);
      }
      return counts.some((c) => c.unopenable.length) ? 1 : 0;
    } finally {
      await source.destroy();
    }
  };
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`rotation failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
