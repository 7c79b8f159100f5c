import { Injectable } from '@nestjs/common';
import { refusedDataState } from '../../../shared/database/database-errors.js';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { column } from '../../../shared/database/typed-statement.js';
import { rowsIn, rowsOf, statement } from './persistence.js';
import { entityManager } from '../../../shared/database/typeorm-transaction-runner.js';
import { type CaseDocument, type CaseKey, type IndexedPosition, SearchIndexStore } from '../application/search.ports.js';
import { fieldTexts, identified } from '../domain/search-document.js';

/** Held by the indexer at work, for its transaction; any number works, one fixed for the service. */
const INDEXER_LOCK = statement(`SELECT pg_try_advisory_xact_lock(hashtext('case_search_indexer')) AS locked`, { locked: column.bool });

const POSITIONS = statement(`SELECT organization_id, workflow_id, change_xid::text AS xid, case_id FROM case_search_positions`, {
  organization_id: column.int8,
  workflow_id: column.int8,
  xid: column.text,
  case_id: column.int8,
});

/**
 * Each field's words through `cis_search` (English stems, accents dropped) and its identifiers
 * as whole lexemes, weighted by field; the three vectors are prefixes of each other (see the
 * migration). Identifiers go through array_to_tsvector, which takes each as one lexeme as it is.
 * A document whose texts are those already stored (`fields_json` holds every text with its field,
 * in the text the indexer sent) is left as it is: most changes of a case (its status, its
 * assignee, a run's step) change none of its words, and building the vectors is most of what
 * indexing costs Postgres. The indexer sends no document for a case whose source digest is the
 * stored one (SOURCE_DIGESTS); this check is what holds when the digest differs and the words do
 * not (a non-searchable attribute changed), or a document came without one. A document stored
 * with its texts in `fields` (jsonb, before migration 1765700000000) is rewritten all the same.
 *
 * The vectors are built in the MATERIALIZED `d`, once each, for the documents that changed. A
 * subquery whose columns are used in several expressions is pulled up into them, and each use
 * built its vector again: the subject's and the attributes' three times each. On 2,500 of the
 * automation bench's documents that took the statement from 0.7-0.9 ms a document to 0.45-0.55
 * (search-documents integration test).
 *
 * Each document's texts come as one JSON string, stored as `json` without being parsed: parsing
 * them into `jsonb` cost Postgres more than building the vectors (migration 1765700000000). `json`
 * keeps escapes `jsonb` refuses (`\u0000`, half a surrogate pair), which the snippets' read would
 * then fail on; none can be there: every text is also in its field's joined text, which this
 * statement does parse as `jsonb` (a document holding one is refused whole, and stored reduced),
 * and each was read from what Postgres had already stored as text or `jsonb`.
 */
export const SAVE_DOCUMENTS = statement(`
  WITH d AS MATERIALIZED (
    SELECT d.organization_id, d.case_id, d.workflow_id, d.fields::json AS fields_json, d.source_digest,
      setweight(to_tsvector('cis_search', d.subject) || array_to_tsvector(d.subject_ids), 'A') AS s,
      setweight(to_tsvector('cis_search', d.attributes) || array_to_tsvector(d.attribute_ids), 'B') AS a,
      setweight(to_tsvector('cis_search', d.email) || array_to_tsvector(d.email_ids), 'C') AS e,
      setweight(to_tsvector('cis_search', d.comment) || array_to_tsvector(d.comment_ids), 'D') AS c
    FROM jsonb_to_recordset($1::jsonb) AS d(organization_id bigint, case_id bigint, workflow_id bigint, fields text,
         subject text, subject_ids text[], attributes text, attribute_ids text[], email text, email_ids text[], comment text, comment_ids text[],
         source_digest bytea)
    LEFT JOIN case_search_documents stored ON stored.organization_id = d.organization_id AND stored.case_id = d.case_id
    WHERE stored.fields_json::text IS DISTINCT FROM d.fields OR stored.fields IS NOT NULL OR stored.workflow_id IS DISTINCT FROM d.workflow_id
       OR stored.source_digest IS DISTINCT FROM d.source_digest
  )
  INSERT INTO case_search_documents (organization_id, case_id, workflow_id, subject_text, case_text, all_text, attributes_text, fields_json, source_digest)
  SELECT organization_id, case_id, workflow_id, s, s || a, s || a || e || c, a, fields_json, source_digest FROM d
  ON CONFLICT (organization_id, case_id) DO UPDATE
  SET workflow_id = EXCLUDED.workflow_id, subject_text = EXCLUDED.subject_text, case_text = EXCLUDED.case_text,
      all_text = EXCLUDED.all_text, attributes_text = EXCLUDED.attributes_text, fields = NULL, fields_json = EXCLUDED.fields_json,
      source_digest = EXCLUDED.source_digest`);

