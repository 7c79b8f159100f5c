import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signTicketBusMessage } from '../src/ticket-bus-signature.js';
import { TicketBusSenderScheme } from '../src/ticket-bus.sender-scheme.js';

const SECRET = 'bus-secret-0123456789';
const BODY = Buffer.from('{"title":"Printer on fire"}');
const NOW = 1_764_000_000;

describe('the ticket_bus sender scheme', () => {
  const scheme = new TicketBusSenderScheme();

  it('takes tolerance_seconds only, and refuses a secret shorter than 16 characters at /secret', () => {
    assert.deepEqual(scheme.options, ['tolerance_seconds']);
    assert.deepEqual(scheme.settle({ tolerance_seconds: 60 }, SECRET), { options: { tolerance_seconds: 60 }, problems: [] });
    assert.deepEqual(scheme.settle({ tolerance_seconds: 60 }, 'short').problems.map((problem) => problem.path), ['/secret']);
  });

  it('verifies the signature header over the exact body with the settled tolerance', () => {
    const verify = scheme.verifier({ tolerance_seconds: 60 }, SECRET);
    const request = (signature: string | undefined, body = BODY) => ({ header: (name: string) => (name === 'x-ticket-bus-signature' ? signature : undefined), body, nowSeconds: NOW });
    assert.ok(verify(request(signTicketBusMessage(SECRET, BODY, NOW - 60))));
    assert.ok(!verify(request(signTicketBusMessage(SECRET, BODY, NOW - 61))));
    assert.ok(!verify(request(signTicketBusMessage(SECRET, BODY, NOW), Buffer.from('{}'))));
    assert.ok(!verify(request(undefined)));
  });
});
