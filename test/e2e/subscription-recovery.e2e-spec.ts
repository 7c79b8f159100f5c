import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { type CasesFixture, createdCaseId, givenCasesWorkflow, patchCase } from '../support/cases-api.js';
import { assertIsoUtc, assertValidationError } from '../support/foundation-assertions.js';
import { createOrganization, operatorToken } from '../support/scenario.js';
import {
  deliveriesLog,
  type EventBody,
  eventOf,
  outboxTypes,
  Receiver,
  subscribe,
  type Subscription,
  SUBSCRIPTIONS,
  verifySignature,
  waitFor,
} from '../support/subscription-helpers.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

/** Delivery recovery (integrations.md §4): change, retry, recover, enable, rotate the secret. */
describe('subscription delivery recovery', () => {
  let t: TestApp;
  // Short retries, and disabling after one second of failures instead of three days.
  before(async () => { t = await startTestApp({ env: { DELIVERY_RETRY_BASE_MS: '100', DELIVERY_DISABLE_AFTER_MS: '1000' } }); });
  after(async () => { await t.close(); await closeDb(); });

  async function receiverFor(ctx: TestContext): Promise<Receiver> {
    const receiver = await Receiver.start();
    ctx.after(() => receiver.stop());
    return receiver;
  }

  async function closeCase(f: CasesFixture, caseId: number): Promise<void> {
    const res = await patchCase(f, caseId, { status: 'Closed' });
    assert.equal(res.status, 200, res.text);
  }

  async function view(org: { adminToken: string }, id: number): Promise<Record<string, any>> {
    const res = await t.request('GET', SUBSCRIPTIONS, { token: org.adminToken });
    assert.equal(res.status, 200, res.text);
    const found = res.body.subscriptions.find((s: { id: number }) => s.id === id);
    assert.ok(found, `subscription ${id} is listed`);
    return found;
  }

  function acceptedEvent(receiver: Receiver, caseId: number, type: string, path?: string): Promise<EventBody> {
    return waitFor(
      `${type} of case ${caseId} at ${receiver.url}${path ?? ''}`,
      () => receiver.accepted(path).find((e) => e.type === type && e.data.case.id === caseId),
      { describe: () => receiver.requests.map((r) => [r.path, r.answered, r.rawBody]) },
    );
  }

  /** The states of the subscription's deliveries, by event id. */
  async function deliveryStates(subscriptionId: number): Promise<Map<string, string>> {
    const { rows } = await db().query<{ public_id: string; state: string }>(
      'SELECT e.public_id, d.state FROM event_deliveries d JOIN outbox_events e ON e.id = d.event_id WHERE d.subscription_id = $1',
      [subscriptionId],
    );
    return new Map(rows.map((r) => [r.public_id, r.state]));
  }

  describe('admin API', () => {
    it('shows status active, and disabled with disabled_at and disabled_reason after failing too long', async (ctx) => {
      const receiver = await receiverFor(ctx);
      receiver.script = () => 503;
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.created'] });
      assert.deepEqual([sub.view.status, sub.view.disabled_at, sub.view.disabled_reason], ['active', null, null]);
      await createdCaseId(f);
      const disabled = await waitFor('the subscription to be disabled', async () => {
        const shown = await view(f.org, sub.id);
        return shown.status === 'disabled' && shown;
      }, { describe: () => receiver.requests.length });
      assertIsoUtc(disabled.disabled_at, 'disabled_at');
      assert.equal(disabled.disabled, true);
      assert.match(disabled.disabled_reason, /^deliveries failed for more than 1 second without a success$/);
      assert.ok(receiver.requests.length >= 2, 'it was retried before being disabled');
    });

    it('PATCH changes url, events and workflow_ids, validated as on create; later events follow the change', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: `${receiver.url}/old`, events: ['case.created'] });

      const moved = await t.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { token: f.org.adminToken, body: { url: `${receiver.url}/new`, events: ['case.closed'] } });
      assert.equal(moved.status, 200, moved.text);
      assert.deepEqual(Object.keys(moved.body), ['subscription']);
      assert.deepEqual(moved.body.subscription, { ...sub.view, url: `${receiver.url}/new`, events: ['case.closed'] });
      assert.deepEqual(await view(f.org, sub.id), moved.body.subscription);

      const caseId = await createdCaseId(f);
      await closeCase(f, caseId);
      await acceptedEvent(receiver, caseId, 'case.closed', '/new');
      assert.deepEqual(receiver.requests.map((r) => r.path), ['/new'], 'case.created is no longer wanted, and nothing went to the old url');

      const narrowed = await t.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { token: f.org.adminToken, body: { workflow_ids: [f.workflowId] } });
      assert.equal(narrowed.status, 200, narrowed.text);
      assert.deepEqual(narrowed.body.subscription.workflow_ids, [f.workflowId]);
      const widened = await t.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { token: f.org.adminToken, body: { workflow_ids: null } });
      assert.equal(widened.status, 200, widened.text);
      assert.equal(widened.body.subscription.workflow_ids, null, 'null means every workflow again');
    });

    it('PATCH refuses bad bodies with 422 and changes nothing', async () => {
      const f = await givenCasesWorkflow(t);
      const foreign = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: 'https://example.com/hook', events: ['case.closed'] });
      const cases: [string, unknown, string][] = [
        ['an empty body', {}, ''],
        ['an ftp url', { url: 'ftp://example.com/hook' }, '/url'],
        ['a javascript: url', { url: 'javascript:alert(1)' }, '/url'],
        ['a null url', { url: null }, '/url'],
        ['null events', { events: null }, '/events'],
        ['empty events', { events: [] }, '/events'],
        ['an unknown event type', { events: ['case.deleted'] }, '/events'],
        ['an unknown key', { secret: 'whsec_mine' }, '/secret'],
        ["another organization's workflow", { workflow_ids: [foreign.workflowId] }, '/workflow_ids'],
        ['a repeated workflow', { workflow_ids: [f.workflowId, f.workflowId] }, '/workflow_ids'],
      ];
      for (const [label, body, path] of cases) {
        const res = await t.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { token: f.org.adminToken, body });
        assert.equal(res.status, 422, `${label}: ${res.text}`);
        assert.ok(assertValidationError(res).includes(path), `${label}: a problem at "${path}" in ${res.text}`);
      }
      for (const rawBody of ['[]', '"url"', '{"url":']) {
        const res = await t.request('PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { token: f.org.adminToken, rawBody });
        assert.equal(res.status, 422, `${rawBody}: ${res.text}`);
        assert.equal(typeof res.body.error, 'string');
      }
      assert.deepEqual(await view(f.org, sub.id), sub.view, 'nothing changed');
    });

    it('answers 401 without an admin token on every new route', async () => {
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: 'https://example.com/hook', events: ['case.closed'] });
      const routes: [string, string, unknown?][] = [
        ['PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { url: 'https://example.com/other' }],
        ['POST', `${SUBSCRIPTIONS}/${sub.id}/deliveries/1/retry`],
        ['POST', `${SUBSCRIPTIONS}/${sub.id}/recover`, { since: '2026-01-01T00:00:00Z' }],
        ['POST', `${SUBSCRIPTIONS}/${sub.id}/enable`],
        ['POST', `${SUBSCRIPTIONS}/${sub.id}/rotate-secret`],
      ];
      for (const [method, url, body] of routes) {
        for (const token of [undefined, f.apiToken, operatorToken(), 'adm_not-a-real-token']) {
          const res = await t.request(method, url, { token, body });
          assert.equal(res.status, 401, `${method} ${url} with ${token ?? 'no token'}: ${res.text}`);
          assert.equal(typeof res.body?.error, 'string');
        }
      }
      assert.deepEqual(await view(f.org, sub.id), sub.view, 'nothing changed');
    });

    it("answers 404 for another organization's subscription and delivery, and for a delivery of another subscription", async (ctx) => {
      const receiver = await receiverFor(ctx);
      const owner = await givenCasesWorkflow(t);
      const sub = await subscribe(t, owner.org, { url: receiver.url, events: ['case.created'] });
      const sibling = await subscribe(t, owner.org, { url: 'https://example.com/hook', events: ['case.closed'] });
      await createdCaseId(owner);
      const [attempt] = await waitFor('one attempt', async () => {
        const log = await deliveriesLog(t, owner.org, sub.id);
        return log.length > 0 && log;
      });
      const stranger = await createOrganization(t);
      const routes: [string, string, unknown?][] = [
        ['PATCH', `${SUBSCRIPTIONS}/${sub.id}`, { url: 'https://example.com/other' }],
        ['POST', `${SUBSCRIPTIONS}/${sub.id}/deliveries/${attempt!.delivery_id}/retry`],
        ['POST', `${SUBSCRIPTIONS}/${sub.id}/recover`, { since: '2026-01-01T00:00:00Z' }],
        ['POST', `${SUBSCRIPTIONS}/${sub.id}/enable`],
        ['POST', `${SUBSCRIPTIONS}/${sub.id}/rotate-secret`],
      ];
      for (const [method, url, body] of routes) {
        const res = await t.request(method, url, { token: stranger.adminToken, body });
        assert.equal(res.status, 404, `${method} ${url}: ${res.text}`);
        assert.equal(typeof res.body.error, 'string');
      }
      for (const url of [`${SUBSCRIPTIONS}/${sibling.id}/deliveries/${attempt!.delivery_id}/retry`, `${SUBSCRIPTIONS}/${sub.id}/deliveries/987654321/retry`, `${SUBSCRIPTIONS}/${sub.id}/deliveries/x/retry`]) {
        const res = await t.request('POST', url, { token: owner.org.adminToken });
        assert.equal(res.status, 404, `${url}: ${res.text}`);
      }
      assert.deepEqual(await view(owner.org, sub.id), sub.view, 'the owner still sees it unchanged');
      assert.equal(receiver.requests.length, 1, 'no retry was sent');
    });

    it('recover refuses a missing or malformed since with 422', async () => {
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: 'https://example.com/hook', events: ['case.closed'] });
      const bodies: [string, unknown, string][] = [
        ['no since', {}, '/since'],
        ['a number', { since: 1763860000 }, '/since'],
        ['not a timestamp', { since: 'yesterday' }, '/since'],
        ['an impossible date', { since: '2026-02-30T00:00:00Z' }, '/since'],
        ['a week date', { since: '2026-W48' }, '/since'],
        ['a date without a time', { since: '2026-11-24' }, '/since'],
        ['an unknown key', { since: '2026-01-01T00:00:00Z', until: '2026-01-02T00:00:00Z' }, '/until'],
      ];
      for (const [label, body, path] of bodies) {
        const res = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/recover`, { token: f.org.adminToken, body });
        assert.equal(res.status, 422, `${label}: ${res.text}`);
        assert.ok(assertValidationError(res).includes(path), `${label}: a problem at ${path} in ${res.text}`);
      }
    });
  });

  describe('retry', () => {
    it('sends a delivered event once more with the same webhook-id and body, logged as a new attempt of the same delivery_id', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.created'] });
      const caseId = await createdCaseId(f);
      await acceptedEvent(receiver, caseId, 'case.created');
      const [first] = await waitFor('the attempt in the log', async () => {
        const log = await deliveriesLog(t, f.org, sub.id);
        return log.length === 1 && log;
      });
      assert.equal(typeof first!.delivery_id, 'number');

      const res = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/deliveries/${first!.delivery_id}/retry`, { token: f.org.adminToken });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.text, '');
      await waitFor('the event sent again', () => receiver.requests.length === 2);
      const [original, again] = receiver.requests;
      assert.equal(again!.headers['webhook-id'], original!.headers['webhook-id']);
      assert.equal(again!.rawBody, original!.rawBody);
      verifySignature(sub.secret, again!);

      const log = await waitFor('two attempts in the log', async () => {
        const attempts = await deliveriesLog(t, f.org, sub.id);
        return attempts.length === 2 && attempts;
      });
      assert.deepEqual(log.map((a) => [a.delivery_id, a.event_id, a.attempt, a.delivered]), [
        [first!.delivery_id, first!.event_id, 2, true],
        [first!.delivery_id, first!.event_id, 1, true],
      ]);
    });

    it('gives a delivery that ended failed exactly one more attempt', async (ctx) => {
      const receiver = await receiverFor(ctx);
      receiver.script = () => 500;
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.created'] });
      await createdCaseId(f);
      const attempt = await waitFor('an attempt', async () => (await deliveriesLog(t, f.org, sub.id))[0]);
      // Its retries ran out (as after 26 hours): ended failed, the subscription still active.
      await db().query(`UPDATE event_deliveries SET give_up_at = now() WHERE id = $1`, [attempt.delivery_id]);
      await waitFor('the delivery to end failed', async () => (await deliveryStates(sub.id)).get(attempt.event_id) === 'failed');
      const before = receiver.requests.length;

      const res = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/deliveries/${attempt.delivery_id}/retry`, { token: f.org.adminToken });
      assert.equal(res.status, 202, res.text);
      await waitFor('the retry to end failed again', async () => (await deliveryStates(sub.id)).get(attempt.event_id) === 'failed' && receiver.requests.length > before);
      assert.equal(receiver.requests.length, before + 1, 'one attempt, not a new series of retries');
      assert.equal(receiver.requests.at(-1)!.headers['webhook-id'], attempt.event_id);
    });
  });

  describe('rotate-secret', () => {
    it('signs with both the new and the replaced secret for a day, then with the new one only', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.created'] });
      const res = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/rotate-secret`, { token: f.org.adminToken });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body), ['signing_secret']);
      const rotated: string = res.body.signing_secret;
      assert.match(rotated, /^whsec_[A-Za-z0-9+/]{40,}={0,2}$/);
      assert.notEqual(rotated, sub.secret);
      const { rows } = await db().query('SELECT secret_ciphertext, previous_secret_ciphertext FROM subscriptions WHERE id = $1', [sub.id]);
      for (const secret of [rotated, sub.secret]) assert.ok(!JSON.stringify(rows).includes(secret.slice('whsec_'.length)), 'secrets are stored only sealed');

      const during = await createdCaseId(f);
      await acceptedEvent(receiver, during, 'case.created');
      const request = receiver.requests.at(-1)!;
      assert.equal(String(request.headers['webhook-signature']).split(' ').length, 2, 'two v1 signatures');
      assert.doesNotThrow(() => verifySignature(rotated, request), 'verifies with the new secret');
      assert.doesNotThrow(() => verifySignature(sub.secret, request), 'verifies with the replaced secret');
      assert.throws(() => verifySignature(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, request), 'not with any secret');

      // A day later (the expiry moved back instead of waiting), only the new secret signs.
      await db().query(`UPDATE subscriptions SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [sub.id]);
      const later = await createdCaseId(f);
      await acceptedEvent(receiver, later, 'case.created');
      const last = receiver.requests.at(-1)!;
      assert.equal(String(last.headers['webhook-signature']).split(' ').length, 1);
      assert.doesNotThrow(() => verifySignature(rotated, last));
      assert.throws(() => verifySignature(sub.secret, last), 'the replaced secret no longer signs');
    });
  });

  describe('enable and recover', () => {
    /** Makes the receiver fail until the subscription is disabled; returns the case whose event disabled it. */
    async function disabledBy(f: CasesFixture, sub: Subscription, receiver: Receiver): Promise<number> {
      receiver.script = () => 500;
      const caseId = await createdCaseId(f);
      await waitFor('the subscription to be disabled', async () => (await view(f.org, sub.id)).status === 'disabled', { describe: () => receiver.requests.length });
      await waitFor('its deliveries to end', async () => [...(await deliveryStates(sub.id)).values()].every((s) => s === 'failed'));
      return caseId;
    }

    it('recover and retry refuse a disabled subscription with 422; enable answers 200 and is harmless on an active one', async (ctx) => {
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: receiver.url, events: ['case.created'] });
      await disabledBy(f, sub, receiver);
      const [attempt] = await deliveriesLog(t, f.org, sub.id);
      const sent = receiver.requests.length;
      for (const [url, body] of [[`${SUBSCRIPTIONS}/${sub.id}/recover`, { since: '2026-01-01T00:00:00Z' }], [`${SUBSCRIPTIONS}/${sub.id}/deliveries/${attempt!.delivery_id}/retry`, undefined]] as const) {
        const res = await t.request('POST', url, { token: f.org.adminToken, body });
        assert.equal(res.status, 422, `${url}: ${res.text}`);
        assert.match(res.body.error, /disabled/);
      }
      assert.equal((await deliveryStates(sub.id)).get(attempt!.event_id), 'failed', 'nothing was reopened');

      const enabled = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/enable`, { token: f.org.adminToken });
      assert.equal(enabled.status, 200, enabled.text);
      assert.deepEqual(Object.keys(enabled.body), ['subscription']);
      assert.deepEqual(
        [enabled.body.subscription.status, enabled.body.subscription.disabled_at, enabled.body.subscription.disabled_reason, enabled.body.subscription.failing_since],
        ['active', null, null, null],
      );
      const again = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/enable`, { token: f.org.adminToken });
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(again.body, enabled.body);
      assert.equal(receiver.requests.length, sent, 'enabling sends nothing by itself');
    });

    it('a receiver that fails for a while then recovers through `recover`', async (ctx) => {
      const startedAt = new Date(Date.now() - 1000).toISOString();
      const receiver = await receiverFor(ctx);
      const f = await givenCasesWorkflow(t);
      const sub = await subscribe(t, f.org, { url: `${receiver.url}/events`, events: ['case.created', 'case.status_changed', 'case.closed'] });

      // Failing: the first case's event is retried until the subscription is disabled.
      const first = await disabledBy(f, sub, receiver);
      // While disabled, events keep happening: they are recorded, ended failed, never sent.
      await closeCase(f, first);
      const missed = [await createdCaseId(f), await createdCaseId(f)];
      await closeCase(f, missed[0]!);
      const requestsWhileDisabled = receiver.requests.length;
      assert.ok(receiver.requests.every((r) => r.answered === 500));

      // The receiver is fixed and the subscription enabled: new events flow, missed ones wait for recover.
      receiver.script = () => 200;
      const enabled = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/enable`, { token: f.org.adminToken });
      assert.equal(enabled.status, 200, enabled.text);
      const fresh = await createdCaseId(f);
      await acceptedEvent(receiver, fresh, 'case.created', '/events');
      assert.equal(receiver.requests.length, requestsWhileDisabled + 1, 'only the new event was sent after enable');
      const cases = [first, ...missed];
      const expected = new Map<number, string[]>();
      for (const caseId of cases) expected.set(caseId, await outboxTypes(caseId));
      assert.deepEqual(expected.get(first), ['case.created', 'case.status_changed', 'case.closed']);
      const total = [...expected.values()].flat().length;
      const states = await deliveryStates(sub.id);
      assert.equal([...states.values()].filter((s) => s === 'failed').length, total, 'every missed event ended failed, waiting');

      const res = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/recover`, { token: f.org.adminToken, body: { since: startedAt } });
      assert.equal(res.status, 202, res.text);
      assert.deepEqual(res.body, { recovering: total });

      await waitFor(`${total} recovered events accepted`, () => receiver.accepted('/events').length === total + 1, {
        describe: () => receiver.requests.map((r) => [r.answered, eventOf(r).type, eventOf(r).data.case.id]),
      });
      const accepted = receiver.accepted('/events');
      const ids = accepted.map((e) => e.id);
      assert.equal(new Set(ids).size, ids.length, 'every event arrived once');
      for (const caseId of cases) {
        assert.deepEqual(accepted.filter((e) => e.data.case.id === caseId).map((e) => e.type), expected.get(caseId), `case ${caseId} in its order`);
      }
      const failedFirst = receiver.requests.find((r) => r.answered === 500)!;
      const recoveredFirst = receiver.requests.find((r) => r.answered === 200 && r.headers['webhook-id'] === failedFirst.headers['webhook-id']);
      assert.ok(recoveredFirst, 'the event that failed is sent again with the same webhook-id');
      assert.equal(recoveredFirst!.rawBody, failedFirst.rawBody, 'and the same body');
      for (const request of receiver.requests) verifySignature(sub.secret, request);
      await waitFor('every delivery delivered', async () => [...(await deliveryStates(sub.id)).values()].every((s) => s === 'delivered'));

      const nothingLeft = await t.request('POST', `${SUBSCRIPTIONS}/${sub.id}/recover`, { token: f.org.adminToken, body: { since: startedAt } });
      assert.equal(nothingLeft.status, 202, nothingLeft.text);
      assert.deepEqual(nothingLeft.body, { recovering: 0 }, 'a second recover finds nothing failed');
    });
  });
});
