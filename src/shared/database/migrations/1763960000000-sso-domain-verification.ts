import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proven email domains for single sign-on (people.md, section 2): a typed address is sent only
 * to a provider whose organization proved the address's domain with a DNS TXT record, so the
 * domain search moves to the verified list. Settings made before this have no proven domain:
 * their owners verify them once (their people still sign in at `/auth/sso?organization=<id>`).
 * Each setting gets its own random token when it is made (122 random bits), kept while it lasts.
 */
export class SsoDomainVerification1763960000000 implements MigrationInterface {
  name = 'SsoDomainVerification1763960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sso_configurations
        ADD COLUMN verified_email_domains text[] NOT NULL DEFAULT '{}',
        ADD COLUMN domain_verification_token text NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '');
      DROP INDEX sso_configurations_domains;
      CREATE INDEX sso_configurations_verified_domains ON sso_configurations USING gin (verified_email_domains);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX sso_configurations_verified_domains;
      CREATE INDEX sso_configurations_domains ON sso_configurations USING gin (email_domains);
      ALTER TABLE sso_configurations DROP COLUMN verified_email_domains, DROP COLUMN domain_verification_token;
    `);
  }
}
