import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workflow definitions (drafts and published versions) become `json`, which keeps their text,
 * so they come back with their keys in the order saved: jsonb orders an object's keys by length,
 * which shuffled the attributes (and so a request form's fields). Nothing queries inside a
 * definition, so nothing needs jsonb's operators or indexes. The rows stored until now keep the
 * order jsonb gave them; the next save of a draft sets it.
 */
export class DefinitionsAsSaved1763890800000 implements MigrationInterface {
  name = 'DefinitionsAsSaved1763890800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE workflows ALTER COLUMN draft TYPE json USING draft::json;
      ALTER TABLE workflow_versions ALTER COLUMN definition TYPE json USING definition::json;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE workflows ALTER COLUMN draft TYPE jsonb USING draft::jsonb;
      ALTER TABLE workflow_versions ALTER COLUMN definition TYPE jsonb USING definition::jsonb;
    `);
  }
}
