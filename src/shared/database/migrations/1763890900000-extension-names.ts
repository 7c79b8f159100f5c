import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Case sources and sender schemes are registered at start, extensions' among them
 * (docs/extending.md), so the schema no longer lists them: a case's `source` and a webhook
 * verification's `scheme` are checked by the service against what is registered.
 */
export class ExtensionNames1763890900000 implements MigrationInterface {
  name = 'ExtensionNames1763890900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE cases DROP CONSTRAINT cases_source_check;
      ALTER TABLE webhook_verifications DROP CONSTRAINT webhook_verifications_scheme_check;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE cases ADD CONSTRAINT cases_source_check CHECK (source IN ('API', 'Webhook', 'Email', 'Form'));
      ALTER TABLE webhook_verifications ADD CONSTRAINT webhook_verifications_scheme_check CHECK (scheme IN ('github', 'stripe', 'slack', 'standard_webhooks', 'hmac'));
    `);
  }
}
