import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { previousSubscriptionSecretBinding, subscriptionSecretBinding } from '../../../shared/crypto/stored-secrets.js';

/** The subscriptions' signing secrets, and those a rotation replaced, for the key rotation. */
export const SUBSCRIPTION_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({ table: 'subscriptions', key: ['id'], ciphertext: 'secret_ciphertext', binding: (row) => subscriptionSecretBinding(row.id!) }),
  sealedColumn({
    table: 'subscriptions',
    label: 'subscriptions (replaced signing secrets)',
    key: ['id'],
    ciphertext: 'previous_secret_ciphertext',
    binding: (row) => previousSubscriptionSecretBinding(row.id!),
  }),
];
