import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The relays look every second for runs and deliveries whose worker's lease ran out (the worker
 * died), so that its work is taken over within seconds. Partial indexes hold only the leased
 * items, a handful per worker, so the look costs the same whatever the backlog.
 */
export class LeaseIndexes1763793000000 implements MigrationInterface {
  name = 'LeaseIndexes1763793000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX workflow_runs_leased ON workflow_runs (locked_until) WHERE state = 'running';
      CREATE INDEX event_deliveries_leased ON event_deliveries (locked_until) WHERE state = 'pending' AND locked_until IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX workflow_runs_leased, event_deliveries_leased`);
  }
}
