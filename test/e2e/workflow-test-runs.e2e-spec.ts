/**
 * Test runs (builder.md §2): POST /api/admin/v1/workflows/{id}/test_runs runs a definition's
 * automation with the engine's own step code on a case that is never stored, and traces every
 * step. The property that a test run and a real test-mode case agree is in
 * workflow-test-runs-property.e2e-spec.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TicketExtensionModule } from '../../examples/ticket-extension/src/ticket-extension.module.js';
import { isolatedRedisPrefix, receiverFor, startIsolatedApp } from '../support/automation-helpers.js';
import { caseRowCounts } from '../support/case-rows.js';
import { createOrganization, createWorkflow, type Organization } from '../support/scenario.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const CRM_KEY = 'crm-live-3f9a/+&=';
const REFUSAL = 'the request could not be sent to that address';

const definition = (automations: Record<string, unknown[]>, overrides: Record<string, unknown> = {}) => ({
  name: 'Test runs',
  case_source: 'direct',
  statuses: ['Triage', 'Review'],
  default_outcome: 'Resolved',
  attributes: {
    customer_email: { type: 'string', required: true, format: 'email' },
    priority: { type: 'integer', enum: [1, 2, 3] },
    queue: { type: 'string' },
    crm: { type: 'any' },
  },
  automations,
  ...overrides,
});

/** The contract's example: a condition, an attribute change, a call carrying a secret, a move. */
const CONTRACT_EXAMPLE = (url: string) => ({
  Open: [
    { if: { field: 'attributes.priority', equals: 1 }, then: [{ set_attributes: { queue: 'vip' } }], else: [{ set_attributes: { queue: 'standard' } }] },
    { http_request: { method: 'POST', url: `${url}/hooks`, headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' }, body: { email: '{{ attributes.customer_email }}', key: '{{ secrets.CRM_KEY }}' }, retries: 0 } },
    { set_status: 'Triage' },
  ],
});

async function givenOrganization(t: TestApp): Promise<Organization> {
  const org = await createOrganization(t);
  const stored = await t.request('PUT', '/api/admin/v1/secrets/CRM_KEY', { token: org.adminToken, body: { value: CRM_KEY } });
  assert.equal(stored.status, 200, stored.text);
  return org;
}

const testRun = (t: TestApp, org: Organization, workflowId: number, body: unknown) =>
  t.request('POST', `/api/admin/v1/workflows/${workflowId}/test_runs`, { token: org.adminToken, body });

async function assertTraced(t: TestApp, org: Organization, workflowId: number, body: unknown) {
  const res = await testRun(t, org, workflowId, body);
  assert.equal(res.status, 200, res.text);
  assert.ok(!res.text.includes(CRM_KEY) && !res.text.includes(encodeURIComponent(CRM_KEY)), `the answer shows the secret: ${res.text}`);
  return res.body.test_run;
}

describe('workflow test runs', () => {
  let t: TestApp;
  let org: Organization;
  before(async () => {
    t = await startTestApp();
    org = await givenOrganization(t);
  });
  after(async () => { await t.close(); await closeDb(); });

  it('traces the contract example without sending: every step with its pointer, the request with its secrets hidden', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const workflowId = await createWorkflow(t, org, definition({ ...CONTRACT_EXAMPLE(receiver.url), Triage: [{ close: { outcome: 'Auto-resolved' } }] }), false);
    const run = await assertTraced(t, org, workflowId, { attributes: { customer_email: 'a@example.com', priority: 1 } });
    assert.deepEqual(run.steps.map(({ duration_ms, ...step }: Record<string, unknown>) => (assert.equal(typeof duration_ms, 'number'), step)), [
      { path: '/automations/Open/0', type: 'if', outcome: 'then' },
      { path: '/automations/Open/0/then/0', type: 'set_attributes', outcome: 'change', changes: { queue: 'vip' } },
      {
        path: '/automations/Open/1', type: 'http_request', outcome: 'not_sent',
        request: { method: 'POST', url: `${receiver.url}/hooks`, headers: { 'content-type': 'application/json', authorization: 'Bearer [secret CRM_KEY]' }, body: { email: 'a@example.com', key: '[secret CRM_KEY]' } },
      },
      { path: '/automations/Open/2', type: 'set_status', outcome: 'move', to: 'Triage' },
      { path: '/automations/Triage/0', type: 'close', outcome: 'close', to: 'Closed', case_outcome: 'Auto-resolved' },
    ]);
    assert.deepEqual(run.final, { status: 'Closed', outcome: 'Auto-resolved', attributes: { customer_email: 'a@example.com', priority: 1, queue: 'vip' } });
    assert.equal(run.stopped_because, 'closed');
    assert.equal(receiver.requests.length, 0, 'nothing was sent');

    const otherBranch = await assertTraced(t, org, workflowId, { attributes: { customer_email: 'a@example.com' }, status: 'Open', definition: 'draft', send_requests: false });
    assert.deepEqual(otherBranch.steps.slice(0, 2).map((s: { path: string; outcome: string }) => [s.path, s.outcome]), [['/automations/Open/0', 'else'], ['/automations/Open/0/else/0', 'change']]);
  });

  it('sends when asked, through the guarded client, marked as a test run: the answer is shown and saved, secrets still hidden', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 201, body: { ticket: 'T-7' } }));
    const workflowId = await createWorkflow(t, org, definition({
      Open: [{ http_request: { method: 'POST', url: `${receiver.url}/hooks?key={{ secrets.CRM_KEY }}`, headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' }, save_response_as: 'crm', retries: 0 } }],
    }), false);
    const run = await assertTraced(t, org, workflowId, { attributes: { customer_email: 'a@example.com' }, send_requests: true });
    assert.equal(receiver.requests.length, 1);
    const [sent] = receiver.requests;
    assert.equal(sent!.headers['x-case-intake-test-run'], 'true');
    assert.equal(sent!.headers.authorization, `Bearer ${CRM_KEY}`, 'the receiver gets the secret itself');
    assert.equal(sent!.url, `/hooks?key=${encodeURIComponent(CRM_KEY)}`);
    const [step] = run.steps;
    assert.equal(step.outcome, 'sent');
    assert.deepEqual(step.request, { method: 'POST', url: `${receiver.url}/hooks?key=[secret CRM_KEY]`, headers: { authorization: 'Bearer [secret CRM_KEY]' } });
    assert.deepEqual(step.response, { status: 201, body: JSON.stringify({ ticket: 'T-7' }) });
    assert.deepEqual(step.changes, { crm: { ticket: 'T-7' } });
    assert.deepEqual(run.final, { status: 'Open', outcome: null, attributes: { customer_email: 'a@example.com', crm: { ticket: 'T-7' } } });
    assert.equal(run.stopped_because, 'finished');
  });

  it('a failing step shows its error as a real run would, with secrets hidden, and the run stops there in Error', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 503, rawBody: `down, key ${CRM_KEY}` }));
    const workflowId = await createWorkflow(t, org, definition({
      Open: [{ set_attributes: { queue: 'q1' } }, { http_request: { method: 'GET', url: `${receiver.url}/status?key={{ secrets.CRM_KEY }}`, retries: 2 } }, { set_status: 'Triage' }],
    }), false);
    const run = await assertTraced(t, org, workflowId, { attributes: { customer_email: 'a@example.com' }, send_requests: true });
    assert.equal(run.steps.length, 2);
    assert.deepEqual({ ...run.steps[1], duration_ms: 0 }, {
      path: '/automations/Open/1', type: 'http_request', outcome: 'error', duration_ms: 0,
      error: `GET ${receiver.url}/status answered 503`,
      request: { method: 'GET', url: `${receiver.url}/status?key=[secret CRM_KEY]`, headers: {} },
      response: { status: 503, body: 'down, key [secret CRM_KEY]' },
    });
    assert.deepEqual(run.final, { status: 'Error', outcome: null, attributes: { customer_email: 'a@example.com', queue: 'q1' } });
    assert.equal(run.stopped_because, 'error');

    const schemaBreak = await createWorkflow(t, org, definition({ Open: [{ set_attributes: { priority: 9 } }, { close: {} }] }), false);
    const refused = await assertTraced(t, org, schemaBreak, { attributes: { customer_email: 'a@example.com' } });
    assert.deepEqual(refused.steps.map((s: { outcome: string }) => s.outcome), ['error']);
    assert.match(refused.steps[0].error, /^set_attributes: \/priority /);
    assert.equal(refused.stopped_because, 'error');
  });

  it('hides a secret holding quotes, backslashes, line breaks, control and non-ASCII characters in every form: the shown body, the url, a receiver\'s echo, a saved answer', async (test) => {
    const hard = 'q"uo\\te\nline\t\u0001\u2028é€😀/+&= x';
    assert.equal((await t.request('PUT', '/api/admin/v1/secrets/HARD_KEY', { token: org.adminToken, body: { value: hard } })).status, 200);
    // The receiver answers with the body it got: the secret comes back JSON-escaped inside the answer's text.
    const receiver = await receiverFor(test, (_, request) => ({ status: 200, rawBody: request.body }));
    const workflowId = await createWorkflow(t, org, definition({
      Open: [{ http_request: { method: 'POST', url: `${receiver.url}/hooks?key={{ secrets.HARD_KEY }}`, body: { key: '{{ secrets.HARD_KEY }}', note: 'Key: {{ secrets.HARD_KEY }}!' }, save_response_as: 'crm', retries: 0 } }],
    }), false);
    const json = JSON.stringify(hard).slice(1, -1);
    const forms = [hard, json, JSON.stringify(json).slice(1, -1), encodeURIComponent(hard), json.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)];
    for (const send_requests of [false, true]) {
      const res = await testRun(t, org, workflowId, { send_requests, attributes: { customer_email: 'a@example.com' } });
      assert.equal(res.status, 200, res.text);
      for (const form of forms) assert.ok(!res.text.includes(form), `the answer shows the secret as ${JSON.stringify(form)}: ${res.text}`);
      const [step] = res.body.test_run.steps;
      assert.deepEqual(step.request.body, { key: '[secret HARD_KEY]', note: 'Key: [secret HARD_KEY]!' });
      assert.equal(step.request.url, `${receiver.url}/hooks?key=[secret HARD_KEY]`);
      if (send_requests) {
        const masked = { key: '[secret HARD_KEY]', note: 'Key: [secret HARD_KEY]!' };
        assert.deepEqual(JSON.parse(step.response.body), masked);
        assert.deepEqual(step.changes, { crm: masked }, 'the saved echo is shown masked');
        assert.deepEqual(res.body.test_run.final.attributes.crm, masked);
      }
    }
    assert.equal(JSON.parse(receiver.requests[0]!.body).key, hard, 'the receiver gets the secret itself');
  });

  it('hides a secret a receiver echoed wherever a later step shows it again (a set_attributes copy, a fail step\'s error) and where the shown answer is cut', async (test) => {
    const secret = 'echoed-9f2c1e7a';
    assert.equal((await t.request('PUT', '/api/admin/v1/secrets/ECHO_KEY', { token: org.adminToken, body: { value: secret } })).status, 200);
    // The echo stands across the 4,096th character of the answer, where the shown answer is cut.
    const receiver = await receiverFor(test, (_, request) => ({ status: 200, rawBody: JSON.stringify({ pad: 'x'.repeat(4_096 - 20), key: JSON.parse(request.body).key }) }));
    const workflowId = await createWorkflow(t, org, definition({
      Open: [
        { http_request: { method: 'POST', url: `${receiver.url}/echo`, body: { key: '{{ secrets.ECHO_KEY }}' }, save_response_as: 'crm', retries: 0 } },
        { set_attributes: { queue: '{{ attributes.crm.key }}' } },
        { fail: 'the receiver said {{ attributes.crm.key }}' },
      ],
    }), false);
    const res = await testRun(t, org, workflowId, { send_requests: true, attributes: { customer_email: 'a@example.com' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(receiver.requests.length, 1);
    assert.ok(!res.text.includes(secret.slice(0, 8)), `the answer shows the secret or its start: ${res.text}`);
    const [, copied, failed] = res.body.test_run.steps;
    assert.deepEqual(copied.changes, { queue: '[secret ECHO_KEY]' });
    assert.equal(failed.error, 'the receiver said [secret ECHO_KEY]');
    assert.equal(res.body.test_run.final.attributes.queue, '[secret ECHO_KEY]');
  });

  it('a header of the draft named X-Case-Intake-Test-Run, in any case of its name, cannot replace the mark of a test run', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const workflowId = await createWorkflow(t, org, definition({
      Open: [{ http_request: { method: 'GET', url: `${receiver.url}/a`, headers: { 'x-CASE-intake-Test-RUN': 'false' }, retries: 0 } }],
    }), false);
    await assertTraced(t, org, workflowId, { send_requests: true, attributes: { customer_email: 'a@example.com' } });
    assert.equal(receiver.requests.length, 1);
    assert.equal(receiver.requests[0]!.headers['x-case-intake-test-run'], 'true');
  });

  it('sends at most 20 requests in one run: the step that would send the 21st stops it with stopped_because budget', async (test) => {
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const call = { http_request: { method: 'GET', url: `${receiver.url}/n`, retries: 0 } };
    const workflowId = await createWorkflow(t, org, definition({ Open: [...Array.from({ length: 21 }, () => call), { set_status: 'Triage' }] }), false);
    const run = await assertTraced(t, org, workflowId, { send_requests: true, attributes: { customer_email: 'a@example.com' } });
    assert.equal(receiver.requests.length, 20);
    assert.equal(run.stopped_because, 'budget');
    assert.equal(run.steps.length, 21);
    assert.deepEqual({ ...run.steps[20], duration_ms: 0 }, {
      path: '/automations/Open/20', type: 'http_request', outcome: 'error', duration_ms: 0,
      error: 'the test run sent the 20 requests it may; nothing more was sent',
      request: { method: 'GET', url: `${receiver.url}/n`, headers: {} },
    });
    assert.equal(run.final.status, 'Open');
    const unsent = await assertTraced(t, org, workflowId, { attributes: { customer_email: 'a@example.com' } });
    assert.equal(unsent.stopped_because, 'finished', 'requests not sent cost nothing');
  });

  it('follows moves up to 20, notes and skips a wait, and ends a fail step with failed', async () => {
    const loop = await createWorkflow(t, org, definition({ Open: [{ set_status: 'Triage' }], Triage: [{ wait: { seconds: 3600 } }, { set_status: 'Open' }] }), false);
    const looped = await assertTraced(t, org, loop, { attributes: { customer_email: 'a@example.com' } });
    assert.equal(looped.stopped_because, 'move_limit');
    const moves = looped.steps.filter((s: { outcome: string }) => s.outcome === 'move');
    assert.equal(moves.length, 21);
    assert.deepEqual(moves.at(-1), { ...moves.at(-1), to: 'Triage', followed: false });
    assert.equal(looped.steps.filter((s: { outcome: string; seconds?: number }) => s.outcome === 'wait' && s.seconds === 3600).length, 10);
    assert.equal(looped.final.status, 'Open', 'the 20th move is the last made');

    const failing = await createWorkflow(t, org, definition({ Triage: [{ set_attributes: { queue: 'q' } }, { fail: 'no queue for {{ attributes.customer_email }}' }, { close: {} }] }), false);
    const failed = await assertTraced(t, org, failing, { status: 'Triage', attributes: { customer_email: 'a@example.com' } });
    assert.deepEqual(failed.steps.map((s: { path: string; outcome: string }) => [s.path, s.outcome]), [['/automations/Triage/0', 'change'], ['/automations/Triage/1', 'fail']]);
    assert.equal(failed.steps[1].error, 'no queue for a@example.com');
    assert.deepEqual(failed.final, { status: 'Error', outcome: null, attributes: { customer_email: 'a@example.com', queue: 'q' } });
    assert.equal(failed.stopped_because, 'failed');

    const quiet = await assertTraced(t, org, failing, { attributes: { customer_email: 'a@example.com' } });
    assert.deepEqual(quiet, { steps: [], final: { status: 'Open', outcome: null, attributes: { customer_email: 'a@example.com' } }, stopped_because: 'finished' });
  });

  it('runs the draft or the published version as asked; published on an unpublished workflow is a 422', async () => {
    const workflowId = await createWorkflow(t, org, definition({ Open: [{ set_attributes: { queue: 'published' } }] }));
    const draft = definition({ Open: [{ set_attributes: { queue: 'draft' } }] });
    assert.equal((await t.request('PUT', `/api/admin/v1/workflows/${workflowId}`, { token: org.adminToken, body: draft })).status, 200);
    const attributes = { customer_email: 'a@example.com' };
    assert.equal((await assertTraced(t, org, workflowId, { attributes })).final.attributes.queue, 'draft');
    assert.equal((await assertTraced(t, org, workflowId, { attributes, definition: 'published' })).final.attributes.queue, 'published');
    assert.equal((await t.request('POST', `/api/admin/v1/workflows/${workflowId}/unpublish`, { token: org.adminToken })).status, 200);
    const refused = await testRun(t, org, workflowId, { attributes, definition: 'published' });
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(refused.body, { error: 'this workflow is not published' });
    const unpublishedYet = await createWorkflow(t, org, draft, false);
    assert.equal((await testRun(t, org, unpublishedYet, { attributes, definition: 'published' })).status, 422);
  });

  it('refuses attributes as a case would, a request of the wrong shape, and a status that is not declared', async () => {
    const workflowId = await createWorkflow(t, org, definition({ Open: [{ close: {} }] }), false);
    const missing = await testRun(t, org, workflowId, {});
    assert.equal(missing.status, 422, missing.text);
    assert.equal(missing.body.error, 'attributes_validation_failed');
    assert.deepEqual(missing.body.validation_errors.map((p: { path: string }) => p.path), ['']);
    assert.match(missing.body.validation_errors[0].error, /customer_email/);
    const wrongType = await testRun(t, org, workflowId, { attributes: { customer_email: 'a@example.com', priority: 7 } });
    assert.equal(wrongType.status, 422);
    assert.deepEqual(wrongType.body.validation_errors.map((p: { path: string }) => p.path), ['/priority']);
    for (const body of [{ definition: 'latest' }, { send_requests: 'yes' }, { attributes: [] }, { attributes: null }, { status: 7 }, { extra: 1 }]) {
      const res = await testRun(t, org, workflowId, { attributes: { customer_email: 'a@example.com' }, ...body });
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(typeof res.body.error, 'string');
    }
    for (const status of ['Nowhere', 'Error']) {
      const res = await testRun(t, org, workflowId, { status, attributes: { customer_email: 'a@example.com' } });
      assert.equal(res.status, 422, res.text);
      assert.deepEqual(res.body.validation_errors.map((p: { path: string }) => p.path), ['/status']);
    }
  });

  it('a draft today\'s rules refuse is a 422 pointing into it', async () => {
    const workflowId = await createWorkflow(t, org, definition({ Open: [{ set_status: 'Triage' }] }), false);
    // A draft saved when it was valid (here: a step type an extension no longer registers).
    const broken = definition({ Open: [{ set_status: 'Triage' }, { open_ticket: { title: 'x' } }] });
    await db().query('UPDATE workflows SET draft = $2 WHERE id = $1', [workflowId, JSON.stringify(broken)]);
    const res = await testRun(t, org, workflowId, { attributes: { customer_email: 'a@example.com' } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.error, 'workflow_definition_invalid');
    assert.ok(res.body.validation_errors.some((p: { path: string }) => p.path.startsWith('/automations/Open/1')), res.text);
  });

  it('answers 404 for another organization\'s workflow and 401 without the admin token', async () => {
    const other = await createOrganization(t);
    const workflowId = await createWorkflow(t, other, definition({ Open: [{ close: {} }] }));
    for (const which of ['draft', 'published']) {
      assert.equal((await testRun(t, org, workflowId, { definition: which, attributes: { customer_email: 'a@example.com' } })).status, 404);
    }
    const anonymous = await t.request('POST', `/api/admin/v1/workflows/${workflowId}/test_runs`, { body: {} });
    assert.equal(anonymous.status, 401);
  });
});

describe('workflow test runs on an app of their own', () => {
  it('store nothing, sent or not: no case, run, timeline row, usage, event, delivery or report row', async (test) => {
    const app = await startIsolatedApp({});
    test.after(() => app.close());
    const receiver = await receiverFor(test, () => ({ status: 200, body: { ok: true } }));
    const own = await givenOrganization(app.t);
    // Subscribed and listened to, so that a real case would leave rows in every table counted.
    const subscribed = await app.t.request('POST', '/api/admin/v1/subscriptions', { token: own.adminToken, body: { url: 'https://hooks.example.com/in', events: ['case.created', 'case.status_changed', 'case.closed'] } });
    assert.ok([200, 201].includes(subscribed.status), subscribed.text);
    const workflowId = await createWorkflow(app.t, own, definition({ ...CONTRACT_EXAMPLE(receiver.url), Triage: [{ set_attributes: { crm: 1 } }, { close: {} }] }));
    const before = await caseRowCounts(app.database.pool);
    for (const send_requests of [false, true]) {
      for (const which of ['draft', 'published']) {
        const run = await assertTraced(app.t, own, workflowId, { definition: which, send_requests, attributes: { customer_email: 'a@example.com', priority: 2 } });
        assert.equal(run.stopped_because, 'closed');
      }
    }
    assert.equal(receiver.requests.filter((r) => r.url === '/hooks').length, 2, 'sent only when asked');
    assert.deepEqual(await caseRowCounts(app.database.pool), before);
  });

  it('a sent request goes through the guarded client: a private address is refused', async (test) => {
    const app = await startIsolatedApp({ OUTBOUND_ALLOW_PRIVATE: 'false' });
    test.after(() => app.close());
    const receiver = await receiverFor(test, () => ({ status: 200, body: {} }));
    const own = await givenOrganization(app.t);
    const workflowId = await createWorkflow(app.t, own, definition(CONTRACT_EXAMPLE(receiver.url)), false);
    const run = await assertTraced(app.t, own, workflowId, { send_requests: true, attributes: { customer_email: 'a@example.com' } });
    const call = run.steps.find((s: { type: string }) => s.type === 'http_request');
    assert.equal(call.outcome, 'error');
    assert.equal(call.error, `http_request: POST ${receiver.url}/hooks failed: ${REFUSAL} (after 0 retries)`);
    assert.equal(run.stopped_because, 'error');
    assert.equal(receiver.requests.length, 0);
  });

  it('run an extension\'s step with its own code: its call is captured, or sent marked as a test run, with its secret hidden', async (test) => {
    const app = await startTestApp({ extensions: [TicketExtensionModule] });
    test.after(() => app.close());
    const tickets = await receiverFor(test, () => ({ status: 201, body: { id: 'T-100' } }));
    const own = await createOrganization(app);
    assert.equal((await app.request('PUT', '/api/admin/v1/secrets/TICKETS_TOKEN', { token: own.adminToken, body: { value: 'tk-1234' } })).status, 200);
    const workflowId = await createWorkflow(app, own, definition({
      Open: [{ open_ticket: { url: `${tickets.url}/api/tickets`, title: 'From {{ attributes.customer_email }}', token_secret: 'TICKETS_TOKEN' } }, { close: {} }],
    }, { attributes: { customer_email: { type: 'string' }, ticket_id: { type: 'string' } } }), false);
    const shown = { method: 'POST', url: `${tickets.url}/api/tickets`, headers: { 'content-type': 'application/json', authorization: 'Bearer [secret TICKETS_TOKEN]' }, body: { title: 'From a@example.com', case_id: 0 } };
    const run = async (send_requests: boolean) => {
      const res = await testRun(app, own, workflowId, { send_requests, attributes: { customer_email: 'a@example.com' } });
      assert.equal(res.status, 200, res.text);
      assert.ok(!res.text.includes('tk-1234'), res.text);
      return res.body.test_run;
    };
    const captured = await run(false);
    assert.deepEqual({ ...captured.steps[0], duration_ms: 0 }, { path: '/automations/Open/0', type: 'open_ticket', outcome: 'not_sent', duration_ms: 0, request: shown });
    assert.deepEqual(captured.final.attributes, { customer_email: 'a@example.com' });
    assert.equal(tickets.requests.length, 0);
    const sent = await run(true);
    assert.equal(sent.steps[0].outcome, 'sent');
    assert.deepEqual(sent.steps[0].changes, { ticket_id: 'T-100' });
    assert.deepEqual(sent.final, { status: 'Closed', outcome: 'Resolved', attributes: { customer_email: 'a@example.com', ticket_id: 'T-100' } });
    assert.equal(tickets.requests.length, 1);
    assert.equal(tickets.requests[0]!.headers['x-case-intake-test-run'], 'true');
    assert.equal(tickets.requests[0]!.headers.authorization, 'Bearer tk-1234');
  });

  it('count against the admin rate limit of the token', async () => {
    const limited = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '4', ROLE: 'api', REDIS_PREFIX: isolatedRedisPrefix() } });
    try {
      const own = await createOrganization(limited);
      const workflowId = await createWorkflow(limited, own, definition({ Open: [{ close: {} }] }), false);
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await testRun(limited, own, workflowId, { attributes: { customer_email: 'a@example.com' } })).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
