import type { MigrationInterface, QueryRunner } from 'typeorm';
import { withShortLocks } from './online-schema-changes.js';

/**
 * Feed cursors count the purges their page saw instead of carrying its xmin (docs/change-feed.md,
 * "Retention and 410"). A purge that committed while an older transaction was still open had an id
 * at or above every later page's xmin, so a client starting the feed afresh after it was answered
 * 410 until that transaction ended, and again on each new start.
 *
 * `case_feed_purge_counts` numbers each workflow's purges: a purge increments its workflow's row
 * and holds the row until it commits, so purges commit in the order of their numbers and a page
 * sees exactly the purges up to the count it reads. `case_feed_purges.purge` is that number; what
 * was recorded before is purge 1 of its workflow, so a cursor issued before (`f.`, read as having
 * seen no purge) is answered 410 exactly when some purge deleted a case beyond it.
 *
 * The previous release's instances keep purging while the new ones roll out, and insert rows
 * without a number: a `BEFORE INSERT` trigger, called only for such a row (`WHEN`), counts and
 * numbers it. They keep reading `purge_xid`, which this release still writes. A later release
 * drops the trigger, the function and `purge_xid`.
 */
export class FeedPurgeCounts1765500000000 implements MigrationInterface {
  name = 'FeedPurgeCounts1765500000000';
  /** One short transaction of its own (withShortLocks), the purges' table locked first so no purge comes between the count and the column. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await withShortLocks(q, async () => {
      await q.query(`
        LOCK TABLE case_feed_purges IN SHARE ROW EXCLUSIVE MODE;
        CREATE TABLE case_feed_purge_counts (
          organization_id bigint NOT NULL,
          workflow_id     bigint NOT NULL,
          purges          bigint NOT NULL,
          PRIMARY KEY (organization_id, workflow_id)
        );
        INSERT INTO case_feed_purge_counts (organization_id, workflow_id, purges)
        SELECT w.organization_id, w.id, 1 FROM workflows w WHERE w.id IN (SELECT workflow_id FROM case_feed_purges);
        ALTER TABLE case_feed_purges ADD COLUMN purge bigint NOT NULL DEFAULT 1;
        ALTER TABLE case_feed_purges ALTER COLUMN purge DROP DEFAULT;
        CREATE INDEX case_feed_purges_numbered ON case_feed_purges (workflow_id, purge);

        CREATE FUNCTION case_feed_purge_number() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO case_feed_purge_counts AS e (organization_id, workflow_id, purges)
          SELECT w.organization_id, w.id, 1 FROM workflows w WHERE w.id = NEW.workflow_id
          ON CONFLICT (organization_id, workflow_id) DO UPDATE SET purges = e.purges + 1
          RETURNING purges INTO NEW.purge;
          RETURN NEW;
        END $$;
        CREATE TRIGGER case_feed_purges_number BEFORE INSERT ON case_feed_purges
          FOR EACH ROW WHEN (NEW.purge IS NULL) EXECUTE FUNCTION case_feed_purge_number();
      `);
    });
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER case_feed_purges_number ON case_feed_purges;
      DROP FUNCTION case_feed_purge_number();
      DROP INDEX case_feed_purges_numbered;
      ALTER TABLE case_feed_purges DROP COLUMN purge;
      DROP TABLE case_feed_purge_counts;
    `);
  }
}
