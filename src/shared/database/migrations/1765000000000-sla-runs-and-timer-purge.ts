import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A run of a workflow's `on_sla` steps (sla.md section 3) says which: `on_sla` is `warning` or
 * `breached`, null for a status's run (every run before it). Nullable without a default, so
 * adding it rewrites nothing and intake's insert of a first run is unchanged.
 *
 * Fired timers are purged once old enough (SlaTimerPurges); the partial index finds them without
 * reading the timers still to fire.
 */
export class SlaRunsAndTimerPurge1765000000000 implements MigrationInterface {
  name = 'SlaRunsAndTimerPurge1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE workflow_runs ADD COLUMN on_sla text;
      CREATE INDEX sla_timers_fired ON sla_timers (fired_at) WHERE fired_at IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX sla_timers_fired; ALTER TABLE workflow_runs DROP COLUMN on_sla');
  }
}
