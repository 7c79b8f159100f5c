import type { MigrationInterface, QueryRunner } from 'typeorm';
import { supportsLz4 } from './1765400000000-lz4-compression.js';
import { addCheckNotValid, withShortLocks } from './online-schema-changes.js';

/**
 * `case_search_documents.fields_json`: a document's texts for its snippets, as `json` (the text
 * as sent) where `fields` holds them as `jsonb`. Postgres parses a `jsonb` value into its binary
 * form on the way in, and for these texts (dozens of small objects per case, each with its field,
 * pointer and identifiers) that parse was the largest part of what writing a document cost it:
 * 47-67 ms of every 250 perf-ab documents, where checking the same text as `json` takes 4 ms
 * (docs/benchmarks.md, "The indexer's write"). The texts are read back only for a page's
 * snippets, a few dozen documents at a time.
 *
 * Online: the column is added nullable, without a default, and `fields` loses its NOT NULL, each
 * a catalog change held for an instant (withShortLocks). Nothing is rewritten: a document written
 * before keeps `fields` until its case next changes, and the indexer then writes `fields_json`
 * and empties `fields`. The previous release's indexer, while it still runs, writes `fields` and
 * leaves `fields_json` as it was, so a read takes `fields` when it is set: it is then the newer
 * of the two. The check holds every document to one of them; VALIDATE reads the table without
 * blocking writes.
 */
export class SearchFieldsAsJson1765700000000 implements MigrationInterface {
  name = 'SearchFieldsAsJson1765700000000';
  /** Short transactions of their own (withShortLocks), and a VALIDATE outside them. */
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    const compression = (await supportsLz4(q)) ? ', ALTER COLUMN fields_json SET COMPRESSION lz4' : '';
    await withShortLocks(q, () =>
      q.query(`ALTER TABLE case_search_documents ADD COLUMN IF NOT EXISTS fields_json json, ALTER COLUMN fields DROP NOT NULL${compression}`),
    );
    await addCheckNotValid(q, 'case_search_documents', 'case_search_documents_fields', 'fields IS NOT NULL OR fields_json IS NOT NULL');
    await q.query(`ALTER TABLE case_search_documents VALIDATE CONSTRAINT case_search_documents_fields`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE case_search_documents SET fields = fields_json::jsonb WHERE fields IS NULL`);
    await q.query(`
      ALTER TABLE case_search_documents DROP CONSTRAINT case_search_documents_fields, ALTER COLUMN fields SET NOT NULL, DROP COLUMN fields_json`);
  }
}
