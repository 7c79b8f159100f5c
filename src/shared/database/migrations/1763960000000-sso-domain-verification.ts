import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proven email domains for single sign-on (people.md, section 2): a typed address is sent only
 * to a provider whose organization proved the address's domain with a DNS TXT record, so the
 * domain search moves to the verified list. Settings made before this have no proven domain:
 * their owners verify them once (their people still sign in at `/auth/sso?organization=<id>`).
 */
export class SsoDomainVerification1763960000000 implements MigrationInterface {
  name = 'SsoDomainVerification1763960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sso_configurations
        ADD COLUMN verified_email_domains text[] NOT NULL DEFAULT '{}',
        ADD COLUMN domain_verification_token text;
      UPDATE sso_configurations SET domain_verification_token = replace(gen_random_uuid()::text, '-', '');
      ALTER TABLE sso_configurations ALTER COLUMN domain_verification_token SET NOT NULL;
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
