/**
 * Hostile input on test runs (builder.md §2): POST /api/admin/v1/workflows/{id}/test_runs
 * answers every body with a bounded, documented status and a JSON `{"error"}` (never a 500),
 * bounds what a run may do (moves stop at the limit, a request to a private address is refused
 * by the SSRF guard in its step, not sent), and stores nothing, whatever it was sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { receiverFor, startIsolatedApp } from '../support/automation-helpers.js';
import { caseRowCounts } from '../support/case-rows.js';
import {
  contentType, credential, type FuzzCase, fuzz, hostileBody, hostileString, hostileValue, MAX_BODY_BYTES, MAX_DEPTH, nested, objectWith, objectWithKeys, pathId,
} from '../support/hostile-input.js';
import { createOrganization, createWorkflow, type Organization } from '../support/scenario.js';
import type { InjectResult, TestApp } from '../support/test-app.js';

/** Every status the route documents (openapi: createWorkflowTestRun). */
const DOCUMENTED = [200, 400, 401, 404, 413, 414, 415, 422];
const STOPPED_BECAUSE = ['finished', 'closed', 'failed', 'error', 'move_limit'];
const REFUSAL = 'the request could not be sent to that address';
/** Closed on loopback: with the guard off a request would fail fast; with it on, it is never made. */
const NOWHERE = 'http://127.0.0.1:9';

const definition = (automations: Record<string, unknown[]>, overrides: Record<string, unknown> = {}) => ({
  name: 'Hostile test runs',
  case_source: 'direct',
  statuses: ['Triage', 'Review'],
  attributes: { customer_email: { type: 'string', required: true, format: 'email' }, priority: { type: 'integer', enum: [1, 2, 3] }, note: { type: 'string' } },
  automations,
  ...overrides,
});

/** A little of everything a run does: a condition, a change, a (refused) call, a wait, moves back and forth. */
const BUSY = definition({
  Open: [
    { if: { field: 'attributes.priority', equals: 1 }, then: [{ set_attributes: { note: 'vip {{ attributes.customer_email }}' } }], else: [{ wait: { seconds: 60 } }] },
    { http_request: { method: 'POST', url: `${NOWHERE}/hook`, body: { email: '{{ attributes.customer_email }}' }, retries: 0 } },
    { set_status: 'Triage' },
  ],
  Triage: [{ set_status: 'Review' }],
  Review: [{ set_status: 'Triage' }],
});

/** A run's answer is bounded: a declared status at the end, at most 21 moves, each step traced once. */
function checkTrace(res: InjectResult): void {
  const run = res.body.test_run;
  assert.ok(STOPPED_BECAUSE.includes(run.stopped_because), res.text.slice(0, 300));
  assert.ok(['Open', 'Closed', 'Error', 'Triage', 'Review'].includes(run.final.status), res.text.slice(0, 300));
  assert.ok(run.steps.filter((s: { outcome: string }) => s.outcome === 'move').length <= 21, 'moves are bounded');
  assert.ok(run.steps.length <= 200, `${run.steps.length} steps`);
}

