import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyProblem, MAX_BODY_BYTES, MAX_MENTIONS, mentionedAddresses, replySubject } from './comment.js';
import { requesterOf } from './requester.js';

describe('replySubject', () => {
  it('is one line whatever the subject holds: CR, LF, other control characters and line separators become spaces', () => {
    assert.equal(replySubject('Help\r\nBcc: x@evil.example\u2028X: y\u0000z'), 'Re: Help Bcc: x@evil.example X: y z');
  });

  it('does not stack Re: and cuts a long subject', () => {
    assert.equal(replySubject('RE: Broken box'), 'Re: Broken box');
    assert.equal(replySubject('x'.repeat(500)), `Re: ${'x'.repeat(200)}`);
  });
});

describe('mentionedAddresses', () => {
  it('finds @<address> at a word start, lower-cased and once each; not an address inside another word', () => {
    assert.deepEqual(mentionedAddresses('@Ada@Example.com and (@bob@example.org), again @ada@example.com; mail me@example.com'), ['ada@example.com', 'bob@example.org']);
  });

  it(`keeps at most ${MAX_MENTIONS}`, () => {
    const body = Array.from({ length: 30 }, (_, i) => `@p${i}@example.com`).join(' ');
    assert.equal(mentionedAddresses(body).length, MAX_MENTIONS);
  });
});

describe('bodyProblem', () => {
  it(`takes text up to ${MAX_BODY_BYTES} bytes of UTF-8, not blank`, () => {
    assert.equal(bodyProblem('é'.repeat(MAX_BODY_BYTES / 2)), null);
    assert.match(bodyProblem(`${'é'.repeat(MAX_BODY_BYTES / 2)}x`)!, /at most/);
    assert.match(bodyProblem('  ')!, /non-empty/);
    assert.match(bodyProblem(42)!, /non-empty string/);
  });
});

describe('requesterOf', () => {
  const own = (address: string) => address.endsWith('@in.example');
  const email = (from: string, cc: string[] = [], extra: Record<string, unknown> = {}) => ({ email: { from: { address: from }, cc: cc.map((address) => ({ address })), message_id: '<m1@x>', references: ['<m0@x>'], ...extra } });

  it('an email case answers the sender and Cc, without the service\'s own addresses, in the thread', () => {
    assert.deepEqual(requesterOf(email('Ada@example.com', ['bob@example.com', 'box@in.example']), true, undefined, own), { to: ['ada@example.com', 'bob@example.com'], inReplyTo: '<m1@x>', references: ['<m0@x>', '<m1@x>'] });
  });

  it('a bounce, a sender that is no address, or Message-IDs changed into header text name no one or nothing', () => {
    assert.equal(requesterOf(email('MAILER-DAEMON@example.com'), true, undefined, own), null);
    assert.equal(requesterOf(email('a\r\nBcc: x@y.z'), true, undefined, own), null);
    assert.deepEqual(requesterOf(email('ada@example.com', [], { message_id: '<a@x>\r\nBcc: y@z', references: ['x y'] }), true, undefined, own), { to: ['ada@example.com'], inReplyTo: null, references: [] });
  });

  it('another case answers the address its workflow\'s requester_attribute points at, or no one', () => {
    assert.deepEqual(requesterOf({ 'customer/email': 'c@example.com' }, false, '/customer~1email', own), { to: ['c@example.com'], inReplyTo: null, references: [] });
    assert.equal(requesterOf({ customer_email: 'not an address' }, false, '/customer_email', own), null);
    assert.equal(requesterOf({ customer_email: 'c@example.com' }, false, undefined, own), null);
  });
});
