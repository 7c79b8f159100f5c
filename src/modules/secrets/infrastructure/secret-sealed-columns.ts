import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { organizationSecretBinding } from '../../../shared/crypto/stored-secrets.js';

/** The organizations' named secrets, for the key rotation. */
export const SECRET_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({
    table: 'organization_secrets',
    key: ['organization_id', 'name'],
    ciphertext: 'value_ciphertext',
    binding: (row) => organizationSecretBinding(row.organization_id!, row.name!),
  }),
];
