import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * No search statement reads `messages_text`: the admin list's tiers read the messages through
 * `all_text`, and the attributes' tier names `attributes_text` for its estimate. Its vector and
 * GIN index were written for every indexed case all the same, a fifth of the indexer's work in
 * Postgres (docs/benchmarks.md, "Open", issue 26). Dropping a column is a catalog change; the
 * index goes with it.
 */
export class SearchWithoutMessagesVector1765100000000 implements MigrationInterface {
  name = 'SearchWithoutMessagesVector1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX case_search_messages');
    await q.query('ALTER TABLE case_search_documents DROP COLUMN messages_text');
  }

  /** The column comes back empty: nothing reads it. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE case_search_documents ADD COLUMN messages_text tsvector NOT NULL DEFAULT ''::tsvector`);
    await q.query('ALTER TABLE case_search_documents ALTER COLUMN messages_text DROP DEFAULT');
    await q.query('CREATE INDEX case_search_messages ON case_search_documents USING gin (organization_id, messages_text)');
  }
}
