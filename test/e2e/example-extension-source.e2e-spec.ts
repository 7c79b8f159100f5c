import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { CaseSource, SenderScheme, type CaseSourceDefinition, type SenderSchemeDefinition } from '../../src/extension-api/index.js';
import { signTicketBusMessage } from '../../examples/ticket-extension/src/ticket-bus-signature.js';
import { TicketExtensionModule } from '../../examples/ticket-extension/src/ticket-extension.module.js';
import { isolatedRedisPrefix } from '../support/automation-helpers.js';
import { assertJsonError, assertValidationError } from '../support/foundation-assertions.js';
import { createOrganization, createWorkflow, type Organization } from '../support/scenario.js';
import { db, startTestApp, type TestApp } from '../support/test-app.js';
import { createdCaseId, directDefinition, givenWebhook, postWebhook } from '../support/webhook-helpers.js';

const SECRET = 'ticket-bus-secret-0123456789';
const ticketPath = (workflowId: number | string) => `/api/ext/ticket-bus/v1/workflows/${workflowId}/cases`;
const ticketDefinition = (overrides: Record<string, unknown> = {}) => ({
  name: 'Bus tickets',
  case_source: 'ticket_bus',
  attributes: { title: { type: 'string', required: true }, priority: { type: 'integer' } },
  ...overrides,
});

/** POSTs `text` to the ticket bus route the way the bus does: signed now with `secret`. */
function postTicket(t: TestApp, workflowId: number | string, text: string, options: { secret?: string; headers?: Record<string, string> } = {}) {
  const signature = signTicketBusMessage(options.secret ?? SECRET, Buffer.from(text), Date.now() / 1000);
  return t.request('POST', ticketPath(workflowId), { rawBody: text, headers: { 'x-ticket-bus-signature': signature, ...options.headers } });
}

async function casesOf(workflowId: number): Promise<number> {
  return Number((await db().query('SELECT count(*) FROM cases WHERE workflow_id = $1', [workflowId])).rows[0].count);
}

