import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Case sources and sender schemes are registered at start, extensions' among them
 * (docs/extending.md), so the schema no longer lists them: a case's `source` and a webhook
 * verification's `scheme` are checked by the service against what is registered. The report
 * rollups count the cases of extensions' sources in one column of their own, so a report's
 * `created` holds them whichever extensions are loaded.
 */
export class ExtensionNames1763890900000 implements MigrationInterface {
  name = 'ExtensionNames1763890900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE cases DROP CONSTRAINT cases_source_check;
      ALTER TABLE webhook_verifications DROP CONSTRAINT webhook_verifications_scheme_check;
      ALTER TABLE case_report_hours ADD COLUMN created_extension integer NOT NULL DEFAULT 0;
      ALTER TABLE case_report_days ADD COLUMN created_extension integer NOT NULL DEFAULT 0;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE case_report_days DROP COLUMN created_extension;
      ALTER TABLE case_report_hours DROP COLUMN created_extension;
      ALTER TABLE cases ADD CONSTRAINT cases_source_check CHECK (source IN ('API', 'Webhook', 'Email', 'Form'));
      ALTER TABLE webhook_verifications ADD CONSTRAINT webhook_verifications_scheme_check CHECK (scheme IN ('github', 'stripe', 'slack', 'standard_webhooks', 'hmac'));
    `);
  }
}
