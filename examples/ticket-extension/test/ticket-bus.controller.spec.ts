import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpException } from '@nestjs/common';
import { CaseIntake, type CaseSourceDefinition, type IntakeWorkflow, type JsonText, type SourceCaseReceipt, type SourceCaseRequest } from '../../../src/extension-api/index.js';
import { signTicketBusMessage } from '../src/ticket-bus-signature.js';
import { TICKET_BUS_SECRET, TicketBusController } from '../src/ticket-bus.controller.js';
import { TicketBusSource } from '../src/ticket-bus.source.js';

const SECRET = 'bus-secret-0123456789';
const WORKFLOW: IntakeWorkflow = { id: 7, organizationId: 3, name: 'Tickets', version: 1 };

/** The service's side, as the extension API describes it: one workflow of organization 3 takes ticket bus cases. */
class RecordingIntake extends CaseIntake {
  readonly created: Array<{ source: CaseSourceDefinition; request: SourceCaseRequest }> = [];

  async publishedWorkflow(source: CaseSourceDefinition, workflowId: number) {
    return source.sourceType === 'ticket_bus' && workflowId === WORKFLOW.id ? WORKFLOW : undefined;
  }

  async organizationSecret(organizationId: number, name: string) {
    return organizationId === WORKFLOW.organizationId && name === TICKET_BUS_SECRET ? SECRET : undefined;
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

function post(controller: TicketBusController, workflowId: string, text: string, signature: string | undefined, messageId?: string) {
  let status = 201;
  const result = controller.receive(workflowId, signature, messageId, { text }, { status: (code: number) => (status = code) });
  return result.then((body) => ({ status, body }));
}

async function refusedWith(status: number, attempt: Promise<unknown>): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => error instanceof HttpException && error.getStatus() === status);
}

describe('the ticket bus route', () => {
  const now = () => Date.now() / 1000;

  it('creates a case from a signed message: its keys the attributes, its title the subject, its message id the idempotency key', async () => {
    const intake = new RecordingIntake();
    const source = new TicketBusSource();
    const text = '{"title":"Printer on fire","priority":1}';
    const answer = await post(new TicketBusController(intake, source), '7', text, signTicketBusMessage(SECRET, Buffer.from(text), now()), 'msg-1');
    assert.deepEqual(answer, { status: 201, body: { case: { id: 101, source_type: 'ticket_bus' }, replayed: false } });
    assert.equal(intake.created[0]!.source, source);
    assert.deepEqual(intake.created[0]!.request, { workflowId: 7, attributes: { value: { title: 'Printer on fire', priority: 1 }, text }, subject: 'Printer on fire', idempotencyKey: 'msg-1' });
  });

  it('answers the same 401 for another workflow, a wrong or stale signature, and no signature, creating nothing', async () => {
    const intake = new RecordingIntake();
    const controller = new TicketBusController(intake, new TicketBusSource());
    const text = '{"title":"x"}';
    const signed = signTicketBusMessage(SECRET, Buffer.from(text), now());
    await refusedWith(401, post(controller, '8', text, signed));
    await refusedWith(401, post(controller, '07', text, signed));
    await refusedWith(401, post(controller, '7', text, signTicketBusMessage('another-secret-0123', Buffer.from(text), now())));
    await refusedWith(401, post(controller, '7', text, signTicketBusMessage(SECRET, Buffer.from(text), now() - 301)));
    await refusedWith(401, post(controller, '7', text, undefined));
    assert.equal(intake.created.length, 0);
  });

  it('refuses a signed message whose title is not a string with 422', async () => {
    const intake = new RecordingIntake();
    const text = '{"title":42}';
    await refusedWith(422, post(new TicketBusController(intake, new TicketBusSource()), '7', text, signTicketBusMessage(SECRET, Buffer.from(text), now())));
    assert.equal(intake.created.length, 0);
  });
});
