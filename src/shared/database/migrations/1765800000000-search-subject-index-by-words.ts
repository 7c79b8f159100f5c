import type { MigrationInterface, QueryRunner } from 'typeorm';
import { buildConcurrently } from './online-schema-changes.js';

/**
 * The subjects' GIN index by their words alone, where it was led by `organization_id` like the
 * other three. A search's first tier asks for documents whose whole text and whose subject both
 * match; when the words are rare in the subjects (a prefix of words found only in notes), the
 * cheap plan reads both indexes and ANDs their bitmaps, the subject's empty. Postgres never ANDs
 * two bitmaps whose index conditions share a clause (choose_bitmap_and counts the second as
 * redundant), and with both indexes led by the organization both held `organization_id = $1`: the
 * tier read every document of the whole text's bitmap to check its subject instead (20,600 at
 * 1,000,000 cases, docs/benchmarks.md, "Full-text search"). The organization stays in the whole
 * text's index, which every tier reads; the subject's index only narrows it.
 *
 * Online: the new index is built CONCURRENTLY, then the old one dropped CONCURRENTLY.
 */
export class SearchSubjectIndexByWords1765800000000 implements MigrationInterface {
  name = 'SearchSubjectIndexByWords1765800000000';
  /** CONCURRENTLY runs outside a transaction. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await buildConcurrently(q, 'case_search_subject_words', 'CREATE INDEX CONCURRENTLY IF NOT EXISTS case_search_subject_words ON case_search_documents USING gin (subject_text)');
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS case_search_subject');
  }

  async down(q: QueryRunner): Promise<void> {
    await buildConcurrently(q, 'case_search_subject', 'CREATE INDEX CONCURRENTLY IF NOT EXISTS case_search_subject ON case_search_documents USING gin (organization_id, subject_text)');
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS case_search_subject_words');
  }
}
