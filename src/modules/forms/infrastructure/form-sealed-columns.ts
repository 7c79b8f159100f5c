import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { formSecretBinding } from '../../../shared/crypto/stored-secrets.js';

/** The request forms' secrets, for the key rotation. */
export const FORM_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({ table: 'workflow_forms', key: ['workflow_id'], ciphertext: 'secret_ciphertext', binding: (row) => formSecretBinding(row.workflow_id!) }),
];
