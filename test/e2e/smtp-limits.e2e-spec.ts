import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { caseIdsOf, type EmailWorkflow, givenEmailWorkflow, mail, type MailApp, send, sendAccepted, startMailApp } from '../support/email-helpers.js';
import { MAIL_LIMITS } from '../../src/modules/email/domain/mail-limits.js';
import { type SmtpAnswer, SmtpConversation } from '../support/smtp-client.js';
import { closeDb } from '../support/test-app.js';

const DATA_TIMEOUT_MS = 2_000;
const CONNECTIONS_PER_ADDRESS = 6;

/** A connection that said EHLO and was greeted; from `localAddress` when given (another sender). */
async function greeted(t: MailApp, localAddress?: string): Promise<SmtpConversation> {
  const conversation = await SmtpConversation.open(t.smtpPort, localAddress);
  await conversation.expect(220);
  await conversation.command('EHLO tests.example', 250);
  return conversation;
}

/**
 * Four connections from 127.0.0.1 that start a message and send it a byte every 100 ms, each byte
 * well within the idle timeout, so only a deadline on the whole message ends them.
 */
async function trickleFour(t: MailApp, w: EmailWorkflow): Promise<{ tricklers: SmtpConversation[]; stop: () => Promise<void> }> {
  const tricklers = await Promise.all([0, 1, 2, 3].map(async () => {
    const c = await greeted(t);
    await c.command('MAIL FROM:<slow@example.com>', 250);
    await c.command(`RCPT TO:<${w.address}>`, 250);
    await c.command('DATA', 354);
    c.write('Subject: slow\r\n\r\n');
    return c;
  }));
  let trickling = true;
  const trickle = (async () => { while (trickling) { for (const c of tricklers) c.write('x'); await sleep(100); } })();
  return { tricklers, stop: async () => { trickling = false; await trickle; } };
}

/** What comes next on the connection: a reply, or `closed` once the server closed it. */
async function next(conversation: SmtpConversation): Promise<SmtpAnswer | 'closed'> {
  try {
    return await conversation.expect();
  } catch {
    return 'closed';
  }
}

/** Fails instead of waiting for ever: on the code before these limits, the listener never answers. */
function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  return Promise.race([work, sleep(ms, undefined, { ref: false }).then(() => { throw new Error(`${what}: no answer within ${ms} ms`); })]);
}

describe('SMTP: what one client may hold', () => {
  let t: MailApp;
  let w: EmailWorkflow;
  before(async () => {
    t = await startMailApp({ SMTP_DATA_TIMEOUT_MS: String(DATA_TIMEOUT_MS), SMTP_CONNECTIONS_PER_ADDRESS: String(CONNECTIONS_PER_ADDRESS) });
    w = await givenEmailWorkflow(t);
  });
  after(async () => { await t.close(); await closeDb(); });

  it('four messages trickled a byte at a time are cut at SMTP_DATA_TIMEOUT_MS (421 4.4.2, closed) and mail flows again', async () => {
    const { tricklers, stop } = await trickleFour(t, w);
    try {
      await within(30_000, sendAccepted(t, w.address, mail({ Subject: 'on time' }, 'hello\n')), 'a normal message behind four trickled ones');
      for (const c of tricklers) {
        assert.deepEqual(await within(5_000, next(c), 'a trickled message'), { code: 421, text: `4.4.2 Message not received within ${DATA_TIMEOUT_MS / 1000} seconds, closing connection` });
        assert.equal(await within(5_000, next(c), 'the closing'), 'closed');
      }
    } finally {
      await stop();
      for (const c of tricklers) c.close();
    }
  });

  it(`connections from one address past SMTP_CONNECTIONS_PER_ADDRESS get 421 4.7.0 and are closed; a freed one is taken again`, async () => {
    const open = await Promise.all(Array.from({ length: CONNECTIONS_PER_ADDRESS }, () => greeted(t)));
    try {
      const refused = await SmtpConversation.open(t.smtpPort);
      assert.deepEqual(await within(5_000, next(refused), 'the refused greeting'), { code: 421, text: '4.7.0 Too many connections from your address, try again later' });
      assert.equal(await within(5_000, next(refused), 'the closing'), 'closed');
      await open.pop()!.command('QUIT', 221);
      await sleep(200);
      (await greeted(t)).close();
    } finally {
      for (const c of open) c.close();
    }
  });

  it('after SMTP_MAX_REFUSED_RECIPIENTS (5) refused recipients the next RCPT TO gets 421 4.5.3 and the connection closes', async () => {
    const c = await greeted(t);
    try {
      await c.command('MAIL FROM:<guess@example.com>', 250);
      for (let i = 0; i < 5; i++) {
        assert.deepEqual(await c.command(`RCPT TO:<case-${'abcde'[i]!.repeat(52)}@localhost>`), { code: 550, text: '5.1.1 Recipient address rejected: no such mailbox' });
      }
      assert.deepEqual(await c.command(`RCPT TO:<${w.address}>`), { code: 421, text: '4.5.3 Too many unknown recipients, closing connection' });
      assert.equal(await within(5_000, next(c), 'the closing'), 'closed');
    } finally {
      c.close();
    }
    const result = await send(t, { to: [w.address], message: mail({ Subject: 'another connection' }, 'x\n') });
    assert.equal(result.data?.code, 250, JSON.stringify(result));
  });
});

