/**
 * Full-text search at size (search.md §2, docs/search.md): one organization of
 * BENCH_SEARCH_CASES cases (1,000,000 by default) with webhook-like attributes and one email
 * reply each, built once in bulk (generate_series, the documents written by the same SQL the
 * indexer runs, for this data's shape), then the first page (25, the admin list's default) of
 * each query kind below, one request at a time, BENCH_SEARCH_SAMPLES times: p50 and p95, and
 * EXPLAIN ANALYZE of the statements of each kind's first page.
 *
 * The searches go to a process of their own (ROLE=all, so its indexer follows the feed, as in
 * production) whose list-read budget is raised: what is measured is a search's cost, and the
 * budget would refuse a client searching back to back (a fortieth of a core by default).
 */
import { freePort } from '../scripts/local-infra.js';
import type { BenchContext } from './context.js';
import { nodeArgs, sleep, startNode } from './procs.js';
import { parseSearchQuery } from '../src/modules/search/domain/search-query.js';
import { combineTermQueries, termInput } from '../src/modules/search/domain/term-queries.js';
import { searchTiers, TERM_QUERIES } from '../src/modules/search/infrastructure/postgres-search-reads.js';
import { call, createOrganization, publishWorkflow } from './setup.js';

/** What each kind asks for, and how many of the cases it matches at the default size. */
export const SEARCH_KINDS = {
  oneWord: { q: 'kwbcd', matches: '0.1 % (a word of the notes)' },
  twoWords: { q: 'damaged kwbcd', matches: '0.01 % (a subject word and a notes word)' },
  identifier: { q: 'ORD-123457', matches: 'one case (a nested attribute)' },
  prefix: { q: 'kwbc*', matches: '1 % (ten words of the notes)' },
  common: { q: 'refund', matches: '10 % (100,000 of 1,000,000: a subject word)' },
  email: { q: 'tracking kwbcd', matches: '0.1 % (a word of the replies and one of the notes)' },
} as const;
export type SearchKind = keyof typeof SEARCH_KINDS;

export interface SearchResult {
  cases: number;
  buildSec: number;
  /** First page, ms, per kind. */
  latencyMs: Record<SearchKind, { p50: number; p95: number; found: number }>;
  plans: string;
}

const BATCH = 50_000;
const SUBJECTS = ['Refund request', 'Invoice question', 'Delivery delayed', 'Damaged parcel', 'Account locked', 'Password reset', 'Billing error', 'Order cancelled', 'Address change', 'Warranty claim'];
const NAMES = ['Müller', 'Dupont', 'García', 'Rossi', 'Nowak', 'Smith', 'Jensen', 'Silva', 'Kowalski', 'Novák', 'Öztürk', 'Johansson', 'Fischer'];

const sqlArray = (values: readonly string[]) => `(ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}])`;
/** A word of letters only for `n` (0-999): kw + three letters, so `kwbcd` is one of a thousand. */
const WORD = (n: string) => `'kw' || translate(lpad((${n})::text, 3, '0'), '0123456789', 'abcdefghij')`;

/** The identifiers of some texts (identifiersOf, in SQL, for this data: no accented identifier). */
const IDENTIFIERS = (texts: string) =>
  `ARRAY(SELECT DISTINCT lower(m[1]) FROM unnest(${texts}) AS t(text), regexp_matches(t.text, '([[:alnum:]]+(?:[-_./][[:alnum:]]+)*)', 'g') AS m WHERE m[1] ~ '[0-9]')`;

/**
 * One batch: the cases, their replies and their documents, in one statement. The documents are
 * what the indexer writes for this shape (subject A; attribute values B; the reply's subject
 * and text C; identifiers as whole lexemes), with `fields_json` in relevance order.
 */
