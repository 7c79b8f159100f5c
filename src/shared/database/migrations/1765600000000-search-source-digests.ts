import type { MigrationInterface, QueryRunner } from 'typeorm';
import { withShortLocks } from './online-schema-changes.js';

/**
 * `case_search_documents.source_digest`: a digest of what a case's document was built from (its
 * subject, attributes, workflow version, source and messages, docs/search.md). The indexer reads
 * it for the cases a pass found changed and builds no document for a case whose digest is the
 * stored one: most changes of a case (its status, assignee, a run's step) change none of its
 * words, and building the document was most of what the indexer cost the worker.
 *
 * Nullable and without a default, so adding it rewrites nothing and holds its lock for an
 * instant (withShortLocks: never queued long behind a reader); a document written before it has
 * none and is built once more on its case's next change. The previous release's indexer writes
 * documents without it, which is the same case.
 */
export class SearchSourceDigests1765600000000 implements MigrationInterface {
  name = 'SearchSourceDigests1765600000000';
  /** One short transaction of its own (withShortLocks). */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await withShortLocks(q, () => q.query(`ALTER TABLE case_search_documents ADD COLUMN source_digest bytea`));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE case_search_documents DROP COLUMN source_digest`);
  }
}
