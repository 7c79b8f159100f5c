import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { formSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement, statementBuilder } from './persistence.js';

/** The request forms' secrets, for the key rotation. */
export const FORM_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({
    table: 'workflow_forms',
    key: ['workflow_id'],
    ciphertext: 'secret_ciphertext',
    reads: { workflow_id: column.int8, secret_ciphertext: column.text },
    binding: (row) => formSecretBinding(row.workflow_id),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
];
