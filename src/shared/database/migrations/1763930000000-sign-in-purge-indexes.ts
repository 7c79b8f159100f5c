import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The retention purge of ended sessions and spent sign-in links reads them by when they ended:
 * without these indexes each of its batches would scan the whole table. A session ends at its
 * expiry or after its last use plus the idle timeout (a setting, so two indexes); a link at its
 * use or its expiry, whichever is set first. Autovacuum as on every table the purge deletes from
 * (docs/deploying.md, "Indexes and autovacuum").
 */
export class SignInPurgeIndexes1763930000000 implements MigrationInterface {
  name = 'SignInPurgeIndexes1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX sessions_expiry ON sessions (expires_at);
      CREATE INDEX sessions_last_seen ON sessions (last_seen_at);
      CREATE INDEX sign_in_links_ended ON sign_in_links ((coalesce(used_at, expires_at)));
      ALTER TABLE sessions SET (autovacuum_vacuum_scale_factor = 0.02);
      ALTER TABLE sign_in_links SET (autovacuum_vacuum_scale_factor = 0.02);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sign_in_links RESET (autovacuum_vacuum_scale_factor);
      ALTER TABLE sessions RESET (autovacuum_vacuum_scale_factor);
      DROP INDEX sign_in_links_ended, sessions_last_seen, sessions_expiry;
    `);
  }
}
