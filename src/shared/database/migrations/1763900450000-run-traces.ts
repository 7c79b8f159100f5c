import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Run traces (issue 19): each run keeps the steps it executed, appended by the statement that
 * already stores the run's progress (no round trip of their own), at most MAX_TRACED_STEPS of
 * them; `steps_omitted` counts those past the bound. Constant defaults: no table rewrite.
 */
export class RunTraces1763900450000 implements MigrationInterface {
  name = 'RunTraces1763900450000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE workflow_runs
        ADD COLUMN steps jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN steps_omitted integer NOT NULL DEFAULT 0
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE workflow_runs DROP COLUMN steps, DROP COLUMN steps_omitted`);
  }
}
