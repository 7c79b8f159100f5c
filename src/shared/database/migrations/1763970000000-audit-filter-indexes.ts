import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log's filters (`actor`, `action`, `target`) each get an index in commit order, so a
 * filter that matches a few entries of a large organization reads those, not the organization's
 * whole year walked back until a page is full. Entries are written once per admin change or
 * sign-in, so three more index entries each cost little.
 */
export class AuditFilterIndexes1763970000000 implements MigrationInterface {
  name = 'AuditFilterIndexes1763970000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX audit_entries_by_actor ON audit_entries (organization_id, actor_type, actor_id, xid, id);
      CREATE INDEX audit_entries_by_action ON audit_entries (organization_id, action, xid, id);
      CREATE INDEX audit_entries_by_target ON audit_entries (organization_id, target_type, target_id, xid, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX audit_entries_by_actor, audit_entries_by_action, audit_entries_by_target');
  }
}
