import type { SecretBinding } from './secret-box.js';

/** The binding each stored secret is sealed with; the services and their sealed columns' owners (sealed-columns.ts) use these same functions. */
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
