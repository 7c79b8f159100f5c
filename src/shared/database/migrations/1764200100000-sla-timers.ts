import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * SLA timers (sla.md section 3): the moments a case's clock periods warn and breach, in
 * Postgres so that a warning or breach due while no worker ran fires on recovery. A timer fires
 * once: the worker that takes it (skipping those another holds) sets `fired_at` in the
 * transaction that acts on it. Each policy keeps its place in its workflow's change feed, so a
 * pass looks only at the cases changed since the last.
 */
export class SlaTimers1764200100000 implements MigrationInterface {
  name = 'SlaTimers1764200100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sla_timers (
        organization_id   bigint NOT NULL,
        case_id           bigint NOT NULL,
        clock             text NOT NULL,
        kind              text NOT NULL CHECK (kind IN ('warning', 'breach')),
        period_started_at timestamptz NOT NULL,
        workflow_id       bigint NOT NULL,
        fire_at           timestamptz NOT NULL,
        fired_at          timestamptz,
        PRIMARY KEY (organization_id, case_id, clock, kind, period_started_at)
      );
      CREATE INDEX sla_timers_due ON sla_timers (organization_id, fire_at) WHERE fired_at IS NULL;
      ALTER TABLE sla_policies ADD COLUMN feed_cursor text;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE sla_timers; ALTER TABLE sla_policies DROP COLUMN feed_cursor');
  }
}
