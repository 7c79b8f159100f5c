import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SMTPServerSession } from 'smtp-server';
import { SmtpSessionLimits } from './smtp-session-limits.js';

const IDLE = 10_000;

function limitsWithClock(connections: number) {
  const clock = { now: 0 };
  const limits = new SmtpSessionLimits({ connections, connectionsPerAddress: 2, refusedRecipients: 5, messagesPerAddress: 1, idleBeforeEviction: IDLE }, () => clock.now);
  return { limits, clock };
}

let sessions = 0;
const sessionFrom = (remoteAddress: string) => ({ id: `s${++sessions}`, remoteAddress }) as SMTPServerSession;

describe('SMTP session limits', () => {
  it('refuses a connection past its address group’s share, and takes one again once a connection of the group leaves', () => {
    const { limits } = limitsWithClock(10);
    const [first, second] = [sessionFrom('192.0.2.1'), sessionFrom('192.0.2.1')];
    assert.deepEqual([limits.admit(first), limits.admit(second)], [{ admitted: true }, { admitted: true }]);
    assert.deepEqual(limits.admit(sessionFrom('192.0.2.1')), { admitted: false, refusal: 'address_full' });
    limits.leave(first);
    assert.deepEqual(limits.admit(sessionFrom('192.0.2.1')), { admitted: true });
  });

  it('when full, refuses a newcomer until a connection has gone idleBeforeEviction without a message, then evicts the one idle longest for it', () => {
    const { limits, clock } = limitsWithClock(3);
    const held = ['192.0.2.1', '192.0.2.2', '192.0.2.3'].map((address) => {
      const session = sessionFrom(address);
      assert.deepEqual(limits.admit(session), { admitted: true });
      clock.now += 1_000;
      return session;
    });
    // The first delivered a message at 2.5 s: the second is now the one idle longest.
    limits.receiving(held[0]!);
    clock.now = 2_500;
    limits.received(held[0]!);
    clock.now = 1_000 + IDLE - 1;
    assert.deepEqual(limits.admit(sessionFrom('198.51.100.1')), { admitted: false, refusal: 'listener_full' });
    clock.now = 1_000 + IDLE;
    const newcomer = sessionFrom('198.51.100.1');
    assert.deepEqual(limits.admit(newcomer), { admitted: true, evicted: held[1] });
    // The evicted connection's group holds one connection less; the listener is full again.
    assert.deepEqual(limits.admit(sessionFrom('192.0.2.2')), { admitted: false, refusal: 'listener_full' });
    limits.leave(held[1]!);
    assert.deepEqual(limits.admit(sessionFrom('198.51.100.2')), { admitted: false, refusal: 'listener_full' }, 'an evicted session leaving again frees nothing twice');
  });

  it('never evicts a connection while its message is under way, however long it has been idle before', () => {
    const { limits, clock } = limitsWithClock(2);
    const [sending, idle] = [sessionFrom('192.0.2.1'), sessionFrom('192.0.2.2')];
    limits.admit(sending);
    clock.now = 5_000;
    limits.admit(idle);
    limits.receiving(sending);
    clock.now = 60_000;
    assert.deepEqual(limits.admit(sessionFrom('198.51.100.1')), { admitted: true, evicted: idle });
    assert.deepEqual(limits.admit(sessionFrom('198.51.100.2')), { admitted: false, refusal: 'listener_full' }, 'the one sending is all that is left to evict');
  });
});
