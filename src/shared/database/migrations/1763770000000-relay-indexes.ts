import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The relays look for new work many times a second. Partial indexes hold only what they look
 * for, so a pass costs the same with an empty queue or a backlog of thousands.
 */
export class RelayIndexes1763770000000 implements MigrationInterface {
  name = 'RelayIndexes1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX workflow_runs_new ON workflow_runs (id) WHERE state = 'pending' AND enqueued_at IS NULL;
      CREATE INDEX event_deliveries_new ON event_deliveries (next_attempt_at, id) WHERE state = 'pending' AND enqueued_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX workflow_runs_new, event_deliveries_new`);
  }
}
