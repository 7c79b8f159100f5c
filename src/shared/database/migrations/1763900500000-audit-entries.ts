import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (module audit): one row per change made through the admin or operator API,
 * written in the change's transaction. Read by organization in id order (the key); retention
 * deletes an organization's oldest rows by `at` (`audit_entries_at`), after `audit_days`
 * (an override in `organization_retention`, at least 90; null keeps 365).
 */
export class AuditEntries1763900500000 implements MigrationInterface {
  name = 'AuditEntries1763900500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_entries (
        organization_id bigint NOT NULL,
        id              bigint GENERATED ALWAYS AS IDENTITY,
        at              timestamptz NOT NULL DEFAULT now(),
        actor_type      text NOT NULL CHECK (actor_type IN ('user', 'token', 'operator')),
        actor_id        text NOT NULL,
        actor_name      text NOT NULL,
        action          text NOT NULL,
        target_type     text NOT NULL,
        target_id       text NOT NULL,
        address         text,
        summary         jsonb NOT NULL,
        PRIMARY KEY (organization_id, id)
      );
      CREATE INDEX audit_entries_at ON audit_entries (organization_id, at);
      ALTER TABLE organization_retention ADD COLUMN audit_days integer CHECK (audit_days >= 90);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE organization_retention DROP COLUMN audit_days; DROP TABLE audit_entries;`);
  }
}
