import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ReplicaReads } from '../../../shared/database/replica-reads.js';
import { column } from '../../../shared/database/typed-statement.js';
import { prepared, statement } from './persistence.js';
import type { SearchScope, SearchTier } from '../../cases/domain/case-text-search.js';
import { type FoundMatch, SearchReads } from '../application/search.ports.js';
import type { SearchField } from '../domain/search-document.js';
import type { SearchQueries, TermInput, TermQuery } from '../domain/term-queries.js';

/**
 * Each term as Postgres makes it a tsquery (TermInput says which way), printed as text: the
 * list statements take it back as a `tsquery` parameter, whose input reads the quoted lexemes
 * Postgres printed and nothing else. A term of stop words only prints as ''.
 *
 * A plain-text term is `common` when each of its lexemes is in at least COMMON_SHARE of the
 * documents by the column statistics ANALYZE keeps (most_common_elems of all_text, every
 * organization's documents together): the index is then read without it (SearchQueries.driver).
 * Without statistics no term is common. Prefixes and identifiers are never counted common.
 */
const COMMON_SHARE = 0.05;
export const TERM_QUERIES = statement(
  `
  WITH common AS (
    SELECT coalesce(array_agg(u.lexeme) FILTER (WHERE u.lexeme IS NOT NULL AND u.share >= ${COMMON_SHARE}), '{}') AS lexemes
    FROM pg_stats s CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS u(lexeme, share)
    WHERE s.schemaname = current_schema() AND s.tablename = 'case_search_documents' AND s.attname = 'all_text'
  )
  SELECT (CASE t.kind WHEN 'text' THEN phraseto_tsquery('cis_search', t.v)
                      WHEN 'stemmed' THEN to_tsquery('cis_search', t.v)
                      ELSE t.v::tsquery END)::text AS query,
         coalesce(phraseto_tsquery('cis_search', t.h)::text, '') AS highlight,
         t.kind = 'text' AND l.lexemes <> '{}' AND l.lexemes <@ (SELECT lexemes FROM common) AS common
  FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS t(kind, v, h, n)
  CROSS JOIN LATERAL (SELECT CASE t.kind WHEN 'text' THEN tsvector_to_array(to_tsvector('cis_search', t.v)) ELSE '{}' END AS lexemes) l
  ORDER BY t.n`,
  { query: column.text, highlight: column.text, common: column.bool },
);

/**
 * The first value of each page case, in relevance order, that holds a positive term, with
 * ts_headline's snippet of it (matched words between `[[` and `]]`). Only the page's cases, and
 * at most MAX_DOCUMENT_CHARS of each (search-document.ts), are read. A document's texts are in
 * `fields_json`, or in `fields` if it was written before migration 1765700000000 or by the
 * release before it, while that release still ran: then `fields` is the newer of the two.
 */
export const MATCHES = statement(
  `
  SELECT m.case_id, m.field, m.pointer,
         ts_headline('cis_search', m.text, $4::tsquery, 'StartSel=[[, StopSel=]], MaxWords=24, MinWords=8, ShortWord=2, MaxFragments=1, FragmentDelimiter=" … "') AS snippet
  FROM (
    SELECT DISTINCT ON (d.case_id) d.case_id, v.f AS field, v.p AS pointer, v.t AS text
    FROM case_search_documents d CROSS JOIN LATERAL json_array_elements(coalesce(d.fields::json, d.fields_json)) WITH ORDINALITY AS e(value, n)
    CROSS JOIN LATERAL json_to_record(e.value) AS v(f text, p text, t text, i text[])
    WHERE d.organization_id = $1 AND d.case_id = ANY($2::bigint[]) AND v.f = ANY($5::text[])
      AND (to_tsvector('cis_search', v.t) || array_to_tsvector(v.i)) @@ $3::tsquery
    ORDER BY d.case_id, e.n
  ) m`,
  { case_id: column.int8, field: column.textOf<SearchField>(), pointer: column.text, snippet: column.text },
);

/** The vector a scope searches: the cases API never reads messages or comments. */
const SCOPE_TEXT: Record<SearchScope, string> = { admin: 'all_text', api: 'case_text' };
const SCOPE_FIELDS: Record<SearchScope, SearchField[]> = { admin: ['subject', 'attributes', 'email', 'comment'], api: ['subject', 'attributes'] };

/**
 * `vector` matches the whole query: found through the index with the driver, the rest checked on
 * the rows it found (ts_match_vq is `@@` as a function, which no index serves).
 */
