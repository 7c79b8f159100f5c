/**
 * The search index's documents on a database of its own: a case whose words did not change (its
 * status, its assignee, a run's step did) keeps its stored document, vectors and row version as
 * they were; a change of its words rewrites them, and a new source digest is stored even when
 * the words are the same (a non-searchable attribute changed), so the indexer's next look at the
 * case finds it current. A document's texts are stored as the JSON text the indexer sent; one
 * stored as jsonb (before migration 1765700000000, or by the release before it) still gives its
 * snippets and is rewritten when its case comes again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SAVE_DOCUMENTS } from '../../src/modules/search/infrastructure/postgres-search-index-store.js';
import { MATCHES } from '../../src/modules/search/infrastructure/postgres-search-reads.js';
import { type IsolatedDatabase, isolatedDatabase } from '../support/automation-helpers.js';

const ORG = 1;
const CASE = 42;
const WORKFLOW = 7;

describe('search documents', () => {
  let database: IsolatedDatabase;
  before(async () => {
    database = await isolatedDatabase();
  });
  after(() => database.drop());

  /** The document of a case whose only text is its subject, as the indexer hands it over. */
  const document = (subject: string, workflowId = WORKFLOW, digest = 'ab'.repeat(32)) => ({
    organization_id: ORG, case_id: CASE, workflow_id: workflowId, fields: JSON.stringify([{ f: 'subject', p: '', t: subject, i: [] }]),
    subject, subject_ids: [], attributes: '', attribute_ids: [], email: '', email_ids: [], comment: '', comment_ids: [], source_digest: `\\x${digest}`,
  });
  const save = (subject: string, workflowId?: number, digest?: string) => database.pool.query(SAVE_DOCUMENTS.text, [JSON.stringify([document(subject, workflowId, digest)])]);
  const stored = async () =>
    (await database.pool.query<{ version: string; words: string; workflow_id: string; digest: string }>(
      `SELECT xmin::text AS version, subject_text::text AS words, workflow_id, encode(source_digest, 'hex') AS digest
       FROM case_search_documents WHERE organization_id = $1 AND case_id = $2`,
      [ORG, CASE],
    )).rows;

  it('rewrites a case\'s document only when its words or its workflow change', async () => {
    await save('Printer on fire');
    const [first] = await stored();
    assert.match(first!.words, /'printer'/);

    await save('Printer on fire');
    assert.deepEqual(await stored(), [first], 'the same words: the stored row is not touched');

    await save('Printer repaired');
    const [second] = await stored();
    assert.notEqual(second!.version, first!.version);
    assert.match(second!.words, /'repair'/);
    assert.doesNotMatch(second!.words, /'fire'/);

    await save('Printer repaired', WORKFLOW + 1);
    const [third] = await stored();
    assert.notEqual(third!.version, second!.version);
    assert.equal(third!.workflow_id, String(WORKFLOW + 1));
    assert.equal(third!.digest, 'ab'.repeat(32));

    await save('Printer repaired', WORKFLOW + 1, 'cd'.repeat(32));
    const [fourth] = await stored();
    assert.notEqual(fourth!.version, third!.version, 'the same words from other sources: the digest is stored');
    assert.equal(fourth!.digest, 'cd'.repeat(32));
    assert.equal(fourth!.words, third!.words);
  });

  it('builds each field\'s vector once, however many of the stored vectors hold it', async () => {
    const [plan] = (await database.pool.query<{ 'QUERY PLAN': string[] }>(`EXPLAIN (VERBOSE, COSTS OFF, FORMAT JSON) ${SAVE_DOCUMENTS.text}`, [JSON.stringify([document('Printer on fire')])])).rows;
    const built = JSON.stringify(plan!['QUERY PLAN']).match(/\bto_tsvector\(/g) ?? [];
    assert.equal(built.length, 4, 'one to_tsvector for each of subject, attributes, email and comment');
  });

  it('stores the texts as the indexer sent them, and rewrites a document whose texts were stored as jsonb', async () => {
    const texts = async () =>
      (await database.pool.query<{ version: string; fields: unknown; fields_json: string | null }>(
        `SELECT xmin::text AS version, fields, fields_json::text AS fields_json FROM case_search_documents WHERE organization_id = $1 AND case_id = $2`,
        [ORG, CASE],
      )).rows[0]!;
    const snippets = async () =>
      (await database.pool.query<{ pointer: string; snippet: string }>(MATCHES.text, [ORG, [CASE], `'toner'`, `'toner'`, ['subject']])).rows.map((r) => [r.pointer, r.snippet]);

    await save('Toner low', WORKFLOW, 'ef'.repeat(32));
    const written = await texts();
    assert.equal(written.fields, null);
    assert.equal(written.fields_json, document('Toner low').fields, 'the text as sent, byte for byte');
    assert.deepEqual(await snippets(), [['', '[[Toner]] low']]);

    // As the release before migration 1765700000000 left it.
    await database.pool.query(`UPDATE case_search_documents SET fields = fields_json::jsonb, fields_json = NULL WHERE organization_id = $1 AND case_id = $2`, [ORG, CASE]);
    const old = await texts();
    assert.deepEqual(await snippets(), [['', '[[Toner]] low']], 'snippets from the jsonb texts');

    await save('Toner low', WORKFLOW, 'ef'.repeat(32));
    const rewritten = await texts();
    assert.notEqual(rewritten.version, old.version, 'the same words, but stored as jsonb: rewritten');
    assert.equal(rewritten.fields, null);
    assert.equal(rewritten.fields_json, document('Toner low').fields);
  });
});
