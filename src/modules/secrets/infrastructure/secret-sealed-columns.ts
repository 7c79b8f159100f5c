import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { organizationSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement, statementBuilder } from './persistence.js';

/** The organizations' named secrets, for the key rotation. */
export const SECRET_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({
    table: 'organization_secrets',
    key: ['organization_id', 'name'],
    ciphertext: 'value_ciphertext',
    reads: { organization_id: column.int8, name: column.text, value_ciphertext: column.text },
    binding: (row) => organizationSecretBinding(row.organization_id, row.name),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
];