const BUILD_SQL = `
  WITH g AS (
    SELECT g, ${sqlArray(SUBJECTS)}[g % ${SUBJECTS.length} + 1] || ' from ' || ${sqlArray(NAMES)}[g % ${NAMES.length} + 1] AS subject,
           ${WORD('g % 1000')} AS note_word, ${WORD('(g / 1000) % 1000')} AS reply_word
    FROM generate_series($4::int, $5::int) AS g
  ), inserted AS (
    INSERT INTO cases (organization_id, workflow_id, workflow_version, subject, status, mode, source, attributes, created_at, updated_at)
    SELECT $1, $2, $3, g.subject, 'Open', 'live', 'Webhook',
           jsonb_build_object(
             'order', jsonb_build_object('id', 'ORD-' || g.g, 'total', (g.g % 997) + 0.5,
                                         'lines', jsonb_build_array(jsonb_build_object('sku', 'SKU-' || (g.g % 5000), 'qty', g.g % 7 + 1))),
             'customer', jsonb_build_object('name', ${sqlArray(NAMES)}[g.g % ${NAMES.length} + 1], 'email', 'c' || g.g || '@example.com'),
             'channel', 'web', 'notes', 'Customer says the ' || g.note_word || ' arrived after the promised date'),
           now() - ($5::int - g.g) * interval '1 second', now() - ($5::int - g.g) * interval '1 second'
    FROM g RETURNING id, organization_id, workflow_id, subject, attributes
  ), replies AS (
    INSERT INTO case_events (case_id, type, actor, data)
    SELECT i.id, 'email_received', 'email', jsonb_build_object('subject', 'Re: ' || i.subject, 'text', 'Any news? The tracking page shows ' || g.reply_word || ' since Monday.')
    FROM inserted i JOIN g ON 'ORD-' || g.g = i.attributes->'order'->>'id'
    RETURNING id, case_id, data
  ), parts AS (
    SELECT i.organization_id, i.id AS case_id, i.workflow_id, i.subject, r.id AS reply_id, r.data->>'subject' AS reply_subject, r.data->>'text' AS reply_text,
           ARRAY[i.attributes->'order'->>'id', i.attributes->'order'->>'total', i.attributes->'order'->'lines'->0->>'sku', i.attributes->'order'->'lines'->0->>'qty',
                 i.attributes->'customer'->>'name', i.attributes->'customer'->>'email', i.attributes->>'channel', i.attributes->>'notes'] AS values,
           ARRAY['/order/id', '/order/total', '/order/lines/0/sku', '/order/lines/0/qty', '/customer/name', '/customer/email', '/channel', '/notes'] AS pointers
    FROM inserted i JOIN replies r ON r.case_id = i.id
  )
  INSERT INTO case_search_documents (organization_id, case_id, workflow_id, subject_text, case_text, all_text, attributes_text, fields_json)
  SELECT p.organization_id, p.case_id, p.workflow_id, v.s, v.s || v.a, v.s || v.a || v.e, v.a,
         (jsonb_build_array(jsonb_build_object('f', 'subject', 'p', '', 't', p.subject, 'i', '[]'::jsonb))
         || (SELECT jsonb_agg(jsonb_build_object('f', 'attributes', 'p', p.pointers[k], 't', p.values[k], 'i', to_jsonb(${IDENTIFIERS('ARRAY[p.values[k]]')})) ORDER BY k)
             FROM generate_subscripts(p.values, 1) AS k)
         || jsonb_build_array(jsonb_build_object('f', 'email', 'p', '/replies/' || p.reply_id || '/subject', 't', p.reply_subject, 'i', '[]'::jsonb),
                              jsonb_build_object('f', 'email', 'p', '/replies/' || p.reply_id || '/text', 't', p.reply_text, 'i', '[]'::jsonb)))::json
  FROM parts p CROSS JOIN LATERAL (
    SELECT setweight(to_tsvector('cis_search', p.subject), 'A') AS s,
           setweight(to_tsvector('cis_search', array_to_string(p.values, E'\\n')) || array_to_tsvector(${IDENTIFIERS('p.values')}), 'B') AS a,
           setweight(to_tsvector('cis_search', p.reply_subject || E'\\n' || p.reply_text), 'C') AS e
  ) v`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runSearch(ctx: BenchContext, log: (line: string) => void): Promise<SearchResult> {
  const size = Math.round(Number(process.env.BENCH_SEARCH_CASES ?? 1_000_000));
  const samples = Math.round(Number(process.env.BENCH_SEARCH_SAMPLES ?? 40));
  const port = await freePort();
  const searcher = startNode('search', nodeArgs('search', ctx.config.serviceEntry, ctx.config.serviceNodeFlags), {
    ...ctx.serviceEnv,
    ROLE: 'all',
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LIST_READ_DATABASE_MS_PER_SECOND: '100000',
    SMTP_PORT: String(await freePort()),
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      if (searcher.exited()) throw new Error(`the search process exited:\n${searcher.output()}`);
      if ((await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200) break;
      if (i > 600) throw new Error('the search process did not get ready');
      await sleep(100);
    }
    const operatorToken = ctx.serviceEnv.OPERATOR_TOKEN!;
    const org = await createOrganization(base, operatorToken, 'Search bench');
    const workflowId = await publishWorkflow(base, org.adminToken, { name: 'Search bench', case_source: 'direct', sensitive_data: false, attributes: {}, automations: {} });
    const { rows: [version] } = await ctx.db.query<{ version: number }>('SELECT version FROM workflows WHERE id = $1', [workflowId]);

    const started = Date.now();
    for (let next = 1; next <= size; next += BATCH) {
      const last = Math.min(size, next + BATCH - 1);
      await ctx.db.query(BUILD_SQL, [org.organizationId, workflowId, version!.version, next, last]);
      if (last % 200_000 === 0 || last === size) log(`    ${last.toLocaleString('en-US')} cases with their replies and documents`);
    }
    // The indexer goes on from the last case built: every one has its document already.
    await ctx.db.query(
      `INSERT INTO case_search_positions (organization_id, workflow_id, change_xid, case_id)
       SELECT organization_id, workflow_id, change_xid, id FROM cases WHERE workflow_id = $1 ORDER BY change_xid DESC, id DESC LIMIT 1
       ON CONFLICT (organization_id, workflow_id) DO UPDATE SET change_xid = EXCLUDED.change_xid, case_id = EXCLUDED.case_id`,
      [workflowId],
    );
    await ctx.db.query('VACUUM ANALYZE cases');
    await ctx.db.query('VACUUM ANALYZE case_search_documents');
    const buildSec = (Date.now() - started) / 1000;
    log(`  built ${size.toLocaleString('en-US')} cases in ${buildSec.toFixed(0)} s`);

    const latencyMs = {} as SearchResult['latencyMs'];
    for (const [kind, { q }] of Object.entries(SEARCH_KINDS) as [SearchKind, { q: string }][]) {
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < samples + 3; i++) {
        const t0 = performance.now();
        const page = await call(base, 'GET', `/api/admin/v1/cases?q=${encodeURIComponent(q)}`, org.adminToken);
        const elapsed = performance.now() - t0;
        if (i >= 3) times.push(elapsed);
        found = page.cases.length;
      }
      times.sort((a, b) => a - b);
      latencyMs[kind] = { p50: percentile(times, 50), p95: percentile(times, 95), found };
      log(`  ${kind.padEnd(10)} q=${q.padEnd(16)} first page: p50 ${latencyMs[kind].p50.toFixed(1)} ms, p95 ${latencyMs[kind].p95.toFixed(1)} ms (${found} cases on it)`);
    }
    return { cases: size, buildSec, latencyMs, plans: await explainAll(ctx, org.organizationId) };
  } finally {
    await searcher.stop();
  }
}

