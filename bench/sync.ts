/**
 * Listing and following cases (integrations.md §1) as the data grows: the cases table is
 * emptied and filled in bulk to 10k and then 1M cases (BENCH_SKIP_1M=1: 10k only), and at each
 * size the cases API's list (first pages with filters, and pages deep in the table by cursor)
 * and change feed (pages from cursors spread over the whole history) are loaded in turn. A page
 * walks an index from its cursor, so pages per second and p99 should not depend on the size.
 */
import { feedCursor, listCursor } from '../src/modules/cases/application/case-cursors.js';
import { type BenchContext, loadTarget } from './context.js';
import { autovacuumDone, fillTo } from './growth.js';
import { bearer } from './http-scenarios.js';
import type { LoadRequest, Measurement } from './load.js';

export type SyncKind = 'listFirst' | 'listDeep' | 'feed';
export const SYNC_KINDS: Record<SyncKind, string> = {
  listFirst: 'list, first page (50, with and without filters)',
  listDeep: 'list, a page deep in the table by cursor (50)',
  feed: 'change feed, a page from a cursor in the history (50)',
};

export interface SyncStep {
  cases: number;
  fillSec: number;
  results: Partial<Record<SyncKind, Measurement>>;
  failures: string[];
  /** EXPLAIN ANALYZE of a feed page and a deep list page at this size. */
  plans: string;
}

const CURSORS = 64;
const PAGE = 50;

/** Cursors at positions spread over the table, as a client that paged or followed to there would hold. */
async function sampledCursors(ctx: BenchContext): Promise<{ list: string[]; feed: string[] }> {
  const { rows } = await ctx.db.query<{ micros: string; id: string; xid: string; purges: string }>(
    `SELECT (extract(epoch FROM created_at) * 1000000)::bigint::text AS micros, id::text, change_xid::text AS xid,
            coalesce((SELECT purges FROM case_feed_purge_counts WHERE workflow_id = $1), 0)::text AS purges
     FROM cases WHERE workflow_id = $1 ORDER BY random() LIMIT $2`,
    [ctx.fixtures.intake.id, CURSORS],
  );
  return {
    list: rows.map((r) => listCursor({ sort: '-created_at', value: r.micros, id: r.id })),
    // One change before each sampled one, so every page has a full 50 to read.
    feed: rows.map((r) => feedCursor({ after: { xid: r.xid, id: String(BigInt(r.id) - 1n) }, purgesSeen: r.purges })),
  };
}

function requests(ctx: BenchContext, cursors: { list: string[]; feed: string[] }): Record<SyncKind, LoadRequest[]> {
  const path = ctx.fixtures.intake.casesPath;
  const get = (query: string): LoadRequest => ({ method: 'GET', path: `${path}${query}`, headers: bearer(ctx) });
  return {
    listFirst: [`?limit=${PAGE}`, `?limit=${PAGE}&status=Open`, `?limit=${PAGE}&mode=live&status=Open,Triage`, `?limit=${PAGE}&created_before=${encodeURIComponent(new Date().toISOString())}`].map(get),
    listDeep: cursors.list.map((c) => get(`?limit=${PAGE}&cursor=${c}`)),
    feed: cursors.feed.map((c) => get(`/changes?limit=${PAGE}&after=${c}`)),
  };
}

async function plans(ctx: BenchContext, cursors: { list: string[]; feed: string[] }): Promise<string> {
  const explain = async (sql: string, params: unknown[]) =>
    (await ctx.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
  const { rows } = await ctx.db.query<{ xid: string; id: string; created_at: Date }>(`SELECT change_xid::text AS xid, id::text, created_at FROM cases WHERE workflow_id = $1 ORDER BY random() LIMIT 1`, [ctx.fixtures.intake.id]);
  const at = rows[0]!;
  const feed = await explain(
    `SELECT id FROM cases WHERE workflow_id = $1 AND (change_xid, id) > ($2::xid8, $3::bigint) AND change_xid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY change_xid, id LIMIT ${PAGE}`,
    [ctx.fixtures.intake.id, at.xid, at.id],
  );
  const list = await explain(`SELECT id FROM cases WHERE workflow_id = $1 AND (created_at, id) < ($2, $3::bigint) ORDER BY created_at DESC, id DESC LIMIT ${PAGE + 1}`, [ctx.fixtures.intake.id, at.created_at, at.id]);
  return `feed page:\n${feed}\n\nlist page:\n${list}\n(${cursors.feed.length} feed and ${cursors.list.length} list cursors loaded)`;
}

export async function runSync(ctx: BenchContext, log: (line: string) => void): Promise<SyncStep[]> {
  const sizes = ctx.config.skip1M ? [10_000] : [10_000, 1_000_000];
  await ctx.db.query('TRUNCATE cases CASCADE');
  const steps: SyncStep[] = [];
  for (const size of sizes) {
    log(`  filling the cases table to ${size.toLocaleString('en-US')}`);
    const fillSec = await fillTo(ctx, size, log);
    await autovacuumDone(ctx, log);
    const cursors = await sampledCursors(ctx);
    const step: SyncStep = { cases: size, fillSec, results: {}, failures: [], plans: await plans(ctx, cursors) };
    for (const [kind, loads] of Object.entries(requests(ctx, cursors)) as [SyncKind, LoadRequest[]][]) {
      try {
        const m = await loadTarget(ctx, ctx.targets.service, loads, 200, 16, ctx.config.growthDurationSec);
        step.results[kind] = m;
        log(`  ${size.toLocaleString('en-US')} cases ${kind.padEnd(9)} ${m.requestsPerSec.toFixed(0).padStart(6)} pages/s  p50 ${m.latencyMs.p50.toFixed(1)} ms  p99 ${m.latencyMs.p99.toFixed(1)} ms`);
      } catch (err) {
        const message = `${kind} at ${size}: ${err instanceof Error ? err.message : String(err)}`;
        step.failures.push(message);
        log(`  FAILED ${message}`);
      }
    }
    steps.push(step);
  }
  return steps;
}
