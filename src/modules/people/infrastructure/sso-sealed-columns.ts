import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { ssoClientSecretBinding } from '../../../shared/crypto/stored-secrets.js';
import { column } from '../../../shared/database/typed-statement.js';
import { statement, statementBuilder } from './persistence.js';

/** The organizations' single sign-on client secrets, for the key rotation. */
export const SSO_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({
    table: 'sso_configurations',
    key: ['organization_id'],
    ciphertext: 'client_secret_ciphertext',
    reads: { organization_id: column.int8, client_secret_ciphertext: column.text },
    binding: (row) => ssoClientSecretBinding(row.organization_id),
    declare: (sql) => ({ lockBatch: statementBuilder(...sql.lockBatch), rewrite: statement(sql.rewrite) }),
  }),
];