/**
 * EXPLAIN ANALYZE of each kind's tier statements, as the service runs them for a first page of
 * 25: the search module's own term queries and tier conditions (driver included, so a common
 * word is left out of the index read as in the service) inside the list statement's shape.
 */
async function explainAll(ctx: BenchContext, organizationId: number): Promise<string> {
  const out: string[] = [];
  const client = await ctx.db.connect();
  try {
    // As the service's connections run (data-source-options.ts): no parallel plans.
    await client.query('SET max_parallel_workers_per_gather = 0');
    for (const [kind, { q }] of Object.entries(SEARCH_KINDS)) {
      const parsed = parseSearchQuery(q);
      if (!parsed.ok) throw new Error(`${kind}: ${parsed.error}`);
      const inputs = parsed.terms.map(termInput);
      const { rows: printed } = await client.query<{ query: string; highlight: string; common: boolean }>(TERM_QUERIES.text, [
        inputs.map((i) => i.kind),
        inputs.map((i) => i.value),
        inputs.map((i) => i.highlight),
      ]);
      const queries = combineTermQueries(printed.map((p, i) => ({ ...p, exclude: parsed.terms[i]!.exclude })))!;
      for (const tier of searchTiers(organizationId, queries, 'admin')) {
        const values: unknown[] = [organizationId];
        const condition = tier.condition((value) => `$${values.push(value)}`);
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT * FROM cases WHERE organization_id = $1 AND ${condition} ORDER BY created_at DESC, id DESC LIMIT 26`,
          values,
        );
        out.push(`-- ${kind} (q=${q}; index read with ${queries.driver}), tier ${tier.rank}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
      }
    }
  } finally {
    await client.query('RESET max_parallel_workers_per_gather').catch(() => undefined);
    client.release();
  }
  return out.join('\n\n');
}

/** The report's section: the first page's p50/p95 per kind against the contract's 150 ms, and the plans. */
export function searchSection(result: SearchResult | null, failure: string | null): string[] {
  const title = '## Full-text search';
  if (!result) return [title, '', `Not measured${failure ? `: ${failure}` : ''}.`, ''];
  const rows = (Object.entries(SEARCH_KINDS) as [SearchKind, { q: string; matches: string }][]).map(([kind, { q, matches }]) => {
    const m = result.latencyMs[kind];
    return `| ${kind} | \`${q}\` | ${matches} | ${m.p50.toFixed(1)} | ${m.p95.toFixed(1)} | ${m.p95 < 150 ? 'yes' : 'no'} |`;
  });
  return [
    title,
    '',
    `${result.cases.toLocaleString('en-US')} cases of one organization (webhook-like attributes, one email reply each), built in ${result.buildSec.toFixed(0)} s; the admin list's first page (25) with \`q\`, one request at a time (search.md §2: p95 under 150 ms).`,
    '',
    '| kind | q | matches | p50 ms | p95 ms | p95 < 150 ms |',
    '| - | - | - | -: | -: | - |',
    ...rows,
    '',
    '```',
    result.plans,
    '```',
    '',
  ];
}
