import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over cases (issue 26, docs/search.md). The search module keeps one document
 * per case, written off the intake path by its indexer, which follows the cases' change feed
 * (`change_xid`); the intake statement is unchanged.
 *
 * `cis_search` is English with accents dropped (`unaccent` before the stemmer) for words;
 * numbers and identifiers (`A-1043`, `ORD-99812`) are stored as whole lexemes besides, written
 * by the indexer (array_to_tsvector), since the default parser splits them into `a` and `-1043`.
 * Three vectors per case, each a superset of the one before: the subject (weight A); the
 * subject and attributes (B), which is all the cases API searches; and everything, email
 * messages (C) and comments (D) included. Where the positive words match first (subject, then
 * attributes, then the rest) is a search's relevance tier. The attributes' and the messages' own
 * vectors are there for the planner: a tier's condition names them (a word that appears in no
 * attribute makes the attributes' tier look empty, as it is) where the vectors above, which overlap,
 * would make it look as large as the subject's. `fields` holds each searched value
 * with its JSON pointer, read only for a page's snippets. GIN indexes lead with
 * `organization_id` (btree_gin), like every key of the service.
 *
 * `case_search_positions` is the indexer's place in each workflow's change feed.
 */
export class SearchDocuments1764100000000 implements MigrationInterface {
  name = 'SearchDocuments1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE EXTENSION IF NOT EXISTS unaccent;
      CREATE EXTENSION IF NOT EXISTS btree_gin;
      CREATE TEXT SEARCH CONFIGURATION cis_search (COPY = pg_catalog.english);
      ALTER TEXT SEARCH CONFIGURATION cis_search
        ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH unaccent, english_stem;

      CREATE TABLE case_search_documents (
        organization_id bigint NOT NULL,
        case_id         bigint NOT NULL,
        workflow_id     bigint NOT NULL,
        subject_text    tsvector NOT NULL,
        case_text       tsvector NOT NULL,
        all_text        tsvector NOT NULL,
        attributes_text tsvector NOT NULL,
        messages_text   tsvector NOT NULL,
        fields          jsonb NOT NULL,
        PRIMARY KEY (organization_id, case_id)
      );
      CREATE INDEX case_search_subject ON case_search_documents USING gin (organization_id, subject_text);
      CREATE INDEX case_search_case ON case_search_documents USING gin (organization_id, case_text);
      CREATE INDEX case_search_all ON case_search_documents USING gin (organization_id, all_text);
      CREATE INDEX case_search_attributes ON case_search_documents USING gin (organization_id, attributes_text);
      CREATE INDEX case_search_messages ON case_search_documents USING gin (organization_id, messages_text);

      CREATE TABLE case_search_positions (
        organization_id bigint NOT NULL,
        workflow_id     bigint NOT NULL,
        change_xid      xid8 NOT NULL,
        case_id         bigint NOT NULL,
        PRIMARY KEY (organization_id, workflow_id)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE case_search_positions;
      DROP TABLE case_search_documents;
      DROP TEXT SEARCH CONFIGURATION cis_search;
    `);
  }
}
