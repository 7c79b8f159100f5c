import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  anotherWorkflow,
  assertCaseResponse,
  assertErrorBody,
  assertNothingCreated,
  assertValidationPaths,
  caseCount,
  type CasesFixture,
  createdCaseId,
  getCase,
  givenCasesWorkflow,
  patchCase,
  postCase,
  postRaw,
  statusChanges,
  statusDefinition,
  storedCase,
  timeline,
} from '../support/cases-api.js';
import { generateWebhook, sampleDefinition } from '../support/scenario.js';
import { closeDb, db, type InjectResult, type RequestOptions, startTestApp, type TestApp } from '../support/test-app.js';

/** The sample workflow's attribute rules, without automation. */
const validatedDefinition = (overrides: Record<string, unknown> = {}) => sampleDefinition({ automations: {}, ...overrides });
const VALID_ATTRIBUTES = { customer_email: 'ana@example.com' };

describe('cases API', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  const given = (definition?: Record<string, unknown>) => givenCasesWorkflow(t, definition);

  /** POST, GET and PATCH on one case of `f`, each with the given credentials. */
  function everyEndpoint(f: CasesFixture, caseId: number, auth: Omit<RequestOptions, 'body'>): (() => Promise<InjectResult>)[] {
    return [
      () => t.request('POST', f.casesPath, { ...auth, body: {} }),
      () => t.request('GET', `${f.casesPath}/${caseId}`, auth),
      () => t.request('PATCH', `${f.casesPath}/${caseId}`, { ...auth, body: { status: 'Triage' } }),
    ];
  }

  /** Every endpoint answers `status` to these credentials; no case is created and the existing one is untouched. */
  async function assertRefusedEverywhere(f: CasesFixture, caseId: number, auth: Omit<RequestOptions, 'body'>, status: number) {
    for (const send of everyEndpoint(f, caseId, auth)) await assertNothingCreated(f.workflowId, status, send);
    assert.equal((await storedCase(caseId)).status, 'Open');
  }

  describe('authentication', () => {
    it('answers 401 without an Authorization header', async () => {
      const f = await given();
      await assertRefusedEverywhere(f, await createdCaseId(f), {}, 401);
    });

    it('answers 401 to malformed Authorization headers, even around a valid token', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      for (const authorization of [f.apiToken, `Token ${f.apiToken}`, `Basic ${f.apiToken}`, `Bearer${f.apiToken}`, `Bearer ${f.apiToken} ${f.apiToken}`, 'Bearer', 'Bearer ']) {
        await assertRefusedEverywhere(f, caseId, { headers: { authorization } }, 401);
      }
    });

    it('answers 401 to an unknown token', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      await assertRefusedEverywhere(f, caseId, { token: `api_${'x'.repeat(43)}` }, 401);
      await assertRefusedEverywhere(f, caseId, { token: `${f.apiToken}x` }, 401);
    });

    it('answers 401 to an admin token of the same organization', async () => {
      const f = await given();
      await assertRefusedEverywhere(f, await createdCaseId(f), { token: f.org.adminToken }, 401);
    });

    it('answers 401 to a deleted API token that worked before', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      assert.equal((await getCase(f, caseId)).status, 200);
      const deleted = await t.request('DELETE', `/api/admin/v1/tokens/${f.apiTokenId}`, { token: f.org.adminToken });
      assert.equal(deleted.status, 204, deleted.text);
      await assertRefusedEverywhere(f, caseId, { token: f.apiToken }, 401);
    });
  });

  describe('not found', () => {
    it('answers 404 for a workflow that does not exist', async () => {
      const f = await given();
      const missing = { ...f, casesPath: `/api/external/v1/workflows/${Number.MAX_SAFE_INTEGER}/cases` };
      for (const send of everyEndpoint(missing, 1, { token: f.apiToken })) {
        const res = await send();
        assert.equal(res.status, 404, res.text);
        assertErrorBody(res);
      }
    });

    it('answers 404 for another organization\'s workflow and case, and leaves them alone', async () => {
      const mine = await given();
      const theirs = await given();
      const theirCase = await createdCaseId(theirs);
      await assertRefusedEverywhere(theirs, theirCase, { token: mine.apiToken }, 404);
      // Their case id under my own workflow is not found either.
      assert.equal((await getCase(mine, theirCase)).status, 404);
      assert.equal((await patchCase(mine, theirCase, { status: 'Triage' })).status, 404);
      assert.equal((await storedCase(theirCase)).status, 'Open');
    });

    it('answers 404 for a case that exists on another workflow of the same organization', async () => {
      const first = await given();
      const second = await anotherWorkflow(first);
      const caseId = await createdCaseId(first);
      const read = await getCase(second, caseId);
      assert.equal(read.status, 404, read.text);
      const moved = await patchCase(second, caseId, { status: 'Triage' });
      assert.equal(moved.status, 404, moved.text);
      assert.equal((await storedCase(caseId)).status, 'Open');
    });

    it('answers 404 for ids that are not positive integers or are too large', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      const badIds = ['abc', '1.5', '-1', '0', '9223372036854775808', '18446744073709551617', '340282366920938463463374607431768211457'];
      for (const bad of badIds) {
        const badWorkflow = { ...f, casesPath: `/api/external/v1/workflows/${bad}/cases` };
        for (const send of everyEndpoint(badWorkflow, caseId, { token: f.apiToken })) {
          const res = await send();
          assert.equal(res.status, 404, `workflow id ${bad}: ${res.text}`);
        }
        for (const method of ['GET', 'PATCH']) {
          const res = await t.request(method, `${f.casesPath}/${bad}`, { token: f.apiToken, ...(method === 'PATCH' ? { body: { status: 'Triage' } } : {}) });
          assert.equal(res.status, 404, `${method} case id ${bad}: ${res.text}`);
        }
      }
      assert.equal(await caseCount(f.workflowId), 1);
    });
  });

  describe('create refusals (422, nothing created)', () => {
    const refuse = (f: CasesFixture, body: unknown) => assertNothingCreated(f.workflowId, 422, () => postCase(f, body));

    it('refuses workflows whose case source is not direct', async () => {
      for (const source of ['ticketing', 'email']) {
        const f = await given(statusDefinition({ case_source: source }));
        await refuse(f, {});
        await refuse(f, { subject: 'hello', attributes: {} });
      }
    });

    it('refuses unsupported top-level keys', async () => {
      const f = await given();
      await refuse(f, { attributes: {}, priority: 1 });
      await refuse(f, { status: 'Open' });
      await refuse(f, { subject: 'x', outcome: 'Resolved' });
      await refuse(f, { id: 5 });
    });

    it('refuses attributes that are not an object', async () => {
      const f = await given();
      for (const attributes of [[], [{ a: 1 }], 'a=1', '', null, 42, true]) await refuse(f, { attributes });
    });

    it('refuses a mode other than live or test', async () => {
      const f = await given();
      for (const mode of ['prod', 'LIVE', 'Test', '', null, 1]) await refuse(f, { mode });
    });

    it('refuses a subject that is not a string', async () => {
      const f = await given();
      for (const subject of [42, ['a'], { a: 1 }]) await refuse(f, { subject });
    });

    it('refuses a missing required attribute at the root path', async () => {
      const f = await given(validatedDefinition());
      assertValidationPaths(await refuse(f, {}), ['']);
      assertValidationPaths(await refuse(f, { attributes: { priority: 1 } }), ['']);
    });

    it('refuses null for a required attribute at its path', async () => {
      const f = await given(validatedDefinition());
      assertValidationPaths(await refuse(f, { attributes: { customer_email: null } }), ['/customer_email']);
    });

    it('refuses a value of the wrong type at its path', async () => {
      const f = await given(validatedDefinition());
      assertValidationPaths(await refuse(f, { attributes: { ...VALID_ATTRIBUTES, priority: 'high' } }), ['/priority']);
      assertValidationPaths(await refuse(f, { attributes: { ...VALID_ATTRIBUTES, priority: 2.5 } }), ['/priority']);
    });

    it('reports every wrong type at once', async () => {
      const f = await given(validatedDefinition());
      const res = await refuse(f, { attributes: { customer_email: 5, amount: '10', vip: 'yes', order: [], tags: {} } });
      assertValidationPaths(res, ['/customer_email', '/amount', '/vip', '/order', '/tags']);
    });

    it('refuses a value outside the enum', async () => {
      const f = await given(validatedDefinition());
      assertValidationPaths(await refuse(f, { attributes: { ...VALID_ATTRIBUTES, priority: 4 } }), ['/priority']);
    });

    it('refuses a badly formatted email', async () => {
      const f = await given(validatedDefinition());
      assertValidationPaths(await refuse(f, { attributes: { customer_email: 'not-an-email' } }), ['/customer_email']);
    });

    it('refuses undeclared keys on a sensitive workflow, each at its own path', async () => {
      const f = await given(validatedDefinition({ sensitive_data: true }));
      assertValidationPaths(await refuse(f, { attributes: { ...VALID_ATTRIBUTES, thatkey: 'x' } }), ['/thatkey']);
      assertValidationPaths(await refuse(f, { attributes: { ...VALID_ATTRIBUTES, 'a/b': 1, 'c~d': 2 } }), ['/a~1b', '/c~0d']);
    });

    it('refuses __proto__ and constructor as undeclared keys on a sensitive workflow', async () => {
      const f = await given(validatedDefinition({ sensitive_data: true }));
      for (const key of ['__proto__', 'constructor']) {
        const body = `{"attributes":{"customer_email":"ana@example.com","${key}":{"ssn":"078-05-1120"}}}`;
        assertValidationPaths(await assertNothingCreated(f.workflowId, 422, () => postRaw(f, body)), [`/${key}`]);
      }
    });

    it('keeps undeclared keys on a workflow without sensitive data', async () => {
      const f = await given(validatedDefinition());
      const attributes = { ...VALID_ATTRIBUTES, thatkey: { nested: [1, 'two', null] } };
      const c = assertCaseResponse(await postCase(f, { attributes }), 201);
      assert.deepEqual(c.attributes, attributes);
    });

    it('accepts null for an attribute that is not required', async () => {
      const f = await given(validatedDefinition());
      const attributes = { ...VALID_ATTRIBUTES, priority: null, amount: null, raw: null };
      assert.deepEqual(assertCaseResponse(await postCase(f, { attributes }), 201).attributes, attributes);
    });
  });

  describe('case representation', () => {
    const DEFAULT_SUBJECT = /^Billing disputes via API - (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC$/;
    const toSecond = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

    it('creates with 201 and exactly the contract fields, then reads the same with 200', async () => {
      const f = await given();
      const attributes = { customer: { id: 7, tags: ['a', 'b'] }, score: 1.25, ok: false, none: null };
      const sentAt = new Date();
      const created = await postCase(f, { attributes });
      const answeredAt = new Date();
      const c = assertCaseResponse(created, 201);
      assert.equal(c.workflow_id, f.workflowId);
      assert.equal(c.status, 'Open');
      assert.equal(c.outcome, null);
      assert.equal(c.mode, 'live');
      assert.deepEqual(c.attributes, attributes);
      assert.equal(c.created_at, c.updated_at);
      const stamp = DEFAULT_SUBJECT.exec(c.subject)?.[1];
      assert.ok(stamp, `default subject: ${c.subject}`);
      assert.ok(stamp >= toSecond(sentAt) && stamp <= toSecond(answeredAt), `subject time ${stamp}`);

      const read = await getCase(f, c.id);
      assertCaseResponse(read, 200);
      assert.deepEqual(read.body, created.body);
    });

    it('gives blank and null subjects the default and keeps a given subject', async () => {
      const f = await given();
      for (const subject of ['', '   ', '\t\n', null]) {
        assert.match(assertCaseResponse(await postCase(f, { subject }), 201).subject, DEFAULT_SUBJECT);
      }
      const kept = assertCaseResponse(await postCase(f, { subject: 'Refund for order 42 — ünïcode' }), 201);
      assert.equal(kept.subject, 'Refund for order 42 — ünïcode');
      assert.equal(assertCaseResponse(await getCase(f, kept.id), 200).subject, 'Refund for order 42 — ünïcode');
    });

    it('defaults attributes to an empty object', async () => {
      const f = await given();
      assert.deepEqual(assertCaseResponse(await postCase(f, {}), 201).attributes, {});
      assert.deepEqual(assertCaseResponse(await t.request('POST', f.casesPath, { token: f.apiToken }), 201).attributes, {});
    });

    it('stores and returns mode test, and live when asked or omitted', async () => {
      const f = await given();
      const test = assertCaseResponse(await postCase(f, { mode: 'test' }), 201);
      assert.equal(test.mode, 'test');
      assert.equal((await storedCase(test.id)).mode, 'test');
      assert.equal(assertCaseResponse(await getCase(f, test.id), 200).mode, 'test');
      const live = assertCaseResponse(await postCase(f, { mode: 'live' }), 201);
      assert.equal((await storedCase(live.id)).mode, 'live');
    });
  });

  describe('status updates', () => {
    /** PATCHes the case and checks the answer and what was stored; returns the case. */
    async function moveTo(f: CasesFixture, caseId: number, status: string, outcome: string | null) {
      const c = assertCaseResponse(await patchCase(f, caseId, { status }), 200);
      assert.deepEqual([c.id, c.status, c.outcome], [caseId, status, outcome]);
      const stored = await storedCase(caseId);
      assert.deepEqual([stored.status, stored.outcome], [status, outcome]);
      return c;
    }

    it('moves to a custom status and keeps the rest of the case', async () => {
      const f = await given();
      const created = assertCaseResponse(await postCase(f, { subject: 'S', attributes: { a: [1] }, mode: 'test' }), 201);
      const moved = await moveTo(f, created.id, 'Triage', null);
      assert.deepEqual({ ...moved, status: created.status, updated_at: created.updated_at }, created);
      assert.ok(Date.parse(moved.updated_at) >= Date.parse(created.updated_at));
      await moveTo(f, created.id, 'Waiting on customer', null);
    });

    it('closes with the workflow\'s default outcome', async () => {
      const f = await given();
      await moveTo(f, await createdCaseId(f), 'Closed', 'Handled');
    });

    it('closes with "Resolved" on a workflow without a default outcome', async () => {
      const f = await given(statusDefinition({ default_outcome: null }));
      await moveTo(f, await createdCaseId(f), 'Closed', 'Resolved');
    });

    it('clears the outcome when the case leaves Closed, and closes again', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      await moveTo(f, caseId, 'Closed', 'Handled');
      await moveTo(f, caseId, 'Open', null);
      await moveTo(f, caseId, 'Closed', 'Handled');
      await moveTo(f, caseId, 'Closed', 'Handled');
      await moveTo(f, caseId, 'Triage', null);
    });

    /** A PATCH body that must be refused: 422, the case and its timeline unchanged. */
    async function assertPatchRefused(f: CasesFixture, caseId: number, body: unknown) {
      const before = await storedCase(caseId);
      const eventsBefore = (await timeline(t, f.org, caseId)).length;
      const res = await patchCase(f, caseId, body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assertErrorBody(res);
      assert.deepEqual(await storedCase(caseId), before);
      assert.equal((await timeline(t, f.org, caseId)).length, eventsBefore);
    }

    it('refuses a status the workflow does not declare', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      for (const status of ['Escalated', 'closed', 'triage', ' Open', '']) await assertPatchRefused(f, caseId, { status });
    });

    it('refuses Error, from any status', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      await assertPatchRefused(f, caseId, { status: 'Error' });
      await moveTo(f, caseId, 'Closed', 'Handled');
      await assertPatchRefused(f, caseId, { status: 'Error' });
    });

    it('refuses other keys and a missing or non-string status', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      for (const body of [{ status: 'Triage', outcome: 'x' }, { status: 'Closed', attributes: {} }, {}, { status: null }, { status: 5 }, { state: 'Triage' }]) {
        await assertPatchRefused(f, caseId, body);
      }
    });

    it('recovers a case the engine parked in Error', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      await db().query(`UPDATE cases SET status = 'Error' WHERE id = $1`, [caseId]);
      assert.equal(assertCaseResponse(await getCase(f, caseId), 200).status, 'Error');
      await moveTo(f, caseId, 'Open', null);
      const [recovery] = await statusChanges(t, f.org, caseId);
      assert.deepEqual([recovery!.from, recovery!.to], ['Error', 'Open']);
    });
  });

  describe('timeline', () => {
    /** The fields that say what happened and who did it. */
    const gist = (e: Record<string, unknown>) =>
      e.type === 'created' ? { type: e.type, by: e.by, source: e.source } : { type: e.type, by: e.by, from: e.from, to: e.to, outcome: e.outcome };

    it('records the creation and every status change with the API token that made it, by id and name', async () => {
      const f = await given();
      const caseId = await createdCaseId(f);
      for (const status of ['Triage', 'Closed', 'Open']) assert.equal((await patchCase(f, caseId, { status })).status, 200);
      // Deleted since: the timeline still names it.
      assert.equal((await t.request('DELETE', `/api/admin/v1/tokens/${f.apiTokenId}`, { token: f.org.adminToken })).status, 204);
      const events = await timeline(t, f.org, caseId);
      const by = { type: 'api_token', id: f.apiTokenId, name: 'api token' };
      assert.deepEqual(events.map(gist), [
        { type: 'created', by, source: 'API' },
        { type: 'status_changed', by, from: 'Open', to: 'Triage', outcome: null },
        { type: 'status_changed', by, from: 'Triage', to: 'Closed', outcome: 'Handled' },
        { type: 'status_changed', by, from: 'Closed', to: 'Open', outcome: null },
      ]);
      events.forEach((e, i) => {
        assert.ok(Number.isSafeInteger(e.id) && (i === 0 || e.id > events[i - 1]!.id), 'ids ascend');
        assert.match(e.at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      });
    });

    it('answers 404 for another organization\'s case and for an unknown case', async () => {
      const mine = await given();
      const theirs = await given();
      const theirCase = await createdCaseId(theirs);
      for (const caseId of [theirCase, Number.MAX_SAFE_INTEGER]) {
        const res = await t.request('GET', `/api/admin/v1/cases/${caseId}/timeline`, { token: mine.org.adminToken });
        assert.equal(res.status, 404, res.text);
        assertErrorBody(res);
      }
    });
  });

  describe('admin case list', () => {
    const LIST_KEYS = ['assignee', 'attributes', 'created_at', 'id', 'mode', 'outcome', 'priority', 'source_type', 'status', 'subject', 'team', 'updated_at', 'watchers', 'workflow_id'];

    async function list(f: CasesFixture, query: string) {
      const res = await t.request('GET', `/api/admin/v1/cases?${query}`, { token: f.org.adminToken });
      assert.equal(res.status, 200, `${query}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body).sort(), ['cases', 'next_cursor']);
      for (const c of res.body.cases) assert.deepEqual(Object.keys(c).sort(), LIST_KEYS);
      return res.body as { cases: Record<string, any>[]; next_cursor: unknown };
    }

    const ids = async (f: CasesFixture, query: string) => (await list(f, query)).cases.map((c) => c.id);

    /** One organization with cases of every kind, newest last: [live, test, other workflow, webhook, moved to Triage]. */
    async function givenListedCases() {
      const f = await given();
      const other = await anotherWorkflow(f);
      const live = await createdCaseId(f, { attributes: { n: 1 } });
      const test = await createdCaseId(f, { mode: 'test' });
      const elsewhere = await createdCaseId(other);
      const webhook = await generateWebhook(t, f.org, f.workflowId);
      const received = await t.request('POST', webhook.path, { body: { from: 'webhook' } });
      assert.equal(received.status, 201, received.text);
      const triaged = await createdCaseId(f);
      assert.equal((await patchCase(f, triaged, { status: 'Triage' })).status, 200);
      await createdCaseId(await given());
      return { f, other, live, test, elsewhere, webhook: received.body.case.id as number, triaged };
    }

    it('lists the organization\'s cases newest first, with their source, and applies every filter', async () => {
      const { f, other, live, test, elsewhere, webhook, triaged } = await givenListedCases();
      const all = await list(f, '');
      assert.deepEqual(all.cases.map((c) => c.id), [triaged, webhook, elsewhere, test, live]);
      assert.equal(all.next_cursor, null);
      assert.deepEqual(all.cases.map((c) => c.source_type), ['API', 'Webhook', 'API', 'API', 'API']);
      const { source_type: _source, assignee, team, priority, watchers, ...first } = all.cases.find((c) => c.id === live)!;
      assert.deepEqual([assignee, team, priority, watchers], [null, null, 'normal', 0]);
      assert.deepEqual(first, assertCaseResponse(await getCase(f, live), 200));

      assert.deepEqual(await ids(f, `workflow_id=${f.workflowId}`), [triaged, webhook, test, live]);
      assert.deepEqual(await ids(f, `workflow_id=${other.workflowId}&mode=live`), [elsewhere]);
      assert.deepEqual(await ids(f, 'status=Triage'), [triaged]);
      assert.deepEqual(await ids(f, 'mode=test'), [test]);
      assert.deepEqual(await ids(f, 'source=Webhook'), [webhook]);
      assert.deepEqual(await ids(f, `source=API&workflow_id=${f.workflowId}&status=Open`), [test, live]);
      assert.deepEqual(await ids(f, 'status=Closed'), []);
    });

    it('pages with next_cursor until it is null', async () => {
      const { f, live, test, elsewhere, webhook, triaged } = await givenListedCases();
      const pages: number[][] = [];
      let cursor: unknown = undefined;
      do {
        const page = await list(f, `limit=2${cursor === undefined ? '' : `&cursor=${cursor}`}`);
        pages.push(page.cases.map((c) => c.id));
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined && pages.length < 10);
      assert.deepEqual(pages, [[triaged, webhook], [elsewhere, test], [live]]);
    });

    it('refuses a bad limit or cursor with 422', async () => {
      const f = await given();
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=-1', 'limit=1.5', 'limit=', 'cursor=abc', 'cursor=-3']) {
        const res = await t.request('GET', `/api/admin/v1/cases?${query}`, { token: f.org.adminToken });
        assert.equal(res.status, 422, `${query}: ${res.text}`);
        assertErrorBody(res);
      }
    });

    it('answers a status filter holding U+0000 with no case or a 422, never a 5xx', async () => {
      const f = await given();
      await createdCaseId(f);
      for (const status of ['%00', 'Open%00']) {
        const res = await t.request('GET', `/api/admin/v1/cases?status=${status}`, { token: f.org.adminToken });
        assert.ok(res.status === 422 || (res.status === 200 && res.body.cases.length === 0), `status=${status}: ${res.status} ${res.text}`);
      }
    });

    it('answers 401 to an API token', async () => {
      const f = await given();
      assert.equal((await t.request('GET', '/api/admin/v1/cases', { token: f.apiToken })).status, 401);
    });

    it('shows one case with its source, and 404 for another organization\'s case', async () => {
      const f = await given();
      const other = await given();
      const id = await createdCaseId(f);
      const res = await t.request('GET', `/api/admin/v1/cases/${id}`, { token: f.org.adminToken });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.case.id, id);
      assert.equal(res.body.case.source_type, 'API');
      assert.deepEqual(res.body.case.attributes, (await t.request('GET', `${f.casesPath}/${id}`, { token: f.apiToken })).body.case.attributes);
      assert.equal((await t.request('GET', `/api/admin/v1/cases/${id}`, { token: other.org.adminToken })).status, 404);
    });
  });

  describe('Idempotency-Key', () => {
    const withKey = (f: CasesFixture, body: unknown, key: string) => postCase(f, body, { 'idempotency-key': key });
    const BODY = { subject: 'Order 42', attributes: { amount: 10 } };

    it('replays the same request with the same case and creates it once', async () => {
      const f = await given();
      const first = await withKey(f, BODY, 'order-42');
      const second = await withKey(f, BODY, 'order-42');
      assertCaseResponse(first, 201);
      assertCaseResponse(second, 201);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      assert.equal(second.headers['idempotent-replayed'], 'true');
      assert.deepEqual(second.body, first.body);
      assert.equal(await caseCount(f.workflowId), 1);
    });

    it('refuses the same key with a different body', async () => {
      const f = await given();
      assertCaseResponse(await withKey(f, BODY, 'k1'), 201);
      await assertNothingCreated(f.workflowId, 422, () => withKey(f, { ...BODY, subject: 'Order 43' }, 'k1'));
      await assertNothingCreated(f.workflowId, 422, () => withKey(f, {}, 'k1'));
      assert.equal(await caseCount(f.workflowId), 1);
    });

    it('refuses the same key and body sent to another workflow of the organization', async () => {
      const f = await given();
      const other = await anotherWorkflow(f);
      assertCaseResponse(await withKey(f, BODY, 'k2'), 201);
      await assertNothingCreated(other.workflowId, 422, () => withKey(other, BODY, 'k2'));
    });

    it('keeps keys apart between organizations', async () => {
      const a = await given();
      const b = await given();
      const first = assertCaseResponse(await withKey(a, BODY, 'shared-key'), 201);
      const second = await withKey(b, BODY, 'shared-key');
      assert.notEqual(assertCaseResponse(second, 201).id, first.id);
      assert.equal(second.headers['idempotent-replayed'], undefined);
    });

    it('creates a case per request without the header', async () => {
      const f = await given();
      const first = assertCaseResponse(await postCase(f, BODY), 201);
      const second = assertCaseResponse(await postCase(f, BODY), 201);
      assert.notEqual(first.id, second.id);
      assert.equal(await caseCount(f.workflowId), 2);
    });

    it('does not use up a key on a refused request', async () => {
      const f = await given(validatedDefinition());
      await assertNothingCreated(f.workflowId, 422, () => withKey(f, { attributes: {} }, 'retry-me'));
      const accepted = await withKey(f, { attributes: VALID_ATTRIBUTES }, 'retry-me');
      assertCaseResponse(accepted, 201);
      assert.equal(accepted.headers['idempotent-replayed'], undefined);
    });

    it('refuses a malformed key', async () => {
      const f = await given();
      for (const key of ['x'.repeat(256), 'has space', '']) await assertNothingCreated(f.workflowId, 422, () => withKey(f, BODY, key));
    });

    it('creates one case for concurrent requests with the same key', async () => {
      const f = await given();
      const answers = await Promise.all(Array.from({ length: 5 }, () => withKey(f, BODY, 'burst')));
      const caseIds = answers.map((res) => assertCaseResponse(res, 201).id);
      assert.equal(new Set(caseIds).size, 1);
      assert.equal(answers.filter((res) => res.headers['idempotent-replayed'] === 'true').length, 4);
      assert.equal(await caseCount(f.workflowId), 1);
    });
  });
});
