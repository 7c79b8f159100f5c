import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { previousSubscriptionSecretBinding, subscriptionSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement, statementBuilder } from './persistence.js';

/** The subscriptions' signing secrets, and those a rotation replaced, for the key rotation. */
export const SUBSCRIPTION_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({
    table: 'subscriptions',
    key: ['id'],
    ciphertext: 'secret_ciphertext',
    reads: { id: column.int8, secret_ciphertext: column.text },
    binding: (row) => subscriptionSecretBinding(row.id),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
  sealedColumn({
    table: 'subscriptions',
    label: 'subscriptions (replaced signing secrets)',
    key: ['id'],
    ciphertext: 'previous_secret_ciphertext',
    reads: { id: column.int8, previous_secret_ciphertext: column.text },
    binding: (row) => previousSubscriptionSecretBinding(row.id),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
];
