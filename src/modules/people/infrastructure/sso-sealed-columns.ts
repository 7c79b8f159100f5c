import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { ssoClientSecretBinding } from '../../../shared/crypto/stored-secrets.js';

/** The organizations' single sign-on client secrets, for the key rotation. */
export const SSO_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({ table: 'sso_configurations', key: ['organization_id'], ciphertext: 'client_secret_ciphertext', binding: (row) => ssoClientSecretBinding(row.organization_id!) }),
];
