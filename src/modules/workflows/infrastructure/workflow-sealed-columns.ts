import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { webhookTokenBinding, webhookVerificationBinding } from '../../../shared/crypto/stored-secrets.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement, statementBuilder } from './persistence.js';

/** The workflows' sealed secrets, for the key rotation: webhook tokens and webhook verification secrets. */
export const WORKFLOW_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({
    table: 'workflows',
    key: ['id'],
    ciphertext: 'webhook_token_ciphertext',
    reads: { id: column.int8, webhook_token_ciphertext: column.text },
    binding: (row) => webhookTokenBinding(row.id),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
  sealedColumn({
    table: 'webhook_verifications',
    key: ['workflow_id'],
    ciphertext: 'secret_ciphertext',
    reads: { workflow_id: column.int8, secret_ciphertext: column.text },
    binding: (row) => webhookVerificationBinding(row.workflow_id),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
];
