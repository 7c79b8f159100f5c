import { sealedColumn, type SealedColumn } from '../../../shared/crypto/sealed-columns.js';
import { webhookTokenBinding, webhookVerificationBinding } from '../../../shared/crypto/stored-secrets.js';

/** The workflows' sealed secrets, for the key rotation: webhook tokens and webhook verification secrets. */
export const WORKFLOW_SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({ table: 'workflows', key: ['id'], ciphertext: 'webhook_token_ciphertext', binding: (row) => webhookTokenBinding(row.id!) }),
  sealedColumn({ table: 'webhook_verifications', key: ['workflow_id'], ciphertext: 'secret_ciphertext', binding: (row) => webhookVerificationBinding(row.workflow_id!) }),
];
