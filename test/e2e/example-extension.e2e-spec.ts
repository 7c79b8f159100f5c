/**
 * The example extension (examples/ticket-extension) loaded into the real application through
 * the public entry point: its step type is learned by the definition validator, the API
 * documents and the builder's list, and runs, on a case its own source created, with the service's
 * guarded HTTP client.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Module } from '@nestjs/common';
import { StepType, type StepOutcome, type StepTypeDefinition } from '../../src/extension-api/index.js';
import { OpenTicketStep } from '../../examples/ticket-extension/src/open-ticket.step.js';
import { signTicketBusMessage } from '../../examples/ticket-extension/src/ticket-bus-signature.js';
import { TicketExtensionModule } from '../../examples/ticket-extension/src/ticket-extension.module.js';
import { assertValidationError } from '../support/foundation-assertions.js';
import { assertParkedInError, createCase, findEvent, givenAutomation, receiverFor, startIsolatedApp, timelineOf, waitForSettled } from '../support/automation-helpers.js';
import { sampleDefinition } from '../support/scenario.js';
import { startTestApp } from '../support/test-app.js';

const REFUSAL = 'the request could not be sent to that address';
const STEP = '/automations/Open/0/open_ticket';
const BUS_SECRET = 'ticket-bus-secret-0123456789';

/** The sample workflow's attributes, and the ticket id the step stores. */
const attributes = { ...(sampleDefinition().attributes as Record<string, unknown>), ticket_id: { type: 'string' } };

describe('the example ticket extension in the real application', () => {
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  before(async () => { app = await startIsolatedApp({}, [TicketExtensionModule]); });
  after(async () => { await app?.close(); });

  it('lists open_ticket with its schema next to the built-in step types, and in /openapi.json', async () => {
    const { adminToken } = (await givenAutomation(app.t, {})).org;
    const res = await app.t.request('GET', '/api/admin/v1/step_types', { token: adminToken });
    assert.equal(res.status, 200, res.text);
    const types = res.body.step_types as { type: string; external: boolean; arguments_schema: { required?: string[] } }[];
    assert.deepEqual(types.map((t) => t.type).sort(), ['assign', 'close', 'fail', 'http_request', 'open_ticket', 'set_attributes', 'set_status', 'wait']);
    const openTicket = types.find((t) => t.type === 'open_ticket')!;
    assert.equal(openTicket.external, true);
    assert.deepEqual(openTicket.arguments_schema.required, ['url', 'title']);
    const doc = (await app.t.request('GET', '/openapi.json')).body;
    assert.deepEqual(doc.components.schemas.OpenTicketStep.properties.open_ticket, openTicket.arguments_schema);
    assert.ok(doc.components.schemas.Step.oneOf.some((s: { $ref: string }) => s.$ref === '#/components/schemas/OpenTicketStep'));
  });

  it('refuses bad arguments of an open_ticket step with a 422 at their JSON Pointer', async () => {
    const { org } = await givenAutomation(app.t, {});
    const save = (step: Record<string, unknown>) => app.t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: sampleDefinition({ attributes, automations: { Open: [{ open_ticket: step }] } }) });
    assert.deepEqual(assertValidationError(await save({ url: 'https://tickets.example/api', title: 7 }), 'workflow_definition_invalid'), [`${STEP}/title`]);
    assert.deepEqual(assertValidationError(await save({ url: 'https://tickets.example/api', title: 'T', colour: 'red' }), 'workflow_definition_invalid'), [`${STEP}/colour`]);
    assert.deepEqual(assertValidationError(await save({ title: 'T' }), 'workflow_definition_invalid'), [STEP]);
  });

  it('saves and publishes a workflow using open_ticket; a case from its ticket bus source runs it, which opens a ticket through the guarded client and stores the id', async (test) => {
    const tickets = await receiverFor(test, () => ({ status: 201, body: { id: 'T-100' } }));
    const w = await givenAutomation(app.t, {
      Open: [{ open_ticket: { url: `${tickets.url}/api/tickets`, title: 'Case {{ case.id }} from {{ attributes.customer_email }}', token_secret: 'TICKETS_TOKEN' } }, { close: { outcome: 'Ticketed' } }],
    }, { attributes, case_source: 'ticket_bus' });
    for (const [name, value] of [['TICKETS_TOKEN', 'tk-1234'], ['TICKET_BUS_SECRET', BUS_SECRET]]) {
      const secret = await app.t.request('PUT', `/api/admin/v1/secrets/${name}`, { token: w.org.adminToken, body: { value } });
      assert.equal(secret.status, 200, secret.text);
    }
    const message = JSON.stringify({ title: 'Printer on fire', customer_email: 'ada@example.com' });
    const signature = signTicketBusMessage(BUS_SECRET, Buffer.from(message), Date.now() / 1000);
    const created = await app.t.request('POST', `/api/ext/ticket-bus/v1/workflows/${w.workflowId}/cases`, { rawBody: message, headers: { 'x-ticket-bus-signature': signature } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.case.source_type, 'ticket_bus');
    const caseId: number = created.body.case.id;
    const settled = await waitForSettled(caseId, 'Closed', { pool: app.database.pool });
    assert.equal(settled.attributes.ticket_id, 'T-100');
    assert.equal(tickets.requests.length, 1);
    const [request] = tickets.requests;
    assert.equal(request!.method, 'POST');
    assert.equal(request!.url, '/api/tickets');
    assert.equal(request!.headers.authorization, 'Bearer tk-1234');
    assert.deepEqual(JSON.parse(request!.body), { title: `Case ${caseId} from ada@example.com`, case_id: caseId });
    findEvent(await timelineOf(w, caseId), 'open_ticket', { ticket_id: 'T-100' });
  });

  it('a case source\'s subject gets the cases API\'s checks: over 1,000 characters is a 422 at /subject, and nothing is created', async () => {
    const w = await givenAutomation(app.t, { Open: [{ close: { outcome: 'Ticketed' } }] }, { attributes, case_source: 'ticket_bus' });
    assert.equal((await app.t.request('PUT', '/api/admin/v1/secrets/TICKET_BUS_SECRET', { token: w.org.adminToken, body: { value: BUS_SECRET } })).status, 200);
    const send = (title: string) => {
      const message = JSON.stringify({ title, customer_email: 'ada@example.com' });
      return app.t.request('POST', `/api/ext/ticket-bus/v1/workflows/${w.workflowId}/cases`, { rawBody: message, headers: { 'x-ticket-bus-signature': signTicketBusMessage(BUS_SECRET, Buffer.from(message), Date.now() / 1000) } });
    };
    const refused = await send('x'.repeat(1001));
    assert.equal(refused.status, 422, refused.text);
    assert.deepEqual(refused.body.validation_errors, [{ path: '/subject', error: 'subject must be shorter than or equal to 1000 characters' }]);
    const cases = await app.t.request('GET', `/api/admin/v1/cases?workflow_id=${w.workflowId}`, { token: w.org.adminToken });
    assert.equal(cases.status, 200, cases.text);
    assert.equal(cases.body.cases.length, 0, 'nothing was created');
    assert.equal((await send('x'.repeat(1000))).status, 201, '1,000 characters are a subject');
  });
});

