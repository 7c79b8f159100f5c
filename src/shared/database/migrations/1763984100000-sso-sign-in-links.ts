import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single sign-on, hardened (issue 21). A session records how it was signed in, so turning an
 * organization's `required` on ends its email-link sessions only; the sessions made before this
 * are counted as email-link ones (ended then too: nothing says they were not), and so are those
 * an instance still running the code before this inserts during a rolling upgrade (the default
 * stays). A user keeps the provider's identity of their first single sign-on (issuer and `sub`),
 * which later sign-ins find them by: an address changed at the provider stays the same user, and an address handed on to
 * someone else there does not make that person this user. Each identity is one user of its
 * organization.
 */
export class SsoSignInLinks1763984100000 implements MigrationInterface {
  name = 'SsoSignInLinks1763984100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sessions ADD COLUMN sign_in_method text NOT NULL DEFAULT 'email_link' CHECK (sign_in_method IN ('email_link', 'sso'));
      ALTER TABLE users
        ADD COLUMN sso_issuer text,
        ADD COLUMN sso_subject text,
        ADD CONSTRAINT users_sso_identity_whole CHECK ((sso_issuer IS NULL) = (sso_subject IS NULL));
      CREATE UNIQUE INDEX users_sso_identity ON users (organization_id, sso_issuer, sso_subject) WHERE sso_subject IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX users_sso_identity;
      ALTER TABLE users DROP CONSTRAINT users_sso_identity_whole, DROP COLUMN sso_issuer, DROP COLUMN sso_subject;
      ALTER TABLE sessions DROP COLUMN sign_in_method;
    `);
  }
}
