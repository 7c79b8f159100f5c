import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log's cursor follows commits, not ids: an id is taken when a change's transaction
 * inserts its entry, which may commit after a later id's. Each entry keeps the id of the
 * transaction that wrote it (`xid`), and readers see only entries of transactions older than
 * every one still running (`pg_snapshot_xmin`), in (xid, id) order, so an entry that commits late
 * still comes after any cursor handed out before it. (Existing entries share the migration's xid.)
 */
export class AuditCommitOrder1763915000000 implements MigrationInterface {
  name = 'AuditCommitOrder1763915000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE audit_entries ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
      CREATE INDEX audit_entries_commit_order ON audit_entries (organization_id, xid, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_entries_commit_order; ALTER TABLE audit_entries DROP COLUMN xid;`);
  }
}
