import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { digestRecipientBinding } from '../../../shared/crypto/stored-secrets.js';

/** The digest recipients' confirm and unsubscribe tokens, for the key rotation. */
export const DIGEST_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({ table: 'digest_recipients', key: ['id'], ciphertext: 'token_ciphertext', binding: (row) => digestRecipientBinding(row.organization_id!, row.address!) }),
  sealedColumn({
    table: 'digest_recipients',
    label: 'digest_recipients (unsubscribe tokens)',
    key: ['id'],
    ciphertext: 'unsubscribe_token_ciphertext',
    binding: (row) => digestRecipientBinding(row.organization_id!, row.address!),
  }),
];