describe('workflow test runs: hostile input', () => {
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  let t: TestApp;
  let org: Organization;
  let other: Organization;
  let workflowId: number;
  let before0: Record<string, number>;
  const url = (id: number | string = workflowId) => `/api/admin/v1/workflows/${id}/test_runs`;
  const testRun = (body: unknown, id?: number) => t.request('POST', url(id), { token: org.adminToken, body });
  const rawTestRun = (rawBody: string, id?: number) => t.request('POST', url(id), { token: org.adminToken, rawBody });

  before(async () => {
    // The SSRF guard as in production; no rate limit, for the many requests of one token.
    app = await startIsolatedApp({ OUTBOUND_ALLOW_PRIVATE: 'false', RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' });
    t = app.t;
    org = await createOrganization(t);
    other = await createOrganization(t);
    workflowId = await createWorkflow(t, org, BUSY);
    // Subscribed, so that a real case would leave events and deliveries too.
    const subscribed = await t.request('POST', '/api/admin/v1/subscriptions', { token: org.adminToken, body: { url: 'https://hooks.example.com/in', events: ['case.created', 'case.status_changed', 'case.closed'] } });
    assert.equal(subscribed.status, 201, subscribed.text);
    before0 = await caseRowCounts(app.database.pool);
  });
  after(async () => {
    // Whatever was sent, nothing was stored.
    if (app) assert.deepEqual(await caseRowCounts(app.database.pool), before0);
    await app?.close();
  });

  /** A refusal with its JSON error, no longer than a few kilobytes plus what it quotes of the request (`quoted`: the longest value sent). */
  async function refused(res: InjectResult, status: number, what: string, quoted = 0): Promise<InjectResult> {
    assert.equal(res.status, status, `${what}: ${res.text.slice(0, 300)}`);
    assert.equal(typeof res.body?.error, 'string', `${what}: ${res.text.slice(0, 300)}`);
    assert.ok(res.text.length < 16 * 1024 + quoted, `${what}: a bounded answer, not ${res.text.length} characters`);
    return res;
  }

  it('answers generated hostile requests with a documented status and a JSON error, never a 5xx', async () => {
    // Mostly valid values, so that runs happen too; then anything.
    const mostly = <T,>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<unknown>) => fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: hostile });
    const shaped = objectWith(
      {
        definition: mostly(fc.constantFrom('draft', 'published'), fc.oneof(hostileString, hostileValue)),
        status: mostly(fc.constantFrom('Open', 'Triage', 'Review', 'Closed'), fc.oneof(fc.constantFrom('Error', 'Nowhere'), hostileString, hostileValue)),
        attributes: mostly(
          fc.record({ customer_email: fc.constantFrom('a@example.com', 'not an email'), priority: mostly(fc.constantFrom(1, 2, 3), hostileValue), note: hostileString }, { requiredKeys: ['customer_email'] }),
          fc.oneof(fc.dictionary(fc.string({ maxLength: 10 }), hostileValue, { maxKeys: 4 }), hostileValue),
        ),
        send_requests: mostly(fc.boolean(), hostileValue),
      },
      0,
    );
    const cases = fc
      .record({ cred: credential(org.adminToken, ['garbage'], [other.adminToken]), id: pathId(workflowId), type: contentType(true), body: hostileBody(shaped, 'status') })
      .map(({ cred, id, type, body }): FuzzCase => ({
        probe: { method: 'POST', url: url(id), body, contentType: type, authorization: cred.authorization },
        allowed: DOCUMENTED,
        auth: cred.auth,
        readsBody: true,
        idsWellFormed: /^[1-9][0-9]*$/.test(id) && Number(id) < 2 ** 53,
        onSuccess: checkTrace,
      }));
    const statuses = await fuzz(t, cases, 400);
    assert.ok((statuses.get(200) ?? 0) > 0 && (statuses.get(422) ?? 0) > 0, `both runs and refusals: ${JSON.stringify([...statuses])}`);
  });

  it('refuses huge and deeply nested attributes before anything runs', async () => {
    const huge = `{"attributes":{"customer_email":"a@example.com","note":"${'x'.repeat(MAX_BODY_BYTES)}"}}`;
    await refused(await rawTestRun(huge), 413, 'a body over 1 MB');
    for (const kind of ['object', 'array'] as const) {
      await refused(await rawTestRun(`{"attributes":{"customer_email":"a@example.com","note":${nested(MAX_DEPTH, kind)}}}`), 422, `attributes nested past ${MAX_DEPTH} (${kind})`);
      await refused(await rawTestRun(`{"attributes":{"customer_email":"a@example.com","note":${nested(100_000, kind)}}}`), 422, `attributes nested 100,000 deep (${kind})`);
    }
    const deepest = await testRun({ attributes: { customer_email: 'a@example.com', deep: JSON.parse(nested(MAX_DEPTH - 3, 'object')) } });
    assert.equal(deepest.status, 200, `nested as deep as allowed: ${deepest.text.slice(0, 300)}`);
    checkTrace(deepest);
    // Wide: validated as a case's attributes would be (note is a string), in one bounded answer.
    const wide = await refused(await rawTestRun(`{"attributes":${objectWithKeys(20_000, { customer_email: 'a@example.com', note: 5 })}}`), 422, 'a wrong type among 20,000 keys');
    assert.equal(wide.body.error, 'attributes_validation_failed');
    assert.deepEqual(wide.body.validation_errors.map((p: { path: string }) => p.path), ['/note']);
    const many = await testRun({ attributes: { customer_email: 'a@example.com', ...Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 'x'.repeat(30)])) } });
    assert.equal(many.status, 200, many.text.slice(0, 300));
    checkTrace(many);
    const sensitive = await createWorkflow(t, org, definition({}, { sensitive_data: true }), false);
    // One problem per undeclared key, as a case gets: the answer grows with the request (at most 1 MB), no further.
    const undeclaredBody = `{"attributes":${objectWithKeys(20_000, { customer_email: 'a@example.com' })}}`;
    const undeclared = await refused(await rawTestRun(undeclaredBody, sensitive), 422, '20,000 undeclared keys of a sensitive workflow', 20 * undeclaredBody.length);
    assert.equal(undeclared.body.error, 'attributes_validation_failed');
    assert.equal(undeclared.body.validation_errors.length, 20_000);
  });

  it('refuses a body of the wrong types, an unknown definition and a status the definition does not declare', async () => {
    const attributes = { customer_email: 'a@example.com' };
    for (const body of ['[]', 'null', '"draft"', '1', 'true', '[{"definition":"draft"}]']) await refused(await rawTestRun(body), 422, `body ${body}`);
    const wrongTypes = [
      ...[1, true, null, [], {}, ['draft']].map((definition) => ({ definition })),
      ...[1, true, null, [], {}].map((status) => ({ status })),
      ...['true', 1, 0, null, [], {}].map((send_requests) => ({ send_requests })),
      ...['x', 1, true, null, [], [attributes]].map((value) => ({ attributes: value })),
    ];
    for (const body of wrongTypes) await refused(await testRun({ attributes, ...body }), 422, JSON.stringify(body));
    for (const definition of ['latest', 'Draft', 'PUBLISHED', '', ' draft', 'draft\u0000', 'x'.repeat(100_000)]) {
      await refused(await testRun({ attributes, definition }), 422, `definition ${JSON.stringify(definition).slice(0, 40)}`, definition.length);
    }
    for (const status of ['Nowhere', '', 'open', 'Triage ', 'Error', 'x'.repeat(100_000), 'Triage\u0000', '\ud800', '{{ attributes.status }}']) {
      const res = await refused(await testRun({ attributes, status }), 422, `status ${JSON.stringify(status).slice(0, 40)}`, status.length);
      if (res.body.validation_errors) assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), ['/status'], res.text.slice(0, 300));
    }
    await refused(await testRun({ attributes, extra: 1, __proto__: { definition: 'x' } }), 422, 'an undocumented key');
    await refused(await t.request('POST', url(), { token: other.adminToken, body: { attributes } }), 404, 'another organization\'s workflow');
  });

  it('stops a definition that loops forever at the move limit, in a bounded answer', async () => {
    const run = await testRun({ status: 'Triage', attributes: { customer_email: 'a@example.com' } });
    assert.equal(run.status, 200, run.text);
    checkTrace(run);
    const { steps, stopped_because, final } = run.body.test_run;
    assert.equal(stopped_because, 'move_limit');
    assert.equal(steps.length, 21);
    assert.deepEqual(steps.at(-1), { ...steps.at(-1), outcome: 'move', followed: false });
    assert.equal(final.status, 'Triage', 'the 20th move, back to Triage, is the last made');
  });

  it('refuses, in the step, a request to a private address when asked to send: the SSRF guard\'s error, no request', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const targets = [`${receiver.url}/hook`, 'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]:9/hook', 'http://0.0.0.0:9/hook', 'http://localhost:9/hook', 'http://2130706433/hook', 'http://[::ffff:127.0.0.1]:9/hook'];
    for (const target of targets) {
      const workflow = await createWorkflow(t, org, definition({ Open: [{ http_request: { method: 'GET', url: target, retries: 0 } }, { set_status: 'Triage' }] }), false);
      const res = await testRun({ send_requests: true, attributes: { customer_email: 'a@example.com' } }, workflow);
      assert.equal(res.status, 200, `${target}: ${res.text}`);
      const { steps, stopped_because, final } = res.body.test_run;
      assert.equal(steps.length, 1, `${target}: the run stops at the refused call`);
      assert.equal(steps[0].outcome, 'error', `${target}: ${res.text}`);
      assert.match(steps[0].error, new RegExp(`failed: ${REFUSAL} \\(after 0 retries\\)$`), `${target}: ${steps[0].error}`);
      assert.equal(steps[0].response, undefined, target);
      assert.equal(stopped_because, 'error');
      assert.equal(final.status, 'Error');
    }
    assert.equal(receiver.requests.length, 0, 'nothing reached the receiver');
  });
});
