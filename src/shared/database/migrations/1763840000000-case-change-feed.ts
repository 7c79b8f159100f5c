import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Listing cases and following their changes (docs/change-feed.md).
 *
 * `change_xid` is the transaction that last wrote the case: the insert takes it from the
 * column default, every update sets it (case-changes.sql.ts). The feed reads a workflow's cases
 * in (change_xid, id) order, up to the oldest transaction still running. Existing rows get 1,
 * below any real transaction id, so adding the column rewrites nothing.
 *
 * The lists are newest first by (created_at, id): the two list indexes change their order from
 * id to that pair. cases_organization then also serves what cases_usage (organization_id,
 * created_at) served (usage counts, the purge's walk, scanned backwards), so that one goes: the
 * table keeps four indexes, and an insert writes as many index entries as before.
 *
 * `case_feed_purges` is where retention leaves its mark: per workflow and purging transaction,
 * the highest feed position among the cases it deleted. A cursor issued before that purge and
 * below that position may have missed the last change of a case that is now gone: a 410.
 */
export class CaseChangeFeed1763840000000 implements MigrationInterface {
  name = 'CaseChangeFeed1763840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE cases ADD COLUMN change_xid xid8 NOT NULL DEFAULT '1';
      ALTER TABLE cases ALTER COLUMN change_xid SET DEFAULT pg_current_xact_id();
      CREATE INDEX cases_changes ON cases (workflow_id, change_xid, id);

      DROP INDEX cases_organization, cases_workflow, cases_usage;
      CREATE INDEX cases_organization ON cases (organization_id, created_at DESC, id DESC);
      CREATE INDEX cases_workflow ON cases (workflow_id, created_at DESC, id DESC);

      CREATE TABLE case_feed_purges (
        workflow_id bigint NOT NULL,
        purge_xid   xid8 NOT NULL,
        change_xid  xid8 NOT NULL,
        case_id     bigint NOT NULL,
        PRIMARY KEY (workflow_id, purge_xid)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE case_feed_purges;
      DROP INDEX cases_organization, cases_workflow, cases_changes;
      CREATE INDEX cases_organization ON cases (organization_id, id DESC);
      CREATE INDEX cases_workflow ON cases (workflow_id, id DESC);
      CREATE INDEX cases_usage ON cases (organization_id, created_at);
      ALTER TABLE cases DROP COLUMN change_xid;
    `);
  }
}
