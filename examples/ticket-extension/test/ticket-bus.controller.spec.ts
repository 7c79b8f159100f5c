import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException } from '@nestjs/common';
import { CaseIntake, type CaseSourceDefinition, type IntakeWorkflow, type JsonText, type SourceCaseReceipt, type SourceCaseRequest } from 'case-intake-service/extension-api';
import { signTicketBusMessage } from '../src/ticket-bus-signature.js';
import { TicketBusController } from '../src/ticket-bus.controller.js';
import { TICKET_BUS_SECRET, type TicketBusCaller, TicketBusSource } from '../src/ticket-bus.source.js';

const SECRET = 'bus-secret-0123456789';
const WORKFLOW: IntakeWorkflow = { id: 7, organizationId: 3, name: 'Tickets', version: 1 };

/** The service's side, as the extension API describes it: one workflow of organization 3 takes ticket bus cases. */
class RecordingIntake extends CaseIntake {
  readonly created: Array<{ source: CaseSourceDefinition; request: SourceCaseRequest }> = [];
  secretless = false;

  async publishedWorkflow(source: CaseSourceDefinition, workflowId: number) {
    return source.sourceType === 'ticket_bus' && workflowId === WORKFLOW.id ? WORKFLOW : undefined;
  }

  async organizationSecret(organizationId: number, name: string) {
    return !this.secretless && organizationId === WORKFLOW.organizationId && name === TICKET_BUS_SECRET ? SECRET : undefined;
  }

  requestBody(request: unknown): JsonText | undefined {
    const text = (request as { text?: string }).text;
    return text === undefined ? undefined : { value: JSON.parse(text), text };
  }

  async createCase(source: CaseSourceDefinition, request: SourceCaseRequest): Promise<SourceCaseReceipt> {
    this.created.push({ source, request });
    return { caseId: 100 + this.created.length, replayed: false };
  }
}

const CALLER: TicketBusCaller = { workflow: WORKFLOW, secret: SECRET };

/** The route's handler, called as the service does once the source's `authenticate` let the caller in. */
function post(controller: TicketBusController, text: string, signature: string | undefined, messageId?: string) {
  let status = 201;
  const result = controller.receive(CALLER, signature, messageId, { text }, { status: (code: number) => (status = code) });
  return result.then((body) => ({ status, body }));
}

const credentialOf = (workflowId: string) => ({ params: { workflowId }, headers: {}, query: {} });

async function refusedWith(status: number, attempt: Promise<unknown>): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => error instanceof HttpException && error.getStatus() === status);
}

describe('the ticket bus route', () => {
  const now = () => Date.now() / 1000;

  it('creates a case from a signed message: its keys the attributes, its title the subject, its message id the idempotency key', async () => {
    const intake = new RecordingIntake();
    const source = new TicketBusSource(intake);
    const text = '{"title":"Printer on fire","priority":1}';
    const answer = await post(new TicketBusController(intake, source), text, signTicketBusMessage(SECRET, Buffer.from(text), now()), 'msg-1');
    assert.deepEqual(answer, { status: 201, body: { case: { id: 101, source_type: 'ticket_bus' }, replayed: false } });
    assert.equal(intake.created[0]!.source, source);
    assert.deepEqual(intake.created[0]!.request, { workflowId: 7, attributes: { value: { title: 'Printer on fire', priority: 1 }, text }, subject: 'Printer on fire', idempotencyKey: 'msg-1' });
  });

  it('lets in, before the body is read, only a caller of a workflow taking ticket bus cases whose organization has a bus secret', async () => {
    const intake = new RecordingIntake();
    const source = new TicketBusSource(intake);
    assert.deepEqual(await source.authenticate(credentialOf('7')), CALLER);
    for (const workflowId of ['8', '07', 'abc', '']) assert.equal(await source.authenticate(credentialOf(workflowId)), undefined, workflowId);
    intake.secretless = true;
    assert.equal(await source.authenticate(credentialOf('7')), undefined, 'no secret set');
  });

  it('answers the same 401 for a wrong or stale signature, and no signature, creating nothing', async () => {
    const intake = new RecordingIntake();
    const controller = new TicketBusController(intake, new TicketBusSource(intake));
    const text = '{"title":"x"}';
    await refusedWith(401, post(controller, text, signTicketBusMessage('another-secret-0123', Buffer.from(text), now())));
    await refusedWith(401, post(controller, text, signTicketBusMessage(SECRET, Buffer.from(text), now() - 301)));
    await refusedWith(401, post(controller, text, undefined));
    assert.equal(intake.created.length, 0);
  });

  it('refuses a signed message whose title is not a string with 422', async () => {
    const intake = new RecordingIntake();
    const text = '{"title":42}';
    await refusedWith(422, post(new TicketBusController(intake, new TicketBusSource(intake)), text, signTicketBusMessage(SECRET, Buffer.from(text), now())));
    assert.equal(intake.created.length, 0);
  });
});