const matchingWhole = (vector: string, driver: string, all: string | null) =>
  all === null ? `${vector} @@ ${driver}::tsquery` : `${vector} @@ ${driver}::tsquery AND ts_match_vq(${vector}, ${all}::tsquery)`;

/** The case's document, matching the whole query in the scope's vector, and `where` (on the positive terms). */
const documentMatching = (scope: SearchScope, whole: (vector: string) => string, where: string) =>
  `EXISTS (SELECT 1 FROM case_search_documents d WHERE d.organization_id = cases.organization_id AND d.case_id = cases.id
            AND ${whole(`d.${SCOPE_TEXT[scope]}`)} AND ${where})`;

/**
 * Subject first (the positive terms all match it), then the attributes (they all match the
 * subject and attributes together, not the subject alone), then messages and comments (the
 * rest). The tiers are disjoint, and each depends on the document alone, so a case keeps its
 * tier from page to page.
 *
 * Tiers 3 and 2 are an EXISTS on the case's document: Postgres walks the list's index newest
 * first when many cases match (the page fills after a few dozen), or takes a vector's GIN
 * bitmap when few do. Which one it takes follows its estimate, and `NOT subject_text @@ q`
 * looks as if it kept most of what `case_text @@ q` finds even when the subject holds every
 * match (the vectors overlap): the walk would then read every case of the organization for an
 * empty tier (measured: 0.8 s at 120,000 cases). So tier 2 also names what it implies, a
 * positive term in the attributes' own vector, whose estimate is honest (nothing, for a word no
 * attribute holds). Tier 1 runs only to fill a page the others left short, where the messages
 * often repeat the subject (a reply's `Re: ...`): it reads its matches through the GIN bitmap
 * into an array, bounded by how many documents match, never by the organization's size.
 */
export function searchTiers(organizationId: number, queries: SearchQueries, scope: SearchScope): SearchTier[] {
  // A parameter is bound only where the condition uses it: Postgres cannot type an unused one.
  const whole = (param: (value: unknown) => string) => {
    const driver = param(queries.driver);
    const all = queries.all === queries.driver ? null : param(queries.all);
    return (vector: string) => matchingWhole(vector, driver, all);
  };
  const tier = (rank: number, where: (positive: string, any: () => string) => string): SearchTier => ({
    rank,
    condition: (param) => documentMatching(scope, whole(param), where(`${param(queries.positive)}::tsquery`, () => `${param(queries.anyPositive)}::tsquery`)),
  });
  const tiers = [
    tier(3, (p) => `d.subject_text @@ ${p}`),
    tier(2, (p, any) => `d.case_text @@ ${p} AND NOT d.subject_text @@ ${p} AND d.attributes_text @@ ${any()}`),
  ];
  if (scope === 'api') return tiers;
  const messagesOnly: SearchTier = {
    rank: 1,
    condition: (param) =>
      `cases.id = ANY (ARRAY(SELECT d.case_id FROM case_search_documents d WHERE d.organization_id = ${param(organizationId)}
                             AND ${whole(param)('d.all_text')} AND NOT d.case_text @@ ${param(queries.positive)}::tsquery))`,
  };
  return [...tiers, messagesOnly];
}

@Injectable()
export class PostgresSearchReads extends SearchReads {
  private readonly prepared: ReturnType<typeof prepared>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly replicaReads: ReplicaReads,
  ) {
    super();
    this.prepared = prepared(dataSource);
  }

  async termQueries(inputs: readonly TermInput[]): Promise<Omit<TermQuery, 'exclude'>[]> {
    return this.prepared.rows(TERM_QUERIES, [inputs.map((i) => i.kind), inputs.map((i) => i.value), inputs.map((i) => i.highlight)]);
  }

  tiers(organizationId: number, queries: SearchQueries, scope: SearchScope): SearchTier[] {
    return searchTiers(organizationId, queries, scope);
  }

  async matches(organizationId: number, caseIds: readonly number[], queries: SearchQueries, scope: SearchScope): Promise<FoundMatch[]> {
    if (!caseIds.length) return [];
    const rows = await this.replicaReads.rows(organizationId, MATCHES, [organizationId, caseIds, queries.anyPositive, queries.highlight, SCOPE_FIELDS[scope]]);
    // ts_headline marks `A-1043` as the parser splits it: [[A]][[-1043]].
    return rows.map((row) => ({ caseId: Number(row.case_id), field: row.field, pointer: row.pointer, snippet: row.snippet.replaceAll(']][[', '') }));
  }
}
