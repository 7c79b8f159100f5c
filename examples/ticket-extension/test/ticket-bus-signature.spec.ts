import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { signTicketBusMessage, verifyTicketBusSignature } from '../src/ticket-bus-signature.js';

const SECRET = 'bus-secret-0123456789';
const BODY = Buffer.from('{"title":"Printer on fire","priority":1}');
const NOW = 1_764_000_000;

describe('ticket bus signatures', () => {
  it('passes what the bus signs, within the tolerance either way', () => {
    for (const signedAt of [NOW, NOW - 300, NOW + 300]) {
      assert.ok(verifyTicketBusSignature(signTicketBusMessage(SECRET, BODY, signedAt), SECRET, BODY, NOW, 300), `signed at ${signedAt - NOW}`);
    }
  });

  it('refuses a stale or future message, a changed body, another secret, and malformed or missing headers', () => {
    const signed = signTicketBusMessage(SECRET, BODY, NOW);
    assert.ok(!verifyTicketBusSignature(signTicketBusMessage(SECRET, BODY, NOW - 301), SECRET, BODY, NOW, 300));
    assert.ok(!verifyTicketBusSignature(signTicketBusMessage(SECRET, BODY, NOW + 301), SECRET, BODY, NOW, 300));
    assert.ok(!verifyTicketBusSignature(signed, SECRET, Buffer.from('{"title":"Printer on fire","priority":2}'), NOW, 300));
    assert.ok(!verifyTicketBusSignature(signed, 'another-secret-0123', BODY, NOW, 300));
    for (const header of [undefined, '', `t=${NOW}`, `t=${NOW},v1=zz`, `t=${NOW},v1=${'0'.repeat(64)}`, signed.toUpperCase(), `${signed},v1=${'0'.repeat(64)}`]) {
      assert.ok(!verifyTicketBusSignature(header, SECRET, BODY, NOW, 300), String(header));
    }
  });
});
