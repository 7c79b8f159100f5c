import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { emailAddressBinding } from '../../../shared/crypto/stored-secrets.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement, statementBuilder } from './persistence.js';

/** The workflows' inbound mail addresses (their secret local parts), for the key rotation. */
export const EMAIL_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({
    table: 'workflow_email_addresses',
    key: ['workflow_id'],
    ciphertext: 'secret_ciphertext',
    reads: { workflow_id: column.int8, secret_ciphertext: column.text },
    binding: (row) => emailAddressBinding(row.workflow_id),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
];
