import type { SecretBinding } from './secret-box.js';

/** The binding each stored secret is sealed with; the services and the key rotation use these same functions. */
export const webhookTokenBinding = (workflowId: number | string): SecretBinding => ({ purpose: 'webhook-token', row: `workflow:${workflowId}` });
export const emailAddressBinding = (workflowId: number | string): SecretBinding => ({ purpose: 'email-address', row: `workflow:${workflowId}` });
export const webhookVerificationBinding = (workflowId: number | string): SecretBinding => ({
  purpose: 'webhook-verification-secret',
  row: `workflow:${workflowId}`,
});
export const formSecretBinding = (workflowId: number | string): SecretBinding => ({ purpose: 'form-secret', row: `workflow:${workflowId}` });
export const subscriptionSecretBinding = (subscriptionId: number | string): SecretBinding => ({
  purpose: 'subscription-signing-secret',
  row: `subscription:${subscriptionId}`,
});
/** The secret a rotation replaced, signing beside the new one for a day. */
export const previousSubscriptionSecretBinding = (subscriptionId: number | string): SecretBinding => ({
  purpose: 'subscription-previous-signing-secret',
  row: `subscription:${subscriptionId}`,
});
export const organizationSecretBinding = (organizationId: number | string, name: string): SecretBinding => ({
  purpose: 'organization-secret',
  row: `organization:${organizationId}:secret:${name}`,
});
/** A digest recipient's confirm or unsubscribe token, bound to its address in its organization (whatever the case it was typed in). */
export const digestRecipientBinding = (organizationId: number | string, address: string): SecretBinding => ({
  purpose: 'digest-recipient-token',
  row: `organization:${organizationId}:digest-recipient:${address.toLowerCase()}`,
});

/** An organization's single sign-on client secret (its OpenID provider's). */
export const ssoClientSecretBinding = (organizationId: number | string): SecretBinding => ({ purpose: 'sso-client-secret', row: `organization:${organizationId}:sso` });

/** A column of sealed secrets, as `npm run rotate-encryption-key` walks it. */
export interface SealedColumn {
  table: string;
  /** How the rotation's counts name it, where a table has more than one sealed column; the table otherwise. */
  label?: string;
  /** The primary key columns: the rotation pages through the rows and rewrites one row by them. */
  key: string[];
  ciphertext: string;
  /** The binding of a row (its columns as Postgres returns them: text for bigint). */
  binding(row: Record<string, string>): SecretBinding;
}

/** Every stored secret. A new sealed column is one more entry here, or the rotation leaves it behind. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'workflows', key: ['id'], ciphertext: 'webhook_token_ciphertext', binding: (row) => webhookTokenBinding(row.id!) },
  { table: 'subscriptions', key: ['id'], ciphertext: 'secret_ciphertext', binding: (row) => subscriptionSecretBinding(row.id!) },
  {
    table: 'subscriptions',
    label: 'subscriptions (replaced signing secrets)',
    key: ['id'],
    ciphertext: 'previous_secret_ciphertext',
    binding: (row) => previousSubscriptionSecretBinding(row.id!),
  },
  { table: 'webhook_verifications', key: ['workflow_id'], ciphertext: 'secret_ciphertext', binding: (row) => webhookVerificationBinding(row.workflow_id!) },
  { table: 'workflow_email_addresses', key: ['workflow_id'], ciphertext: 'secret_ciphertext', binding: (row) => emailAddressBinding(row.workflow_id!) },
  { table: 'workflow_forms', key: ['workflow_id'], ciphertext: 'secret_ciphertext', binding: (row) => formSecretBinding(row.workflow_id!) },
  {
    table: 'organization_secrets',
    key: ['organization_id', 'name'],
    ciphertext: 'value_ciphertext',
    binding: (row) => organizationSecretBinding(row.organization_id!, row.name!),
  },
  { table: 'digest_recipients', key: ['id'], ciphertext: 'token_ciphertext', binding: (row) => digestRecipientBinding(row.organization_id!, row.address!) },
  {
    table: 'digest_recipients',
    label: 'digest_recipients (unsubscribe tokens)',
    key: ['id'],
    ciphertext: 'unsubscribe_token_ciphertext',
    binding: (row) => digestRecipientBinding(row.organization_id!, row.address!),
  },
  { table: 'sso_configurations', key: ['organization_id'], ciphertext: 'client_secret_ciphertext', binding: (row) => ssoClientSecretBinding(row.organization_id!) },
];
