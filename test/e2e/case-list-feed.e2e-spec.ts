/**
 * Listing a workflow's cases and following their change feed on the cases API
 * (integrations.md §1), over HTTP against the real service, with writers of our own racing the
 * readers: the feed must deliver every change, including one committed late by a transaction
 * that began early, and a sync client following it must end with exactly the database's state.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { PurgePass } from '../../src/modules/retention/application/purge-pass.service.js';
import { RetentionPurges } from '../../src/modules/retention/application/retention.ports.js';
import { RetentionMetrics } from '../../src/modules/retention/infrastructure/retention.metrics.js';
import { CaseRepository } from '../../src/modules/cases/domain/case.repository.js';
import { PublishedWorkflowsService } from '../../src/modules/workflows/application/published-workflows.service.js';
import type { Transaction } from '../../src/shared/database/transaction.js';
import { LOGGER } from '../../src/shared/logging/logger.js';
import { createMetricsRegistry } from '../../src/shared/metrics/metrics.module.js';
import {
  anotherWorkflow, assertCaseResponse, assertErrorBody, CASE_KEYS, type CasesFixture, createdCaseId, getCase, givenCasesWorkflow, patchCase, postRaw,
} from '../support/cases-api.js';
import { nextXid, oldestRunningXid } from '../support/feed-horizon.js';
import { closeDb, db, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';
import { fromDashboard, givenOwner } from '../support/people-helpers.js';

type Case = Record<string, any>;
interface Page { cases: Case[]; next_cursor: string | null }

describe('cases API: list and change feed', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' } }); });
  after(async () => { await t.close(); await closeDb(); });

  const given = () => givenCasesWorkflow(t);
  const get = (f: CasesFixture, path: string, token = f.apiToken) => t.request('GET', `${f.casesPath}${path}`, { token });

  /** A 200 page whose cases have exactly the cases API's fields, each once. */
  function page(res: InjectResult, what: string): Page {
    assert.equal(res.status, 200, `${what}: ${res.text}`);
    assert.deepEqual(Object.keys(res.body), ['cases', 'next_cursor']);
    for (const c of res.body.cases) assert.deepEqual(Object.keys(c).sort(), CASE_KEYS);
    const ids = res.body.cases.map((c: Case) => c.id);
    assert.equal(new Set(ids).size, ids.length, `${what}: each case at most once per page`);
    return res.body;
  }

  const list = async (f: CasesFixture, query = '') => page(await get(f, `?${query}`), `list ?${query}`);
  const ids = async (f: CasesFixture, query: string) => (await list(f, query)).cases.map((c) => c.id);
  const changes = async (f: CasesFixture, after?: string, limit?: number) => {
    const query = [after === undefined ? '' : `after=${after}`, limit === undefined ? '' : `limit=${limit}`].filter(Boolean).join('&');
    const body = page(await get(f, `/changes?${query}`), `changes ?${query}`);
    assert.equal(typeof body.next_cursor, 'string', 'the feed always gives a next_cursor');
    return body as Page & { next_cursor: string };
  };

  /**
   * A sync client: follows the feed from `after` until a page is empty that was read once every
   * transaction that had written when it started following has ended (the feed waits for those;
   * other tests' transactions on the same server may be among them). Returns every case it was
   * given, at the last state it was given, and where it stopped.
   */
  async function follow(f: CasesFixture, after?: string, limit = 7, store = new Map<number, Case>()) {
    const target = await nextXid();
    let cursor = after;
    for (let round = 0; ; round++) {
      assert.ok(round < 100_000, 'the feed caught up');
      const settled = (await oldestRunningXid()) >= target;
      const body = await changes(f, cursor, limit);
      for (const c of body.cases) store.set(c.id, c);
      if (cursor !== undefined && body.cases.length === 0) assert.equal(body.next_cursor, cursor, 'an empty page keeps the cursor');
      cursor = body.next_cursor;
      if (body.cases.length === 0 && settled) return { store, cursor };
      if (body.cases.length === 0) await sleep(5);
    }
  }

  /** The workflow's cases as the cases API shows each, by id. */
  async function currentCases(f: CasesFixture): Promise<Map<number, Case>> {
    const { rows } = await db().query('SELECT id FROM cases WHERE workflow_id = $1 ORDER BY id', [f.workflowId]);
    const found = new Map<number, Case>();
    for (const row of rows) found.set(Number(row.id), assertCaseResponse(await getCase(f, Number(row.id)), 200));
    return found;
  }

  describe('authentication and tenancy', () => {
    it('answers 401 without a token, with an unknown one and with an admin token, on both endpoints', async () => {
      const f = await given();
      for (const path of ['', '/changes']) {
        for (const token of [undefined, `api_${'x'.repeat(43)}`, f.org.adminToken]) {
          const res = await t.request('GET', `${f.casesPath}${path}`, { token });
          assert.equal(res.status, 401, res.text);
          assertErrorBody(res);
        }
      }
    });

    it('answers 404 for another organization\'s workflow and for a workflow that does not exist, and lists only the workflow asked for', async () => {
      const mine = await given();
      const theirs = await given();
      await createdCaseId(theirs);
      const sibling = await anotherWorkflow(mine);
      const siblingCase = await createdCaseId(sibling);
      for (const path of ['', '/changes']) {
        for (const workflowId of [theirs.workflowId, 9_007_199_254_740_991]) {
          const res = await t.request('GET', `/api/external/v1/workflows/${workflowId}/cases${path}`, { token: mine.apiToken });
          assert.equal(res.status, 404, res.text);
          assertErrorBody(res);
        }
      }
      const own = await createdCaseId(mine);
      assert.deepEqual(await ids(mine, ''), [own]);
      assert.deepEqual((await follow(mine)).store.has(siblingCase), false);
    });
  });

  describe('GET /cases', () => {
    it('lists newest first, each case exactly as GET shows it, and applies every filter', async () => {
      const f = await given();
      const gold = await createdCaseId(f, { attributes: { customer: { tier: 'gold', since: 2019 }, tags: ['vip', 'eu'] } });
      const test = await createdCaseId(f, { mode: 'test', attributes: { customer: { tier: 'silver' } } });
      const triagedRes = await postRaw(f, '{"attributes":{"n":12345678901234567890}}');
      assert.equal(triagedRes.status, 201, triagedRes.text);
      const triaged: number = triagedRes.body.case.id;
      const closed = await createdCaseId(f);
      assert.equal((await patchCase(f, triaged, { status: 'Triage' })).status, 200);
      assert.equal((await patchCase(f, closed, { status: 'Closed' })).status, 200);

      const all = await list(f);
      assert.deepEqual(all.cases.map((c) => c.id), [closed, triaged, test, gold]);
      assert.equal(all.next_cursor, null);
      for (const c of all.cases) assert.deepEqual(c, assertCaseResponse(await getCase(f, c.id), 200));
      assert.match((await get(f, '')).text, /"n": ?12345678901234567890\b/, 'attributes are the exact stored text');

      assert.deepEqual(await ids(f, 'status=Triage'), [triaged]);
      assert.deepEqual(await ids(f, 'status=Closed,Triage'), [closed, triaged]);
      assert.deepEqual(await ids(f, 'status=Open,Waiting%20on%20customer'), [test, gold]);
      assert.deepEqual(await ids(f, 'status=Nope'), []);
      assert.deepEqual(await ids(f, 'mode=test'), [test]);
      assert.deepEqual(await ids(f, 'mode=live&status=Open'), [gold]);

      const attributes = (filter: unknown) => `attributes=${encodeURIComponent(JSON.stringify(filter))}`;
      assert.deepEqual(await ids(f, attributes({ customer: { tier: 'gold' } })), [gold], 'nested objects match by containment');
      assert.deepEqual(await ids(f, attributes({ customer: {} })), [test, gold]);
      assert.deepEqual(await ids(f, attributes({ tags: ['eu'] })), [gold]);
      assert.deepEqual(await ids(f, attributes({ customer: { tier: 'gold', since: 2020 } })), []);
      assert.deepEqual(await ids(f, attributes({})), [closed, triaged, test, gold]);
      assert.deepEqual(await ids(f, 'attributes=%7B%22n%22%3A12345678901234567890%7D'), [triaged], 'numbers compare exactly');
      assert.deepEqual(await ids(f, 'attributes=%7B%22n%22%3A12345678901234567891%7D'), []);
      assert.deepEqual(await ids(f, `mode=live&${attributes({ customer: {} })}`), [gold], 'filters combine');
    });

    it('filters by creation and last change time, to the millisecond the cases API shows', async () => {
      const f = await given();
      const cases: number[] = [];
      for (let i = 0; i < 4; i++) cases.push(await createdCaseId(f));
      const [a, b, c, d] = cases as [number, number, number, number];
      // Times set apart (with microseconds the API does not show), so no two cases share a millisecond.
      const times: [number, string, string][] = [
        [a, '2026-03-01T10:00:00.100200Z', '2026-03-05T00:00:00.000900Z'],
        [b, '2026-03-02T10:00:00.100200Z', '2026-03-04T00:00:00.000100Z'],
        [c, '2026-03-03T10:00:00.100000Z', '2026-03-06T00:00:00Z'],
        [d, '2026-03-04T10:00:00.999999Z', '2026-03-03T00:00:00.000500Z'],
      ];
      for (const [id, created, updated] of times) await db().query('UPDATE cases SET created_at = $2, updated_at = $3 WHERE id = $1', [id, created, updated]);
      const shown = async (id: number) => assertCaseResponse(await getCase(f, id), 200);
      assert.equal((await shown(b)).created_at, '2026-03-02T10:00:00.100Z');

      assert.deepEqual(await ids(f, ''), [d, c, b, a]);
      assert.deepEqual(await ids(f, `created_after=${(await shown(b)).created_at}`), [d, c], 'a case\'s own created_at leaves it out');
      assert.deepEqual(await ids(f, `created_before=${(await shown(c)).created_at}`), [b, a]);
      assert.deepEqual(await ids(f, 'created_after=2026-03-01T10:00:00.100Z&created_before=2026-03-04T10:00:00.999Z'), [c, b]);
      assert.deepEqual(await ids(f, 'created_before=2026-03-04T10:00:00.9991Z'), [d, c, b, a]);
      assert.deepEqual(await ids(f, `created_after=${encodeURIComponent('2026-03-02T12:00:00.100+02:00')}`), [d, c], 'offsets are honoured');
      assert.deepEqual(await ids(f, 'created_after=2026-03-02T10:00Z&created_before=2026-03-03T10:00:00.1Z'), [b]);
      assert.deepEqual(await ids(f, 'updated_after=2026-03-04T00:00:00.000Z'), [c, a], 'updated at 00:00:00.000100 shows as .000: not after it');
      assert.deepEqual(await ids(f, 'updated_before=2026-03-05T00:00:00.000Z&updated_after=2026-03-02T00:00:00Z'), [d, b]);
      assert.deepEqual(await ids(f, 'created_after=2999-01-01T00:00:00Z'), []);
      assert.deepEqual(await ids(f, 'created_before=2000-01-01T00:00:00.000001Z'), []);
      const paged: number[] = [];
      let cursor: string | null = null;
      do {
        const body: Page = await list(f, `limit=1&created_after=2026-03-01T12:00:00Z${cursor ? `&cursor=${cursor}` : ''}`);
        paged.push(...body.cases.map((x) => x.id));
        cursor = body.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(paged, [d, c, b], 'cursors keep microseconds exactly');
    });

    it('pages by cursor without repeating or skipping a case, while new cases keep arriving', async () => {
      const f = await given();
      const existing: number[] = [];
      for (let i = 0; i < 11; i++) existing.push(await createdCaseId(f, { attributes: { i } }));
      const seen: number[] = [];
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const body = await list(f, `limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        assert.ok(body.cases.length <= 3);
        seen.push(...body.cases.map((c) => c.id));
        cursor = body.next_cursor;
        pages++;
        await createdCaseId(f, { attributes: { arrived: pages } });
      } while (cursor !== null);
      assert.deepEqual(seen, [...existing].reverse(), 'exactly the cases that existed, newest first, once each');
      assert.deepEqual(await ids(f, 'limit=200&mode=live'), (await ids(f, 'limit=200')), 'a filter keeps its pages too');
    });

    it('pages with filters, and its default page is 50', async () => {
      const f = await given();
      const open: number[] = [];
      for (let i = 0; i < 55; i++) {
        const id = await createdCaseId(f);
        if (i % 5 === 0) assert.equal((await patchCase(f, id, { status: 'Triage' })).status, 200);
        else open.push(id);
      }
      assert.equal((await list(f)).cases.length, 50);
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const body: Page = await list(f, `status=Open&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
        seen.push(...body.cases.map((c) => c.id));
        cursor = body.next_cursor;
      } while (cursor !== null);
      assert.deepEqual(seen, open.reverse());
      assert.equal((await list(f, 'limit=200')).cases.length, 55);
    });

    it('refuses every bad parameter with 422 and an error body', async () => {
      const f = await given();
      await createdCaseId(f);
      const feedCursor = (await changes(f)).next_cursor;
      const bad = [
        'page=2', 'workflow_id=1', 'source=API', 'after=x', 'Status=Open', 'status[]=Open', 'status=Open&status=Closed',
        'status=', 'status=Open,', 'status=,Open', `status=${'x'.repeat(201)}`, `status=${Array.from({ length: 51 }, (_, i) => `s${i}`).join(',')}`, 'status=Open%00',
        'mode=', 'mode=LIVE', 'mode=both', 'mode=live,test',
        'created_after=', 'created_after=yesterday', 'created_after=2024-01-01', 'created_after=2024-01-01T00:00:00', 'created_before=2024-02-30T00:00:00Z',
        'created_before=2023-02-29T00:00:00Z', 'updated_after=2024-13-01T00:00:00Z', 'updated_before=2024-01-01T24:00:00Z', 'updated_after=2024-01-01T00:00:60Z',
        'created_after=2024-01-01T00:00:00.1234567Z', 'created_after=0000-01-01T00:00:00Z', 'created_after=2024-01-01T00:00:00%2B25:00', 'created_after=1700000000',
        'attributes=', 'attributes=x', 'attributes=%5B%5D', 'attributes=null', 'attributes=%22tier%22', 'attributes=%7B', 'attributes=1',
        `attributes=${encodeURIComponent('{"x":"\\u0000"}')}`, `attributes=${encodeURIComponent('{"x":"\\ud800"}')}`, `attributes=${encodeURIComponent('{"x":1e999999}')}`,
        `attributes=${encodeURIComponent(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`)}`, `attributes=${encodeURIComponent(JSON.stringify({ a: 'x'.repeat(8200) }))}`,
        'limit=0', 'limit=201', 'limit=-1', 'limit=1.5', 'limit=abc', 'limit=', 'limit=1e2', 'limit=050',
        'cursor=', 'cursor=abc', 'cursor=-3', 'cursor=12', `cursor=${feedCursor}`, `cursor=${Buffer.from('l.1.1 ').toString('base64url')}`, `cursor=${Buffer.from('l.01.1').toString('base64url')}`,
      ];
      for (const query of bad) {
        const res = await get(f, `?${query}`);
        assert.equal(res.status, 422, `${query}: ${res.status} ${res.text}`);
        assertErrorBody(res);
      }
      for (const query of ['limit=1', 'limit=200', 'status=Open', 'created_after=2024-02-29T23:59:59.999999-14:00', 'updated_before=2999-12-31T23:59Z', `attributes=${encodeURIComponent('{"a":{"b":{"c":[1]}}}')}`]) {
        assert.equal((await get(f, `?${query}`)).status, 200, query);
      }
    });
  });

  describe('GET /cases/changes', () => {
    it('starts at the beginning, gives each changed case once at its state when read, and keeps the cursor when nothing changed', async () => {
      const f = await given();
      const empty = await changes(f);
      assert.deepEqual(empty.cases, []);
      assert.deepEqual((await changes(f, empty.next_cursor)).next_cursor, empty.next_cursor);

      const a = await createdCaseId(f);
      const b = await createdCaseId(f, { attributes: { n: 1 } });
      assert.equal((await patchCase(f, a, { status: 'Triage' })).status, 200);
      assert.equal((await patchCase(f, a, { status: 'Closed' })).status, 200);
      const first = await follow(f, empty.next_cursor);
      assert.deepEqual([...first.store.keys()].sort(), [a, b].sort());
      assert.deepEqual(first.store, await currentCases(f), 'each case at its latest state');
      assert.equal(first.store.get(a)!.outcome, 'Handled');

      const again = await changes(f, first.cursor);
      assert.deepEqual([again.cases, again.next_cursor], [[], first.cursor], 'nothing changed: the same cursor back');

      assert.equal((await patchCase(f, b, { status: 'Waiting on customer' })).status, 200);
      const second = await follow(f, first.cursor);
      assert.deepEqual([...second.store.keys()], [b], 'only the case that changed since the cursor');
      assert.equal(second.store.get(b)!.status, 'Waiting on customer');

      const fromStart = await follow(f);
      assert.deepEqual(fromStart.store, await currentCases(f), 'without after: every case from the start');
    });

    it('orders changes by commit position and pages them, one case per position, with a small limit', async () => {
      const f = await given();
      const created: number[] = [];
      for (let i = 0; i < 9; i++) created.push(await createdCaseId(f));
      assert.equal((await patchCase(f, created[0]!, { status: 'Triage' })).status, 200);
      const pages: number[][] = [];
      let cursor: string | undefined;
      await follow(f); // wait until these writes are all deliverable
      for (;;) {
        const body = await changes(f, cursor, 4);
        if (body.cases.length === 0) break;
        pages.push(body.cases.map((c) => c.id));
        cursor = body.next_cursor;
      }
      assert.deepEqual(pages.flat(), [...created.slice(1), created[0]], 'in the order the changes committed; the moved case last');
      assert.deepEqual(pages.map((p) => p.length), [4, 4, 1]);
    });

    it('delivers a change committed late by a transaction that began early, after a faster one and after a page was read', async () => {
      const f = await given();
      const slow = await createdCaseId(f);
      const fast = await createdCaseId(f);
      const { cursor: start } = await follow(f);

      const repository = t.app.get(CaseRepository);
      const dataSource = t.app.get<DataSource>(getDataSourceToken());
      const version = await t.app.get(PublishedWorkflowsService).version(f.workflowId, 1);
      let began!: () => void;
      let release!: () => void;
      const hasBegun = new Promise<void>((resolve) => { began = resolve; });
      const released = new Promise<void>((resolve) => { release = resolve; });
      // The slow writer: takes the case's row lock (and with it its transaction id) first, writes
      // through the real store statement, and commits only when released.
      const slowWriter = dataSource.transaction(async (manager) => {
        const tx = manager as unknown as Transaction;
        const subject = (await repository.load(tx, [slow])).get(slow)!;
        const [{ xid }] = (await manager.query('SELECT pg_current_xact_id()::text AS xid')) as [{ xid: string }];
        began();
        subject.moveTo('Triage', version, { kind: 'automation' });
        await repository.save(tx, subject);
        await released;
        return BigInt(xid);
      });
      await hasBegun;
      assert.equal((await patchCase(f, fast, { status: 'Closed' })).status, 200);
      const fastXid = BigInt((await db().query('SELECT change_xid::text AS x FROM cases WHERE id = $1', [fast])).rows[0].x);

      const during = await changes(f, start);
      assert.deepEqual(during.cases, [], 'the fast change waits behind the transaction still running');
      assert.equal(during.next_cursor, start, 'the cursor does not pass the transaction still running');

      release();
      const slowXid = await slowWriter;
      assert.ok(slowXid < fastXid, 'the slow transaction began first and committed last');
      const after = await follow(f, during.next_cursor);
      assert.deepEqual([...after.store.keys()], [slow, fast], 'both, in commit-position order');
      assert.equal(after.store.get(slow)!.status, 'Triage');
      assert.equal(after.store.get(fast)!.status, 'Closed');
    });

    it('a sync client following the feed while 20 writers create and move cases ends with exactly the database\'s final state', async () => {
      const f = await given();
      const statuses = ['Open', 'Triage', 'Waiting on customer', 'Closed'];
      let writing = true;
      const writer = async (n: number) => {
        const mine: number[] = [];
        for (let step = 0; step < 12; step++) {
          if (step % 3 === 0 || mine.length === 0) {
            mine.push(await createdCaseId(f, { attributes: { writer: n, step } }));
          } else {
            const target = mine[(n + step) % mine.length]!;
            assert.equal((await patchCase(f, target, { status: statuses[(n * 7 + step) % statuses.length] })).status, 200);
          }
        }
      };
      const client = async () => {
        const store = new Map<number, Case>();
        let cursor: string | undefined;
        let pages = 0;
        while (writing) {
          const body = await changes(f, cursor, 5);
          for (const c of body.cases) store.set(c.id, c);
          cursor = body.next_cursor;
          pages++;
          if (body.cases.length === 0) await sleep(2);
        }
        return { store, cursor, pages };
      };
      const following = client();
      await Promise.all(Array.from({ length: 20 }, (_, n) => writer(n)));
      writing = false;
      const { store, cursor, pages } = await following;
      assert.ok(pages > 1, 'the client read while the writers wrote');
      const final = await follow(f, cursor, 5, store);
      const expected = await currentCases(f);
      assert.equal(expected.size, 20 * 4);
      assert.deepEqual(final.store, expected);
    });

    it('refuses a malformed cursor, a bad limit and any other parameter with 422', async () => {
      const f = await given();
      await createdCaseId(f);
      const { next_cursor: cursor } = await changes(f);
      assert.equal((await changes(f, cursor, 1)).next_cursor.length > 0, true);
      const listCursor = Buffer.from('l.1700000000000000.1').toString('base64url');
      for (const query of [
        'after=', 'after=abc', `after=${listCursor}`, `after=${cursor}.`, `after=${cursor}%3D`, `after=${Buffer.from('f.1.-1.0').toString('base64url')}`, `after=${Buffer.from('f.1.1').toString('base64url')}`,
        `after=${Buffer.from('f.18446744073709551616.1.0').toString('base64url')}`, `after=${Buffer.from('f.01.1.0').toString('base64url')}`, `after=${cursor}&after=${cursor}`,
        'limit=0', 'limit=201', 'limit=x', 'cursor=abc', 'status=Open', 'since=2024-01-01T00:00:00Z',
      ]) {
        const res = await get(f, `/changes?${query}`);
        assert.equal(res.status, 422, `${query}: ${res.status} ${res.text}`);
        assertErrorBody(res);
      }
    });

    /** Closed `caseId` is past a retention of one day, its runs finished, and a purge pass deletes it. */
    async function purgeClosedCase(f: CasesFixture, caseId: number): Promise<void> {
      const retention = await fromDashboard(t, await givenOwner(t, f.org.id), 'PUT', '/api/admin/v1/retention', { closed_cases_days: 1 });
      assert.equal(retention.status, 200, retention.text);
      await db().query(`UPDATE cases SET created_at = now() - interval '3 days', updated_at = now() - interval '2 days' WHERE id = $1`, [caseId]);
      await db().query(`UPDATE workflow_runs SET state = 'succeeded', finished_at = now() - interval '2 days' WHERE case_id = $1 AND state IN ('pending', 'running', 'waiting')`, [caseId]);
      const pass = new PurgePass(t.app.get(RetentionPurges), new RetentionMetrics(createMetricsRegistry()), t.env, t.app.get(LOGGER));
      assert.equal((await pass.run()).cases, 1);
      assert.equal((await db().query('SELECT 1 FROM cases WHERE id = $1', [caseId])).rowCount, 0);
    }

    it('answers 410 to a cursor older than what retention keeps, and still serves newer cursors and a fresh start', async () => {
      const f = await given();
      const kept = await createdCaseId(f);
      const purged = await createdCaseId(f);
      const { cursor: old } = await follow(f);
      assert.equal((await patchCase(f, purged, { status: 'Closed' })).status, 200);
      const { cursor: recent } = await follow(f, old);
      await purgeClosedCase(f, purged);

      const gone = await get(f, `/changes?after=${old}`);
      assert.equal(gone.status, 410, gone.text);
      assertErrorBody(gone);
      assert.deepEqual((await changes(f, recent)).cases, [], 'a cursor past the purged case\'s last change is still good');
      assert.deepEqual([...(await follow(f)).store.keys()], [kept], 'without after: from the oldest change still kept');

      // A cursor issued before purges were counted (`f.<position>.<xmin>`) counts every purge as unseen, whatever its xmin.
      const [, xid, id] = Buffer.from(old!, 'base64url').toString().split('.');
      const legacy = (position: string) => Buffer.from(`f.${position}.18446744073709551615`).toString('base64url');
      assert.equal((await get(f, `/changes?after=${legacy(`${xid}.${id}`)}`)).status, 410);
      const [, recentXid, recentId] = Buffer.from(recent!, 'base64url').toString().split('.');
      assert.equal((await get(f, `/changes?after=${legacy(`${recentXid}.${recentId}`)}`)).status, 200);
    });

    it('serves a cursor read after a purge while a transaction that began before the purge is still open', async () => {
      const f = await given();
      const kept = await createdCaseId(f);
      const purged = await createdCaseId(f);
      assert.equal((await patchCase(f, purged, { status: 'Closed' })).status, 200);
      await follow(f);
      const older = await db().connect();
      try {
        await older.query('BEGIN');
        await older.query('SELECT pg_current_xact_id()');
        await purgeClosedCase(f, purged);
        // Every snapshot's xmin is now at or below the open transaction, below the purge's id.
        const first = await changes(f);
        assert.deepEqual(first.cases.map((c) => c.id), [kept]);
        const next = await get(f, `/changes?after=${first.next_cursor}`);
        assert.equal(next.status, 200, next.text);
      } finally {
        await older.query('ROLLBACK');
        older.release();
      }
    });
  });
});
