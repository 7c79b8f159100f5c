import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who published each workflow version (a token's name, later a person's). Versions published
 * before this column existed never recorded it, so it stays null for them rather than
 * pretending to know.
 */
export class VersionPublishers1763890950000 implements MigrationInterface {
  name = 'VersionPublishers1763890950000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE workflow_versions ADD COLUMN published_by text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE workflow_versions DROP COLUMN published_by');
  }
}
