import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import {
  anotherWorkflow,
  type CasesFixture,
  createdCaseId,
  getCase,
  givenCasesWorkflow,
  patchCase,
  postRaw,
  statusChanges,
  statusDefinition,
} from '../support/cases-api.js';
import { assertIsoUtc, assertPositiveInteger, assertValidationError } from '../support/foundation-assertions.js';
import { createOrganization, operatorToken } from '../support/scenario.js';
import {
  deliveredCounts,
  deliveriesLog,
  deliveryCaseIds,
  type EventBody,
  eventOf,
  flaky,
  inTurn,
  outboxTypes,
  Receiver,
  subscribe,
  SUBSCRIPTIONS,
  verifySignature,
  waitFor,
} from '../support/subscription-helpers.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';
import { rawJsonAt } from '../support/webhook-helpers.js';

const ALL_TYPES = ['case.created', 'case.status_changed', 'case.closed', 'case.reopened', 'case.errored'];

describe('event subscriptions', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({ env: { DELIVERY_RETRY_BASE_MS: '200' } }); });
  after(async () => { await t.close(); await closeDb(); });

  /** A receiver that is shut down when the test ends. */
  async function receiverFor(ctx: TestContext): Promise<Receiver> {
    const receiver = await Receiver.start();
    ctx.after(() => receiver.stop());
    return receiver;
  }

  async function closeCase(f: CasesFixture, caseId: number, status = 'Closed'): Promise<void> {
    const res = await patchCase(f, caseId, { status });
    assert.equal(res.status, 200, res.text);
  }

  /** A live case, created and then closed; returns its id. */
  async function closedCase(f: CasesFixture, body: Record<string, unknown> = {}): Promise<number> {
    const caseId = await createdCaseId(f, body);
    await closeCase(f, caseId);
    return caseId;
  }

  /** Waits until the receiver accepted an event of this type about this case, and returns it. */
  function acceptedEvent(receiver: Receiver, caseId: number, type: string, path?: string): Promise<EventBody> {
    return waitFor(
      `${type} of case ${caseId} at ${receiver.url}${path ?? ''}`,
      () => receiver.accepted(path).find((e) => e.type === type && e.data.case.id === caseId),
      { describe: () => receiver.requests.map((r) => [r.path, r.answered, r.rawBody]) },
    );
  }

  async function subscriptionIds(org: { adminToken: string }): Promise<number[]> {
    const res = await t.request('GET', SUBSCRIPTIONS, { token: org.adminToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['subscriptions']);
    return res.body.subscriptions.map((s: { id: number }) => s.id);
  }

  describe('admin API', () => {
    it('creates a subscription with a whsec_ secret shown once, lists it, and deleting it stops its deliveries', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      const res = await t.request('POST', SUBSCRIPTIONS, {
        token: f.org.adminToken,
        body: { url: `${receiver.url}/a`, events: ['case.closed', 'case.created'], workflow_ids: [f.workflowId] },
      });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(Object.keys(res.body).sort(), ['signing_secret', 'subscription']);
      assert.match(res.body.signing_secret, /^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
      const created = res.body.subscription;
      assertPositiveInteger(created.id);
      assert.equal(created.url, `${receiver.url}/a`);
      assert.deepEqual(created.events, ['case.closed', 'case.created']);
      assert.deepEqual(created.workflow_ids, [f.workflowId]);
      assertIsoUtc(created.created_at, 'created_at');
      assert.ok(!JSON.stringify(created).includes(res.body.signing_secret), 'the subscription object carries no secret');

      const listed = await t.request('GET', SUBSCRIPTIONS, { token: f.org.adminToken });
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(listed.body, { subscriptions: [created] });
      assert.ok(!listed.text.includes(res.body.signing_secret.slice('whsec_'.length)), 'the list never shows the secret');

      const kept = await subscribe(t, f.org, { url: `${receiver.url}/b`, events: ['case.closed'] });
      assert.equal(kept.view.workflow_ids, null, 'no workflow_ids means every workflow');
      const deleted = await t.request('DELETE', `${SUBSCRIPTIONS}/${created.id}`, { token: f.org.adminToken });
      assert.equal(deleted.status, 204, deleted.text);
      assert.equal(deleted.text, '');
      assert.deepEqual(await subscriptionIds(f.org), [kept.id]);
      assert.equal((await t.request('DELETE', `${SUBSCRIPTIONS}/${created.id}`, { token: f.org.adminToken })).status, 404, 'deleted once');

      const caseId = await closedCase(f);
      await acceptedEvent(receiver, caseId, 'case.closed', '/b');
      assert.deepEqual(receiver.at('/a'), [], 'the deleted subscription received nothing');
      assert.deepEqual(await deliveryCaseIds(created.id), [], 'no delivery was even queued for it');
    });

    it("stops a deleted subscription's pending retries", async (ctx) => {
      const receiver = await receiverFor(ctx);
      receiver.script = () => 500;
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.closed'] });
      await closedCase(f);
      await waitFor('a refused attempt', () => receiver.requests.length > 0);
      const deleted = await t.request('DELETE', `${SUBSCRIPTIONS}/${sub.id}`, { token: f.org.adminToken });
      assert.equal(deleted.status, 204, deleted.text);
      const closedAsFailed = async () => {
        const { rows } = await db().query('SELECT state FROM event_deliveries WHERE subscription_id = $1', [sub.id]);
        return rows.length === 1 && rows[0].state === 'failed';
      };
      await waitFor('the pending delivery to be closed as failed', closedAsFailed);
      const { rows } = await db().query(
        'SELECT count(*)::int AS n FROM delivery_attempts a JOIN event_deliveries d ON d.id = a.delivery_id WHERE d.subscription_id = $1',
        [sub.id],
      );
      assert.equal(receiver.requests.length, rows[0].n, 'every request received was an attempt made before the delete');
      assert.ok(receiver.requests.every((r) => r.answered === 500));
    });

    it('logs a delivery to a name that does not resolve with the one generic refusal message, which says nothing about DNS', async () => {
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: 'http://no-such-host.invalid/events', events: ['case.closed'] });
      await closedCase(f);
      const [attempt] = await waitFor('a failed attempt', async () => {
        const attempts = await deliveriesLog(t, f.org, sub.id);
        return attempts.length > 0 && attempts;
      });
      assert.equal(attempt!.delivered, false);
      assert.equal(attempt!.status_code, null);
      assert.equal(attempt!.error, 'the request could not be sent to that address');
    });

    it('answers 401 without a token and with a token of another kind, on every route', async () => {
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: 'https://example.com/hook', events: ['case.closed'] });
      const routes: [string, string, unknown?][] = [
        ['POST', SUBSCRIPTIONS, { url: 'https://example.com/other', events: ['case.closed'] }],
        ['GET', SUBSCRIPTIONS],
        ['DELETE', `${SUBSCRIPTIONS}/${sub.id}`],
        ['GET', `${SUBSCRIPTIONS}/${sub.id}/deliveries`],
      ];
      for (const [method, url, body] of routes) {
        for (const token of [undefined, f.apiToken, operatorToken(), 'adm_not-a-real-token']) {
          const res = await t.request(method, url, { token, body });
          assert.equal(res.status, 401, `${method} ${url} with ${token ?? 'no token'}: ${res.text}`);
          assert.equal(typeof res.body?.error, 'string');
        }
      }
      assert.deepEqual(await subscriptionIds(f.org), [sub.id], 'nothing was created or deleted');
    });

    it("answers 404 for another organization's subscription, on delete and on its deliveries", async () => {
      const owner = await givenCasesWorkflow(t);
      const sub = await subscribe(t, owner.org, { url: 'https://example.com/hook', events: ['case.closed'] });
      const stranger = await createOrganization(t);
      const deleted = await t.request('DELETE', `${SUBSCRIPTIONS}/${sub.id}`, { token: stranger.adminToken });
      assert.equal(deleted.status, 404, deleted.text);
      const log = await t.request('GET', `${SUBSCRIPTIONS}/${sub.id}/deliveries`, { token: stranger.adminToken });
      assert.equal(log.status, 404, log.text);
      assert.equal(typeof log.body.error, 'string');
      assert.deepEqual(await subscriptionIds(stranger), []);
      assert.deepEqual(await subscriptionIds(owner.org), [sub.id], 'the subscription is still there for its owner');
    });

    it('refuses invalid subscriptions with 422 and stores nothing', async () => {
      const f = await givenCasesWorkflow(t);
      const foreign = await givenCasesWorkflow(t);
      const valid = { url: 'https://example.com/hook', events: ['case.closed'] };
      const cases: [string, Record<string, unknown>, string][] = [
        ['an ftp url', { ...valid, url: 'ftp://example.com/hook' }, '/url'],
        ['a url without scheme', { ...valid, url: 'example.com/hook' }, '/url'],
        ['a javascript: url', { ...valid, url: 'javascript:alert(1)' }, '/url'],
        ['an unknown event type', { ...valid, events: ['case.closed', 'case.deleted'] }, '/events'],
        ['empty events', { ...valid, events: [] }, '/events'],
        ['missing events', { url: valid.url }, '/events'],
        ['an unknown key', { ...valid, secret: 'whsec_mine' }, '/secret'],
        ["another organization's workflow", { ...valid, workflow_ids: [foreign.workflowId] }, '/workflow_ids'],
        ['a workflow that does not exist', { ...valid, workflow_ids: [f.workflowId, 987654321] }, '/workflow_ids'],
      ];
      for (const [label, body, path] of cases) {
        const res = await t.request('POST', SUBSCRIPTIONS, { token: f.org.adminToken, body });
        assert.equal(res.status, 422, `${label}: ${res.text}`);
        assert.ok(assertValidationError(res).includes(path), `${label}: a problem at ${path} in ${res.text}`);
      }
      const { rows } = await db().query('SELECT id FROM subscriptions WHERE organization_id = $1', [f.org.id]);
      assert.deepEqual(rows, []);
    });

    it('stores the signing secret only sealed', async () => {
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: 'https://example.com/hook', events: ['case.closed'] });
      const { rows } = await db().query<{ secret_ciphertext: string }>('SELECT secret_ciphertext FROM subscriptions WHERE id = $1', [sub.id]);
      const stored = rows[0]!.secret_ciphertext;
      const key = sub.secret.slice('whsec_'.length);
      assert.ok(stored.length > 0);
      assert.ok(!stored.includes(key), 'the secret is not stored in plain text');
      assert.ok(!stored.includes(Buffer.from(key, 'base64').toString('hex')), 'nor its key bytes in hex');
      assert.ok(!stored.includes(Buffer.from(key, 'base64').toString('base64url')), 'nor in base64url');
    });
  });

  describe('delivery', () => {
    it('delivers one signed case.closed whose body carries the case as the cases API shows it', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: `${receiver.url}/hooks?source=cis`, events: ['case.closed'] });
      const created = await postRaw(f, `{"subject":"Refund for order 77","attributes":{"email":"a@b.co","amount":12.50,"big":123456789012345678901234567890.123,"lines":[{"sku":"X","qty":2}]}}`);
      assert.equal(created.status, 201, created.text);
      const caseId: number = created.body.case.id;
      await closeCase(f, caseId);
      await acceptedEvent(receiver, caseId, 'case.closed');

      assert.equal(receiver.requests.length, 1, 'exactly one delivery');
      const [request] = receiver.requests;
      assert.equal(request!.method, 'POST');
      assert.equal(request!.path, '/hooks?source=cis');
      assert.match(String(request!.headers['content-type']), /^application\/json/);
      assert.doesNotThrow(() => verifySignature(sub.secret, request!), 'the Standard Webhooks signature verifies');
      assert.throws(() => verifySignature(sub.secret, { ...request!, rawBody: request!.rawBody.replace('Closed', 'Open') }), 'a changed body does not verify');

      const body = eventOf(request!);
      assert.deepEqual(Object.keys(body), ['id', 'type', 'timestamp', 'data']);
      assert.deepEqual(Object.keys(body.data), ['case']);
      assert.equal(request!.headers['webhook-id'], body.id);
      assert.equal(body.type, 'case.closed');
      assertIsoUtc(body.timestamp, 'timestamp');
      const shown = await getCase(f, caseId);
      assert.equal(shown.status, 200, shown.text);
      assert.deepEqual(body.data.case, shown.body.case);
      assert.deepEqual([body.data.case.status, body.data.case.outcome, body.data.case.mode], ['Closed', 'Handled', 'live']);
      assert.equal(rawJsonAt(request!.rawBody, ['data', 'case', 'attributes']), rawJsonAt(shown.text, ['case', 'attributes']), 'attributes digit for digit');
    });

    it('never sends events of a test-mode case', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      await subscribe(t, f.org, { url: receiver.url, events: ALL_TYPES });
      const testCaseId = await closedCase(f, { mode: 'test' });
      const liveCaseId = await closedCase(f);
      await acceptedEvent(receiver, liveCaseId, 'case.closed');
      assert.deepEqual(receiver.aboutCase(testCaseId), [], 'nothing about the test case reached the receiver');
      assert.deepEqual(await outboxTypes(testCaseId), [], 'no event was even written for it');
      assert.deepEqual(await outboxTypes(liveCaseId), ['case.created', 'case.status_changed', 'case.closed']);
    });

    it('retries a 500 with the same webhook-id and logs both attempts', async (ctx) => {
      const receiver = await receiverFor(ctx);
      receiver.script = inTurn([500]);
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.closed'] });
      const caseId = await closedCase(f);
      const event = await acceptedEvent(receiver, caseId, 'case.closed');

      assert.deepEqual(receiver.requests.map((r) => [r.headers['webhook-id'], r.answered]), [[event.id, 500], [event.id, 200]]);
      for (const request of receiver.requests) verifySignature(sub.secret, request);
      const log = await waitFor('two attempts in the deliveries log', async () => {
        const attempts = await deliveriesLog(t, f.org, sub.id);
        return attempts.length === 2 && attempts;
      });
      const [second, first] = log;
      const pick = (a: typeof first) => ({ event_id: a!.event_id, event_type: a!.event_type, case_id: a!.case_id, attempt: a!.attempt, status_code: a!.status_code, delivered: a!.delivered });
      assert.deepEqual(pick(first), { event_id: event.id, event_type: 'case.closed', case_id: caseId, attempt: 1, status_code: 500, delivered: false });
      assert.deepEqual(pick(second), { event_id: event.id, event_type: 'case.closed', case_id: caseId, attempt: 2, status_code: 200, delivered: true });
      assertIsoUtc(first!.attempted_at, 'first attempted_at');
      assertIsoUtc(second!.attempted_at, 'second attempted_at');
      assert.ok(Date.parse(second!.attempted_at) > Date.parse(first!.attempted_at), 'the retry comes after the first attempt');
      assert.equal(second!.error, null);
    });

    it("never sends another organization's cases, and workflow_ids restricts to those workflows", async (ctx) => {
      const receiver = await receiverFor(ctx);
      const chosen = await givenCasesWorkflow(t);
      const sibling = await anotherWorkflow(chosen);
      const stranger = await givenCasesWorkflow(t);
      const only = await subscribe(t, chosen.org, { url: `${receiver.url}/only`, events: ['case.closed'], workflow_ids: [chosen.workflowId] });
      const all = await subscribe(t, chosen.org, { url: `${receiver.url}/all`, events: ['case.closed'] });
      await subscribe(t, stranger.org, { url: `${receiver.url}/stranger`, events: ['case.closed'] });

      const siblingCase = await closedCase(sibling);
      const strangerCase = await closedCase(stranger);
      const chosenCase = await closedCase(chosen);
      await acceptedEvent(receiver, strangerCase, 'case.closed', '/stranger');
      await acceptedEvent(receiver, siblingCase, 'case.closed', '/all');
      await acceptedEvent(receiver, chosenCase, 'case.closed', '/all');
      await acceptedEvent(receiver, chosenCase, 'case.closed', '/only');

      const caseIds = (path: string) => receiver.at(path).map((r) => eventOf(r).data.case.id).sort();
      assert.deepEqual(caseIds('/only'), [chosenCase]);
      assert.deepEqual(caseIds('/all'), [siblingCase, chosenCase].sort());
      assert.deepEqual(caseIds('/stranger'), [strangerCase]);
      assert.deepEqual(await deliveryCaseIds(only.id), [chosenCase]);
      assert.deepEqual(await deliveryCaseIds(all.id), [siblingCase, chosenCase].sort((a, b) => a - b));
    });

    it('sends every move as case.status_changed, plus case.closed and case.reopened, in order', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      await subscribe(t, f.org, { url: `${receiver.url}/all`, events: ALL_TYPES });
      const reopenedOnly = await subscribe(t, f.org, { url: `${receiver.url}/reopened`, events: ['case.reopened'] });
      const caseId = await createdCaseId(f);
      for (const status of ['Triage', 'Closed', 'Open']) await closeCase(f, caseId, status);

      const reopened = await acceptedEvent(receiver, caseId, 'case.reopened', '/all');
      await acceptedEvent(receiver, caseId, 'case.reopened', '/reopened');
      const seen = receiver.accepted('/all').map((e) => [e.type, e.data.case.status, e.data.case.outcome]);
      assert.deepEqual(seen, [
        ['case.created', 'Open', null],
        ['case.status_changed', 'Triage', null],
        ['case.status_changed', 'Closed', 'Handled'],
        ['case.closed', 'Closed', 'Handled'],
        ['case.status_changed', 'Open', null],
        ['case.reopened', 'Open', null],
      ]);
      assert.deepEqual(receiver.accepted('/reopened'), [reopened], 'the same event, with the same id, to the subscription that wants only it');
      assert.deepEqual(await deliveryCaseIds(reopenedOnly.id), [caseId]);
      const { rows } = await db().query('SELECT count(*)::int AS n FROM event_deliveries WHERE subscription_id = $1', [reopenedOnly.id]);
      assert.equal(rows[0].n, 1);
    });

    it('sends case.errored when a run fails and the engine parks the case in Error', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t, statusDefinition({ automations: { Open: [{ fail: 'no CRM for this customer' }] } }));
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.errored'], workflow_ids: [f.workflowId] });
      const caseId = await createdCaseId(f);
      const errored = await acceptedEvent(receiver, caseId, 'case.errored');
      verifySignature(sub.secret, receiver.requests[0]!);
      const shown = await getCase(f, caseId);
      assert.equal(shown.status, 200, shown.text);
      assert.deepEqual(errored.data.case, shown.body.case);
      assert.deepEqual([errored.data.case.status, errored.data.case.outcome], ['Error', null]);
      assert.deepEqual(await outboxTypes(caseId), ['case.errored']);
      assert.equal(receiver.requests.length, 1);
    });
  });

  describe('order and faults', () => {
    const STATUSES = Array.from({ length: 8 }, (_, i) => `Step ${i + 1}`);

    it('delivers each case’s status changes in timeline order under concurrent PATCHes and random 500s', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const seed = Date.now() % 1_000_000;
      receiver.script = flaky(seed, 1 / 3, 2);
      const f = await givenCasesWorkflow(t, statusDefinition({ statuses: STATUSES }));
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.status_changed'] });
      const caseIds = await Promise.all(Array.from({ length: 5 }, () => createdCaseId(f)));
      const answers = await Promise.all(caseIds.flatMap((caseId) => STATUSES.map((status) => patchCase(f, caseId, { status }))));
      for (const res of answers) assert.equal(res.status, 200, res.text);

      const total = caseIds.length * STATUSES.length;
      await waitFor(`${total} status changes accepted (seed ${seed})`, () => receiver.accepted().length >= total, {
        deadlineMs: 60_000,
        describe: () => receiver.requests.length,
      });
      const log = await waitFor(`${total} deliveries logged as delivered`, async () => {
        const attempts = await deliveriesLog(t, f.org, sub.id);
        return deliveredCounts(attempts).size >= total && attempts;
      });
      assert.ok(receiver.requests.some((r) => r.answered === 500), `the receiver refused some attempts (seed ${seed})`);
      for (const [eventId, n] of deliveredCounts(log)) assert.equal(n, 1, `event ${eventId} delivered once in the log`);

      const accepted = receiver.accepted();
      assert.equal(new Set(accepted.map((e) => e.id)).size, accepted.length, 'no event accepted twice');
      assert.deepEqual(new Set(accepted.map((e) => e.id)), new Set(deliveredCounts(log).keys()), 'the receiver and the log agree');
      for (const caseId of caseIds) {
        const timelineOrder = (await statusChanges(t, f.org, caseId)).map((e) => e.to);
        const deliveredOrder = accepted.filter((e) => e.data.case.id === caseId).map((e) => e.data.case.status);
        assert.deepEqual(deliveredOrder, timelineOrder, `case ${caseId}: deliveries follow the timeline (seed ${seed})`);
      }
    });

    it('delivers every event exactly once after the receiver was down', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: `${receiver.url}/events`, events: ['case.created', 'case.closed'] });
      await receiver.stop();
      const caseIds = await Promise.all(Array.from({ length: 10 }, () => closedCase(f)));

      const failed = await waitFor('a refused attempt for each case', async () => {
        const attempts = (await deliveriesLog(t, f.org, sub.id)).filter((a) => !a.delivered);
        return new Set(attempts.map((a) => a.case_id)).size === caseIds.length && attempts;
      });
      for (const attempt of failed) {
        assert.equal(attempt.status_code, null, 'no HTTP answer while the receiver is down');
        assert.match(String(attempt.error), /ECONNREFUSED/, `the refused connection is logged: ${JSON.stringify(attempt)}`);
      }
      assert.equal(receiver.requests.length, 0);

      await receiver.resume();
      const total = caseIds.length * 2;
      const log = await waitFor(`${total} events delivered after the receiver came back`, async () => {
        const attempts = await deliveriesLog(t, f.org, sub.id);
        return deliveredCounts(attempts).size >= total && attempts;
      }, { deadlineMs: 60_000, describe: () => receiver.requests.length });

      const counts = deliveredCounts(log);
      for (const [eventId, n] of counts) assert.equal(n, 1, `event ${eventId} is delivered once in the log`);
      const accepted = receiver.accepted('/events').map((e) => e.id).sort();
      assert.deepEqual(accepted, [...counts.keys()].sort(), 'the receiver got each event id with a 2xx exactly once');
      for (const caseId of caseIds) {
        assert.deepEqual(receiver.accepted().filter((e) => e.data.case.id === caseId).map((e) => e.type), ['case.created', 'case.closed']);
      }
    });
  });
});