describe('the example extension\'s case source and sender scheme, loaded into the real application', () => {
  let t: TestApp;
  let org: Organization;
  let workflowId: number;

  before(async () => {
    t = await startTestApp({ extensions: [TicketExtensionModule] });
    org = await createOrganization(t);
    assert.equal((await t.request('PUT', '/api/admin/v1/secrets/TICKET_BUS_SECRET', { token: org.adminToken, body: { value: SECRET } })).status, 200);
    workflowId = await createWorkflow(t, org, ticketDefinition());
  });
  after(() => t.close());

  it('accepts the registered source type as a workflow\'s case_source, and still refuses an unknown one at /case_source', async () => {
    const res = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: ticketDefinition({ case_source: 'ticket_bus_v2' }) });
    assert.deepEqual(assertValidationError(res, 'workflow_definition_invalid'), ['/case_source']);
    assert.match(res.body.validation_errors[0].error, /"ticket_bus"/);
  });

  it('creates a case that the admin API lists and shows with source_type ticket_bus, every digit of its attributes kept', async () => {
    const text = '{"title":"Printer on fire","priority":1,"serial":12345678901234567890123}';
    const res = await postTicket(t, workflowId, text, { headers: { 'x-ticket-bus-message-id': 'msg-1' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.case.source_type, 'ticket_bus');
    const caseId: number = res.body.case.id;

    const listed = await t.request('GET', `/api/admin/v1/cases?source=ticket_bus&workflow_id=${workflowId}`, { token: org.adminToken });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body.cases.map((c: { id: number; source_type: string }) => [c.id, c.source_type]), [[caseId, 'ticket_bus']]);
    const shown = await t.request('GET', `/api/admin/v1/cases/${caseId}`, { token: org.adminToken });
    assert.equal(shown.body.case.subject, 'Printer on fire');
    assert.equal(shown.body.case.source_type, 'ticket_bus');
    // Every digit of a number JavaScript cannot hold is kept (jsonb orders the keys its own way).
    assert.match(shown.text, /"attributes":\{[^}]*"serial": 12345678901234567890123[,}]/);

    const timeline = await t.request('GET', `/api/admin/v1/cases/${caseId}/timeline`, { token: org.adminToken });
    const created = timeline.body.events.find((event: { type: string }) => event.type === 'created');
    assert.deepEqual([created.by, created.source], [{ type: 'case_source', source_type: 'ticket_bus' }, 'ticket_bus'], timeline.text);

    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const range = `from=${new Date(hour).toISOString()}&to=${new Date(hour + 3_600_000).toISOString()}&interval=hour`;
    const report = await t.request('GET', `/api/admin/v1/reports/cases?${range}`, { token: org.adminToken });
    assert.equal(report.status, 200, report.text);
    assert.equal(report.body.report.totals.created, 1, 'reports count it among the created cases');
    assert.deepEqual(report.body.report.series[0].created_by_source, { API: 0, Webhook: 0, Email: 0, Form: 0 });

    const again = await postTicket(t, workflowId, text, { headers: { 'x-ticket-bus-message-id': 'msg-1' } });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, { case: { id: caseId, source_type: 'ticket_bus' }, replayed: true });
    assert.equal(await casesOf(workflowId), 1);
  });

  it('refuses a bad credential with the same 401 JSON error, creating nothing', async () => {
    const before = await casesOf(workflowId);
    const text = '{"title":"x"}';
    const other = await createWorkflow(t, org, directDefinition());
    const refused = [
      await postTicket(t, workflowId, text, { secret: 'not-the-organization-secret' }),
      await t.request('POST', ticketPath(workflowId), { rawBody: text }),
      await postTicket(t, 999_999_999, text),
      await postTicket(t, other, text),
      await postTicket(t, 'abc', text),
    ];
    for (const res of refused) assertJsonError(res, 401);
    assert.equal(await casesOf(workflowId), before);
  });

  it('checks the source\'s credential before the body is read: a workflow it does not let in is a 401 even for a body over 1 MB', async () => {
    assertJsonError(await postTicket(t, 999_999_999, `{"title":"${'x'.repeat(1_048_576)}"}`), 401);
  });

  it('gives bad input the documented status: 422 for what cannot be a case, 415 for another type, 413 over 1 MB', async () => {
    const before = await casesOf(workflowId);
    assert.deepEqual(assertValidationError(await postTicket(t, workflowId, '{"title":"x","priority":"high"}'), 'attributes_validation_failed').length, 1);
    assertValidationError(await postTicket(t, workflowId, '{"priority":1}'), 'attributes_validation_failed');
    assertJsonError(await postTicket(t, workflowId, '[1,2]'), 422);
    assertJsonError(await postTicket(t, workflowId, '{"title":42}'), 422);
    assertJsonError(await postTicket(t, workflowId, '{"title":'), 422);
    assertJsonError(await postTicket(t, workflowId, '{"title":"x"}', { headers: { 'x-ticket-bus-message-id': 'not a key' } }), 422);
    assertJsonError(await postTicket(t, workflowId, '{"title":"x"}', { headers: { 'content-type': 'text/plain' } }), 415);
    assertJsonError(await postTicket(t, workflowId, `{"title":"${'x'.repeat(1_048_576)}"}`), 413);
    assert.equal(await casesOf(workflowId), before);
  });

  it('offers its sender scheme to the webhook verification settings, which the incoming webhook then checks with', async () => {
    const w = await givenWebhook(t);
    const path = `/api/admin/v1/workflows/${w.workflowId}/webhook/verification`;
    const put = (body: unknown) => t.request('PUT', path, { token: w.org.adminToken, body });
    assert.deepEqual(assertValidationError(await put({ scheme: 'ticket_bus', secret: 'short' })), ['/secret']);
    assert.deepEqual(assertValidationError(await put({ scheme: 'ticket_bus', secret: SECRET, header: 'x-sig' })), ['/header']);
    assert.deepEqual(assertValidationError(await put({ scheme: 'ticket_bus_v2', secret: SECRET })), ['/scheme']);
    const set = await put({ scheme: 'ticket_bus', secret: SECRET, tolerance_seconds: 60 });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual({ ...set.body.verification, created_at: undefined, updated_at: undefined }, { scheme: 'ticket_bus', tolerance_seconds: 60, created_at: undefined, updated_at: undefined });

    const text = '{"ticket":"T-1"}';
    const signedNow = signTicketBusMessage(SECRET, Buffer.from(text), Date.now() / 1000);
    createdCaseId(await postWebhook(t, w.workflowId, w.token, text, { headers: { 'x-ticket-bus-signature': signedNow } }));
    const stale = signTicketBusMessage(SECRET, Buffer.from(text), Date.now() / 1000 - 61);
    const refusals: Record<string, string>[] = [{}, { 'x-ticket-bus-signature': stale }, { 'x-ticket-bus-signature': signTicketBusMessage('another-secret-0123456', Buffer.from(text), Date.now() / 1000) }];
    for (const headers of refusals) {
      const res = await postWebhook(t, w.workflowId, w.token, text, { headers });
      assert.equal(assertJsonError(res, 401).error, 'signature verification failed');
    }
  });
});

describe('the example extension\'s route under the service\'s rate limits', () => {
  it('answers 429 with Retry-After once its caller\'s address spent its window, like every route', async () => {
    const limited = await startTestApp({ extensions: [TicketExtensionModule], env: { RATE_LIMIT_PER_ADDRESS: '3', REDIS_PREFIX: isolatedRedisPrefix() } });
    try {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await postTicket(limited, 999999999, '{"title":"x"}'));
      assert.deepEqual(answers.map((res) => res.status), [401, 401, 401, 429]);
      assertJsonError(answers[3]!, 429);
      assert.match(String(answers[3]!.headers['retry-after']), /^[0-9]+$/);
    } finally {
      await limited.close();
    }
  });
});

describe('names an extension shares with the service', () => {
  @CaseSource()
  @Injectable()
  class AnotherWebhookSource implements CaseSourceDefinition {
    readonly sourceType = 'Webhook';
    readonly label = 'Another webhook';
  }

  @SenderScheme()
  @Injectable()
  class AnotherGithubScheme implements SenderSchemeDefinition {
    readonly name = 'github';
    readonly options = [];
    settle() {
      return { options: {}, problems: [] };
    }
    verifier() {
      return () => true;
    }
  }

  @Module({ providers: [AnotherWebhookSource] })
  class ClashingSourceModule {
    static readonly apiVersion = '1.0.0';
  }

  @Module({ providers: [AnotherGithubScheme] })
  class ClashingSchemeModule {
    static readonly apiVersion = '1.0.0';
  }

  it('stop the start with a message naming both providers', async () => {
    await assert.rejects(startTestApp({ extensions: [ClashingSourceModule] }), /two case sources are named "Webhook": WebhookCaseSource and AnotherWebhookSource/);
    await assert.rejects(startTestApp({ extensions: [ClashingSchemeModule] }), /two sender schemes are named "github": githubSenderScheme and AnotherGithubScheme/);
  });
});