/** The stored documents' source digests (hex) of these cases, by the documents' key. */
const SOURCE_DIGESTS = statement(
  `
  SELECT d.case_id, encode(d.source_digest, 'hex') AS source_digest
  FROM unnest($1::bigint[], $2::bigint[]) AS k(organization_id, case_id)
  JOIN case_search_documents d ON d.organization_id = k.organization_id AND d.case_id = k.case_id
  WHERE d.source_digest IS NOT NULL`,
  { case_id: column.int8, source_digest: column.text },
);

/** Undoes one document Postgres refused, leaving the rest of the indexer's transaction as it was. */
const SAVEPOINT = 'search_document';
const SET_SAVEPOINT = statement(`SAVEPOINT ${SAVEPOINT}`);
const ROLLBACK_TO_SAVEPOINT = statement(`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`);
const RELEASE_SAVEPOINT = statement(`RELEASE SAVEPOINT ${SAVEPOINT}`);

const SAVE_POSITIONS = statement(`
  INSERT INTO case_search_positions (organization_id, workflow_id, change_xid, case_id)
  SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::xid8[], $4::bigint[])
  ON CONFLICT (organization_id, workflow_id) DO UPDATE SET change_xid = EXCLUDED.change_xid, case_id = EXCLUDED.case_id`);

@Injectable()
export class PostgresSearchIndexStore extends SearchIndexStore {
  constructor(private readonly transactions: TransactionRunner) {
    super();
  }

  exclusively<T>(work: (tx: Transaction) => Promise<T>): Promise<T | undefined> {
    return this.transactions.run(async (tx) => {
      const [row] = await rowsIn(tx, INDEXER_LOCK, []);
      return row!.locked ? work(tx) : undefined;
    });
  }

  async positions(tx: Transaction): Promise<IndexedPosition[]> {
    const rows = await rowsIn(tx, POSITIONS, []);
    return rows.map((row) => ({ organizationId: Number(row.organization_id), workflowId: Number(row.workflow_id), xid: row.xid, caseId: row.case_id }));
  }

  async sourceDigests(tx: Transaction, cases: readonly CaseKey[]): Promise<Map<number, string>> {
    if (!cases.length) return new Map();
    const rows = await rowsIn(tx, SOURCE_DIGESTS, [cases.map((c) => c.organizationId), cases.map((c) => c.caseId)]);
    return new Map(rows.map((row) => [Number(row.case_id), row.source_digest]));
  }

  async save(tx: Transaction, documents: readonly CaseDocument[], positions: readonly IndexedPosition[]): Promise<void> {
    if (documents.length) await rowsIn(tx, SAVE_DOCUMENTS, [JSON.stringify(documents.map(documentRow))]);
    if (positions.length) {
      await rowsIn(tx, SAVE_POSITIONS, [
        positions.map((p) => p.organizationId),
        positions.map((p) => p.workflowId),
        positions.map((p) => p.xid),
        positions.map((p) => p.caseId),
      ]);
    }
  }

  async saveUnlessRefused(tx: Transaction, document: CaseDocument): Promise<string | undefined> {
    // Through TypeORM's query(): this runs only after a batch was refused, where planning time does not count.
    const manager = entityManager(tx);
    await rowsOf(manager, SET_SAVEPOINT);
    try {
      await rowsIn(tx, SAVE_DOCUMENTS, [JSON.stringify([documentRow(document)])]);
    } catch (err) {
      const refused = refusedDataState(err);
      if (refused === undefined) throw err;
      await rowsOf(manager, ROLLBACK_TO_SAVEPOINT);
      return refused;
    }
    await rowsOf(manager, RELEASE_SAVEPOINT);
    return undefined;
  }
}

/** A document as SAVE_DOCUMENTS reads it; `fields` keeps each value with its pointer and identifiers, for snippets. */
function documentRow(document: CaseDocument): Record<string, unknown> {
  const texts = identified(document.texts);
  const byField = fieldTexts(texts);
  return {
    organization_id: document.organizationId,
    case_id: document.caseId,
    workflow_id: document.workflowId,
    fields: JSON.stringify(texts.map((t) => ({ f: t.field, p: t.pointer, t: t.text, i: t.identifiers }))),
    subject: byField.subject.text,
    subject_ids: byField.subject.identifiers,
    attributes: byField.attributes.text,
    attribute_ids: byField.attributes.identifiers,
    email: byField.email.text,
    email_ids: byField.email.identifiers,
    comment: byField.comment.text,
    comment_ids: byField.comment.identifiers,
    source_digest: `\\x${document.sourceDigest}`,
  };
}
