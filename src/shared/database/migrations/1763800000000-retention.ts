import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables the purge deletes from, or reads through to find what it deletes. */
const CHURNED_TABLES = ['workflow_runs', 'cases', 'case_events', 'outbox_events', 'event_deliveries', 'delivery_attempts', 'idempotency_keys'];

/**
 * Retention (docs/deploying.md, "Purge schedule"): per-organization overrides of the
 * RETENTION_*_DAYS defaults, and the usage counts of purged cases and runs, rolled up per
 * organization, workflow, mode and UTC hour of creation so that usage answers never change.
 *
 * Deleting a case or an outbox event makes Postgres look for rows still referring to it (the
 * foreign keys); three referring columns had no index, so each deleted row would cost a scan
 * of the whole referring table. Those three indexes are off the intake path of cases without
 * subscriptions or Idempotency-Key; the tables the intake and the automation always write
 * (cases, case_events, workflow_runs) get none.
 *
 * The purge deletes steadily from tables that grow steadily: with the default scale factor
 * (20%) autovacuum would wait for a fifth of a big table to be dead before reclaiming any of
 * it, so new rows would keep extending the files instead of reusing the space of purged ones,
 * and indexes would bloat. At 2% vacuum comes in small, frequent rounds.
 */
export class Retention1763800000000 implements MigrationInterface {
  name = 'Retention1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- null: the deployment's default (RETENTION_*_DAYS) applies.
      CREATE TABLE organization_retention (
        organization_id   bigint PRIMARY KEY REFERENCES organizations (id),
        runs_days         integer CHECK (runs_days BETWEEN 1 AND 36500),
        deliveries_days   integer CHECK (deliveries_days BETWEEN 1 AND 36500),
        closed_cases_days integer CHECK (closed_cases_days BETWEEN 0 AND 36500),
        updated_at        timestamptz NOT NULL DEFAULT now()
      );

      -- Counts of purged cases and runs, by the UTC hour their rows were created in.
      CREATE TABLE usage_rollups (
        organization_id bigint NOT NULL,
        hour            timestamptz NOT NULL CHECK (hour = date_trunc('hour', hour, 'UTC')),
        workflow_id     bigint NOT NULL,
        mode            text NOT NULL CHECK (mode IN ('live', 'test')),
        cases           bigint NOT NULL DEFAULT 0,
        runs            bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (organization_id, hour, workflow_id, mode)
      );

      CREATE INDEX outbox_events_case ON outbox_events (case_id);
      CREATE INDEX event_deliveries_event ON event_deliveries (event_id);
      CREATE INDEX idempotency_keys_case ON idempotency_keys (case_id);
      ${CHURNED_TABLES.map((table) => `ALTER TABLE ${table} SET (autovacuum_vacuum_scale_factor = 0.02);`).join('\n      ')}
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ${CHURNED_TABLES.map((table) => `ALTER TABLE ${table} RESET (autovacuum_vacuum_scale_factor);`).join('\n      ')}
      DROP INDEX outbox_events_case, event_deliveries_event, idempotency_keys_case;
      DROP TABLE usage_rollups, organization_retention;
    `);
  }
}
