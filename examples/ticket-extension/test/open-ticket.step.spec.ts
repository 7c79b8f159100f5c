import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GuardedHttpRequest, GuardedHttpResponse, StepContext } from 'case-intake-service/extension-api';
import { OpenTicketStep, type OpenTicketArguments } from '../src/open-ticket.step.js';

const TOKEN = 'tk-secret';

/** A context as the engine gives one, with an HTTP client that answers `answer` and one secret, TICKETS_TOKEN. */
function contextWith(args: OpenTicketArguments, answer: (request: GuardedHttpRequest) => Promise<GuardedHttpResponse>, attempt = 0) {
  const sent: GuardedHttpRequest[] = [];
  const logged: string[] = [];
  const context: StepContext<OpenTicketArguments> = {
    arguments: args,
    case: { id: 41, workflow_id: 3, subject: 'Broken printer', status: 'Open', mode: 'live', attributes: { floor: 2 } },
    attempt,
    // The engine's templates; enough of them for these tests.
    render: (value) => String(value).replace('{{ case.id }}', '41').replace('{{ attributes.floor }}', '2'),
    secrets: async (names) => ({ found: names.includes('TICKETS_TOKEN') ? { TICKETS_TOKEN: TOKEN } : ({} as Record<string, string>), missing: names.filter((n) => n !== 'TICKETS_TOKEN') }),
    http: { send: (request) => (sent.push(request), answer(request)) },
    log: { info: (message) => logged.push(message), warn: (message) => logged.push(message) },
  };
  return { context, sent, logged };
}

const ok = (body: unknown): Promise<GuardedHttpResponse> => Promise.resolve({ status: 201, contentType: 'application/json', text: JSON.stringify(body) });
const step = new OpenTicketStep();
const ARGS: OpenTicketArguments = { url: 'https://tickets.example/api/tickets', title: 'Case {{ case.id }} on floor {{ attributes.floor }}', token_secret: 'TICKETS_TOKEN' };

describe('open_ticket', () => {
  it('posts the rendered title with the secret as a Bearer token, and stores the ticket id', async () => {
    const { context, sent, logged } = contextWith(ARGS, () => ok({ id: 'T-7' }));
    const outcome = await step.run(context);
    assert.deepEqual(outcome, { kind: 'change', attributes: { ticket_id: 'T-7' }, note: { ticket_id: 'T-7' } });
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.method, 'POST');
    assert.equal(sent[0]!.url, ARGS.url);
    assert.equal(sent[0]!.headers!.authorization, `Bearer ${TOKEN}`);
    assert.deepEqual(JSON.parse(sent[0]!.body!), { title: 'Case 41 on floor 2', case_id: 41 });
    assert.deepEqual(logged, ['ticket opened']);
  });

  it('stores the id under save_as, and sends no Authorization without token_secret', async () => {
    const { context, sent } = contextWith({ url: ARGS.url, title: 'x', save_as: 'jira_key' }, () => ok({ id: 12 }));
    assert.deepEqual(await step.run(context), { kind: 'change', attributes: { jira_key: 12 }, note: { ticket_id: 12 } });
    assert.equal(sent[0]!.headers!.authorization, undefined);
  });

  it('fails naming a missing secret, and sends nothing', async () => {
    const { context, sent } = contextWith({ ...ARGS, token_secret: 'OTHER' }, () => ok({ id: 1 }));
    assert.deepEqual(await step.run(context), { kind: 'fail', error: 'open_ticket: secret OTHER does not exist' });
    assert.equal(sent.length, 0);
  });

  it('retries a failing API with backoff, then fails the run', async () => {
    const answer = () => Promise.resolve({ status: 503, contentType: undefined, text: '' });
    assert.deepEqual(await step.run(contextWith(ARGS, answer, 1).context), { kind: 'retry', delayMs: 2_000, error: `${ARGS.url} answered 503` });
    assert.deepEqual(await step.run(contextWith(ARGS, answer, 2).context), { kind: 'fail', error: `open_ticket: ${ARGS.url} answered 503 (after 2 retries)` });
  });

  it('fails with the client\'s refusal when the address is not allowed', async () => {
    const refused = () => Promise.reject(new Error('the request could not be sent to that address'));
    const outcome = await step.run(contextWith({ ...ARGS, retries: 0 }, refused).context);
    assert.deepEqual(outcome, { kind: 'fail', error: `open_ticket: ${ARGS.url} failed: the request could not be sent to that address (after 0 retries)` });
  });

  it('fails when the answer holds no ticket id', async () => {
    const { context } = contextWith(ARGS, () => ok({ ticket: 'T-7' }));
    assert.deepEqual(await step.run(context), { kind: 'fail', error: 'open_ticket: the ticketing API answered without a ticket id' });
  });
});
