import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One number every instance polls to know when to empty its in-memory caches (see
 * CacheGeneration). A change that must invalidate cached credentials or workflow state bumps it
 * in its own transaction, so the news is committed exactly when the change is: no message can
 * be lost between the two. The check keeps it to one row.
 */
export class CacheGeneration1763790600000 implements MigrationInterface {
  name = 'CacheGeneration1763790600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cache_generation (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        generation bigint NOT NULL
      );
      INSERT INTO cache_generation (generation) VALUES (0);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE cache_generation');
  }
}
