import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What each bump of cache_generation invalidated: one row per change, written in the change's
 * transaction with the generation it made, so an instance that polls drops those keys alone and
 * keeps every other tenant's entries (see CacheGeneration). A number with no row (pruned, or
 * bumped by anything else) empties every cache, as every bump used to.
 *
 * The key is the generation, not an organization: the rows are one feed, read in generation
 * order by every instance across all organizations, like the cache_generation number they
 * detail, and the keys they name (token hashes, workflow ids, channel secret hashes) are
 * unique across organizations already. CacheGeneration keeps the newest rows only.
 */
export class CacheInvalidations1763890600000 implements MigrationInterface {
  name = 'CacheInvalidations1763890600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cache_invalidations (
        generation bigint PRIMARY KEY,
        cache text NOT NULL,
        key text NOT NULL
      )
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE cache_invalidations');
  }
}
