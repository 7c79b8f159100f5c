import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A timer keeps its clock's due time (null for a warning whose clock paused after it was
 * reached): a warning's timeline row, event and notification say when the clock is due, and
 * the admin list filters and sorts cases by their clocks' due times (sla.md section 2).
 */
export class SlaTimerDueTimes1764900000000 implements MigrationInterface {
  name = 'SlaTimerDueTimes1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE sla_timers ADD COLUMN due_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE sla_timers DROP COLUMN due_at');
  }
}