describe('SMTP: every connection of the process taken', () => {
  let t: MailApp;
  let w: EmailWorkflow;
  before(async () => {
    t = await startMailApp({ SMTP_CONNECTIONS_PER_ADDRESS: String(MAIL_LIMITS.connections * 2) });
    w = await givenEmailWorkflow(t);
  });
  after(async () => { await t.close(); await closeDb(); });

  it(`refuses a newcomer (421 4.7.0) while all ${MAIL_LIMITS.connections} are young; then the newcomer takes the place of the one longest without a message, however often it said NOOP (421 4.4.2, closed), and delivers`, async () => {
    const first = await greeted(t);
    const greetedAt = Date.now();
    const rest = await Promise.all(Array.from({ length: MAIL_LIMITS.connections - 1 }, () => greeted(t)));
    const held = [first, ...rest];
    try {
      const refused = await SmtpConversation.open(t.smtpPort);
      assert.deepEqual(await within(5_000, next(refused), 'the refused greeting'), { code: 421, text: '4.7.0 Too many connections, try again later' });
      assert.equal(await within(5_000, next(refused), 'the closing'), 'closed');
      // Every held connection says NOOP each second, which restarts SMTP's idle timer, until the first has held its place past idleBeforeEviction.
      while (Date.now() < greetedAt + MAIL_LIMITS.idleBeforeEviction + 500) {
        await Promise.all(held.map((c) => c.command('NOOP', 250)));
        await sleep(1_000);
      }
      await first.command('NOOP', 250);
      const newcomer = await greeted(t);
      assert.deepEqual(await within(5_000, next(first), 'the eviction'), { code: 421, text: '4.4.2 Idle too long while others wait, closing connection' });
      assert.equal(await within(5_000, next(first), 'the closing'), 'closed');
      for (const c of rest) await c.command('NOOP', 250);
      await newcomer.command('MAIL FROM:<newcomer@example.com>', 250);
      await newcomer.command(`RCPT TO:<${w.address}>`, 250);
      await newcomer.command('DATA', 354);
      assert.equal((await newcomer.send(Buffer.from(`${mail({ Subject: 'made room' }, 'hello\n')}.\r\n`, 'latin1'))).code, 250);
      newcomer.close();
    } finally {
      for (const c of held) c.close();
    }
  });
});

describe('SMTP: one client holds one message in progress', () => {
  const LONG_DATA_TIMEOUT_MS = 60_000;
  let t: MailApp;
  let w: EmailWorkflow;
  before(async () => {
    t = await startMailApp({ SMTP_DATA_TIMEOUT_MS: String(LONG_DATA_TIMEOUT_MS) });
    w = await givenEmailWorkflow(t);
  });
  after(async () => { await t.close(); await closeDb(); });

  it('four messages trickled from one address hold one of the four slots: another address’s mail is taken meanwhile', async () => {
    const { tricklers, stop } = await trickleFour(t, w);
    const other = await SmtpConversation.open(t.smtpPort, '127.0.0.2');
    try {
      await other.expect(220);
      await other.command('EHLO other.example', 250);
      await other.command('MAIL FROM:<someone@other.example>', 250);
      await other.command(`RCPT TO:<${w.address}>`, 250);
      await other.command('DATA', 354);
      // On the code before, the four trickled messages held every slot until their 60 s deadline.
      const answer = await within(20_000, other.send(Buffer.from(`${mail({ Subject: 'from elsewhere' }, 'hello\n')}.\r\n`, 'latin1')), 'mail from another address');
      assert.equal(answer.code, 250, JSON.stringify(answer));
    } finally {
      await stop();
      other.close();
      for (const c of tricklers) c.close();
    }
  });

  it('a client gone mid-message gives its slot up at once: its address’s next message is taken, not held until SMTP_DATA_TIMEOUT_MS', async () => {
    const from = '127.0.0.3';
    const started = async () => {
      const c = await greeted(t, from);
      await c.command('MAIL FROM:<gone@gone.example>', 250);
      await c.command(`RCPT TO:<${w.address}>`, 250);
      await c.command('DATA', 354);
      return c;
    };
    const gone = await started();
    gone.write('Subject: never finished\r\n\r\nhalf a');
    // Its slot is held once the listener reads the message; the read then waits for bytes that never come.
    await sleep(300);
    gone.close();
    const next = await started();
    try {
      // On the code before, the read held the address's one slot until its 60 s deadline.
      const answer = await within(20_000, next.send(Buffer.from(`${mail({ Subject: 'after the one that left' }, 'hello\n')}.\r\n`, 'latin1')), 'the next message');
      assert.equal(answer.code, 250, JSON.stringify(answer));
    } finally {
      next.close();
    }
  });
});

describe('SMTP: messages a minute to one workflow address', () => {
  let t: MailApp;
  before(async () => { t = await startMailApp({ EMAIL_MESSAGES_PER_MINUTE: '2' }); });
  after(async () => { await t.close(); await closeDb(); });

  it('past EMAIL_MESSAGES_PER_MINUTE from all senders, RCPT TO to the address answers 451 4.7.1 and no case is made; another workflow\'s address still takes mail', async () => {
    const [w, other] = [await givenEmailWorkflow(t), await givenEmailWorkflow(t)];
    await sendAccepted(t, w.address, mail({ From: 'first@example.com', Subject: 'one' }, 'x\n'));
    await sendAccepted(t, w.address, mail({ From: 'second@example.net', Subject: 'two' }, 'x\n'));
    const c = await greeted(t);
    try {
      await c.command('MAIL FROM:<third@example.org>', 250);
      assert.deepEqual(await c.command(`RCPT TO:<${w.address}>`), { code: 451, text: '4.7.1 Too many messages to this address, try again later' });
      await c.command(`RCPT TO:<${other.address}>`, 250);
    } finally {
      c.close();
    }
    assert.equal((await caseIdsOf(w.workflowId)).length, 2);
    await sendAccepted(t, other.address, mail({ From: 'third@example.org', Subject: 'elsewhere' }, 'x\n'));
  });
});
