import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An organization's single sign-on (people.md, section 2): one OpenID provider per organization,
 * its client secret sealed (purpose `sso-client-secret`, bound to the organization). The email
 * domains are searched when a person types an address on the sign-in page (GIN index).
 */
export class SsoConfigurations1763920000000 implements MigrationInterface {
  name = 'SsoConfigurations1763920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sso_configurations (
        organization_id          bigint PRIMARY KEY REFERENCES organizations (id),
        issuer                   text NOT NULL,
        client_id                text NOT NULL,
        client_secret_ciphertext text NOT NULL,
        email_domains            text[] NOT NULL,
        default_role             text NOT NULL CHECK (default_role IN ('admin', 'editor', 'viewer')),
        required                 boolean NOT NULL,
        created_at               timestamptz NOT NULL DEFAULT now(),
        updated_at               timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX sso_configurations_domains ON sso_configurations USING gin (email_domains);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sso_configurations');
  }
}
