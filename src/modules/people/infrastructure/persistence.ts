import { modulePersistence } from '../../../shared/database/module-persistence.js';
import { column, table } from '../../../shared/database/typed-statement.js';

/**
 * The people module's tables, each row as the migrations made it
 * (test/integration/table-definitions.integration-spec.ts), and what declares and runs its
 * statements: no other module's persistence runs them, and no other module may import this file.
 */

export const USERS = table('users', {
  organization_id: column.int8,
  id: column.int8,
  email: column.text,
  role: column.text,
  status: column.text,
  created_at: column.timestamptz,
  last_seen_at: column.nullable(column.timestamptz),
  sso_issuer: column.nullable(column.text),
  sso_subject: column.nullable(column.text),
});

export const SESSIONS = table('sessions', {
  organization_id: column.int8,
  id_hash: column.bytea,
  user_id: column.int8,
  created_at: column.timestamptz,
  last_seen_at: column.timestamptz,
  expires_at: column.timestamptz,
  sign_in_method: column.text,
});

export const SIGN_IN_LINKS = table('sign_in_links', {
  organization_id: column.int8,
  token_hash: column.bytea,
  user_id: column.int8,
  expires_at: column.timestamptz,
  used_at: column.nullable(column.timestamptz),
});

export const SIGN_IN_MAILS = table('sign_in_mails', {
  organization_id: column.int8,
  id: column.int8,
  user_id: column.int8,
  kind: column.text,
  attempts: column.int4,
  created_at: column.timestamptz,
  next_attempt_at: column.timestamptz,
  enqueued_at: column.nullable(column.timestamptz),
  locked_until: column.nullable(column.timestamptz),
});

export const SSO_CONFIGURATIONS = table('sso_configurations', {
  organization_id: column.int8,
  issuer: column.text,
  client_id: column.text,
  client_secret_ciphertext: column.text,
  email_domains: column.textArray,
  default_role: column.text,
  required: column.bool,
  created_at: column.timestamptz,
  updated_at: column.timestamptz,
  verified_email_domains: column.textArray,
  domain_verification_token: column.text,
});

export const { statement, statementBuilder, rowsOf, firstRowOf } = modulePersistence('src/modules/people', [
  USERS, SESSIONS, SIGN_IN_LINKS, SIGN_IN_MAILS, SSO_CONFIGURATIONS,
]);
