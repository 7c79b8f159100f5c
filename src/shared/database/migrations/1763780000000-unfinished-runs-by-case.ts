import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A status change supersedes the unfinished runs of its case. With the unfinished runs indexed
 * by id, a plan made while the queue was empty (prepared statements keep their plan) combined
 * that index with the case index in a BitmapAnd, reading every unfinished run of every case:
 * each move cost more the longer the backlog, which made the backlog grow. Indexed by case,
 * the look-up reads only the case's own runs whatever the plan; the relay's look for lost runs,
 * the only other reader, scans all unfinished runs either way.
 */
export class UnfinishedRunsByCase1763780000000 implements MigrationInterface {
  name = 'UnfinishedRunsByCase1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX workflow_runs_unfinished;
      CREATE INDEX workflow_runs_unfinished ON workflow_runs (case_id) WHERE state IN ('pending', 'running', 'waiting');
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX workflow_runs_unfinished;
      CREATE INDEX workflow_runs_unfinished ON workflow_runs (id) WHERE state IN ('pending', 'running', 'waiting');
    `);
  }
}
