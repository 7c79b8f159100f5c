/**
 * How Postgres can read the search's first tier (the positive words all in the subject), on a
 * database of its own with 20,000 cases of bench/search.ts's shape: ten subjects, and a word of a
 * thousand in each case's notes. The subject's GIN index holds its words alone (migration
 * 1765800000000): led by the organization like the whole text's, the two index conditions shared
 * `organization_id = $1`, and Postgres never ANDs such bitmaps. At the bench's million cases it then
 * read the 20,600 documents a prefix of notes words matched to check their subjects, where the ANDed
 * bitmaps read none (docs/search.md; the bench report's EXPLAIN ANALYZE shows it at that size, which
 * a test database cannot: at 20,000 the subject's index alone is cheapest, either way).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SearchScope, SearchTier } from '../../src/modules/cases/domain/case-text-search.js';
import { CaseSearchService } from '../../src/modules/search/application/case-search.service.js';
import { type FoundMatch, SearchReads } from '../../src/modules/search/application/search.ports.js';
import type { SearchQueries, TermInput, TermQuery } from '../../src/modules/search/domain/term-queries.js';
import { searchTiers, TERM_QUERIES } from '../../src/modules/search/infrastructure/postgres-search-reads.js';
import { type IsolatedDatabase, isolatedDatabase } from '../support/automation-helpers.js';

const ORG = 1;
const CASES = 20_000;

const BUILD = `
  WITH g AS (
    SELECT g, (ARRAY['Refund request', 'Invoice question', 'Delivery delayed', 'Damaged parcel', 'Account locked',
                     'Password reset', 'Billing error', 'Order cancelled', 'Address change', 'Warranty claim'])[g % 10 + 1] AS subject,
           'kw' || translate(lpad((g % 1000)::text, 3, '0'), '0123456789', 'abcdefghij') AS note_word
    FROM generate_series(1, ${CASES}) AS g
  ), inserted AS (
    INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes, created_at, updated_at)
    SELECT $1, 1, 1, g.subject, 'Open', 'live', 'Webhook', jsonb_build_object('notes', 'The ' || g.note_word || ' arrived late'),
           now() - (${CASES} - g.g) * interval '1 second', now() - (${CASES} - g.g) * interval '1 second'
    FROM g RETURNING id, organization_id, subject, attributes->>'notes' AS notes
  )
  INSERT INTO case_search_documents (organization_id, case_id, workflow_id, subject_text, case_text, all_text, attributes_text, fields_json)
  SELECT i.organization_id, i.id, 1, v.s, v.s || v.a, v.s || v.a, v.a, '[]'::json
  FROM inserted i CROSS JOIN LATERAL (
    SELECT setweight(to_tsvector('cis_search', i.subject), 'A') AS s, setweight(to_tsvector('cis_search', i.notes), 'B') AS a
  ) v`;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Exact Heap Blocks'?: number;
  'Lossy Heap Blocks'?: number;
  Plans?: PlanNode[];
}

const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** The service's own term queries and tiers, on the test's pool (PostgresSearchReads wants the app's data source). */
class SearchReadsOnPool extends SearchReads {
  constructor(private readonly database: IsolatedDatabase) {
    super();
  }

  async termQueries(inputs: readonly TermInput[]): Promise<Omit<TermQuery, 'exclude'>[]> {
    const values = [inputs.map((i) => i.kind), inputs.map((i) => i.value), inputs.map((i) => i.highlight)];
    return (await this.database.pool.query<Omit<TermQuery, 'exclude'>>(TERM_QUERIES.text, values)).rows;
  }

  tiers(organizationId: number, queries: SearchQueries, scope: SearchScope): SearchTier[] {
    return searchTiers(organizationId, queries, scope);
  }

  matches(): Promise<FoundMatch[]> {
    throw new Error('no snippets in these tests');
  }
}

describe('search tier plans', () => {
  let database: IsolatedDatabase;
  before(async () => {
    database = await isolatedDatabase();
    await database.pool.query(BUILD, [ORG]);
    await database.pool.query('ANALYZE cases, case_search_documents');
  });
  after(() => database.drop());

  /** The first tier's statement for `q`, as the service prepares it, in the list statement's shape. */
  const firstTier = async (q: string) => {
    const prepared = await new CaseSearchService(new SearchReadsOnPool(database)).prepare(ORG, q, 'admin');
    assert.ok('tiers' in prepared, q);
    const values: unknown[] = [ORG];
    const condition = prepared.tiers[0]!.condition((value) => `$${values.push(value)}`);
    return { sql: `SELECT id FROM cases WHERE organization_id = $1 AND ${condition} ORDER BY created_at DESC, id DESC LIMIT 26`, values };
  };

  /**
   * EXPLAIN ANALYZE of the statement with sequential scans priced out: at 20,000 small documents
   * reading the whole table is cheapest, where at the bench's million (3.7 GB) it is out of the question.
   */
  const explained = async (sql: string, values: unknown[]): Promise<PlanNode> => {
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const { rows: [row] } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, values);
      return row!['QUERY PLAN'][0].Plan;
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  };

  it("has the subjects' index by their words alone, so Postgres can AND it with the organization's whole-text index", async () => {
    const { rows } = await database.pool.query<{ name: string; definition: string }>(
      `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS definition FROM pg_index
       WHERE indrelid = 'case_search_documents'::regclass AND NOT indisprimary ORDER BY 1`,
    );
    assert.deepEqual(rows.map((r) => [r.name, r.definition.replace(/^.* USING /, '')]), [
      ['case_search_all', 'gin (organization_id, all_text)'],
      ['case_search_attributes', 'gin (organization_id, attributes_text)'],
      ['case_search_case', 'gin (organization_id, case_text)'],
      ['case_search_subject_words', 'gin (subject_text)'],
    ]);
  });

  it('reads no document for a prefix of the notes that no subject holds', async () => {
    const { sql, values } = await firstTier('kwbc*');
    assert.deepEqual((await database.pool.query(sql, values)).rows, [], 'no subject holds a kwbc word');

    const plan = await explained(sql, values);
    const documentReads = nodes(plan).filter((n) => n['Relation Name'] === 'case_search_documents');
    assert.ok(documentReads.length, JSON.stringify(plan));
    for (const read of documentReads) assert.equal(read['Node Type'], 'Bitmap Heap Scan', `through the indexes, not case by case: ${JSON.stringify(plan)}`);
    const blocks = documentReads.reduce((sum, n) => sum + (n['Exact Heap Blocks'] ?? 0) + (n['Lossy Heap Blocks'] ?? 0), 0);
    assert.equal(blocks, 0, `the subject's empty bitmap leaves no document to read: ${JSON.stringify(plan)}`);
  });

  it('still finds the cases whose subject holds the words, newest first', async () => {
    const { sql, values } = await firstTier('refu*');
    const { rows } = await database.pool.query<{ id: string }>(sql, values);
    const { rows: expected } = await database.pool.query<{ id: string }>(
      `SELECT id FROM cases WHERE organization_id = $1 AND subject = 'Refund request' ORDER BY created_at DESC, id DESC LIMIT 26`,
      [ORG],
    );
    assert.equal(rows.length, 26);
    assert.deepEqual(rows, expected);
  });
});