describe('the example ticket extension with private addresses refused', () => {
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  before(async () => { app = await startIsolatedApp({ OUTBOUND_ALLOW_PRIVATE: 'false' }, [TicketExtensionModule]); });
  after(async () => { await app?.close(); });

  it('an open_ticket step aimed at a loopback address is refused by the guard: nothing is sent and the case is parked in Error', async (test) => {
    const tickets = await receiverFor(test, () => ({ status: 201, body: { id: 'T-1' } }));
    const w = await givenAutomation(app.t, { Open: [{ open_ticket: { url: `${tickets.url}/api/tickets`, title: 'T', retries: 0 } }] }, { attributes });
    await assertParkedInError(w, await createCase(w), `open_ticket: ${tickets.url}/api/tickets failed: ${REFUSAL} (after 0 retries)`, app.database.pool);
    assert.equal(tickets.requests.length, 0);
  });
});

describe('step type names are unique', () => {
  @StepType()
  class AnotherClose implements StepTypeDefinition {
    readonly type = 'close';
    readonly argumentsSchema = { type: 'object' };
    async run(): Promise<StepOutcome> { return { kind: 'next' }; }
  }
  @Module({ providers: [AnotherClose] })
  class ClashingExtension {
    static readonly apiVersion = '1.0.0';
  }
  @StepType()
  class AnotherOpenTicket extends OpenTicketStep {}
  @Module({ providers: [AnotherOpenTicket] })
  class SecondTicketExtension {
    static readonly apiVersion = '1.0.0';
  }

  it('an extension\'s step type named like a built-in one stops the start, naming both', async () => {
    await assert.rejects(startTestApp({ extensions: [ClashingExtension] }), /two step types are named "close": CloseStep and AnotherClose; rename one of them/);
  });

  it('two extensions with a step type of one name stop the start', async () => {
    await assert.rejects(startTestApp({ extensions: [TicketExtensionModule, SecondTicketExtension] }), /two step types are named "open_ticket"/);
  });
});
