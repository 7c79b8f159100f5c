import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { digestRecipientBinding } from '../../../shared/crypto/stored-secrets.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement, statementBuilder } from './persistence.js';

const RECIPIENT = { id: column.int8, organization_id: column.int8, address: column.text };

/** The digest recipients' confirm and unsubscribe tokens, for the key rotation. */
export const DIGEST_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({
    table: 'digest_recipients',
    key: ['id'],
    ciphertext: 'token_ciphertext',
    reads: { ...RECIPIENT, token_ciphertext: column.text },
    binding: (row) => digestRecipientBinding(row.organization_id, row.address),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
  sealedColumn({
    table: 'digest_recipients',
    label: 'digest_recipients (unsubscribe tokens)',
    key: ['id'],
    ciphertext: 'unsubscribe_token_ciphertext',
    reads: { ...RECIPIENT, unsubscribe_token_ciphertext: column.text },
    binding: (row) => digestRecipientBinding(row.organization_id, row.address),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
];
