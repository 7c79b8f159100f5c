/**
 * Hostile mail on the real SMTP listener, property-based: generated MIME (nested multiparts,
 * embedded messages, hundreds of attachments, names of up to 16,000 characters, long and
 * encoded headers), sometimes cut short, with bytes dropped into it or with bare LF line ends.
 * Every answer is 250 or a documented refusal (554 5.6.0, 552 5.3.4), never a 451 (the
 * database answered) or a dropped connection; the listener logs no failed intake and no error
 * escapes; and no case, nor any reply in a timeline, stores more than CASE_STORAGE_BYTES.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { SmtpListener } from '../../src/modules/email/infrastructure/smtp-listener.js';
import { type EmailWorkflow, givenEmailWorkflow, mail, type MailApp, onlyCase, send, sendAccepted } from '../support/email-helpers.js';
import { damage, generatedMail, renderMail } from '../support/mail-generators.js';
import { closeDb, db, startTestApp } from '../support/test-app.js';

const CASE_STORAGE_BYTES = 1_048_576;
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** The DATA answers docs/security.md and the contract document for a message that reached DATA. */
const DOCUMENTED = [/^250 /, /^554 5\.6\.0 Message refused: /, new RegExp(`^552 5\\.3\\.4 Message size exceeds the fixed maximum of ${MAX_MESSAGE_BYTES} bytes$`)];

describe('fuzz: generated mail on the SMTP listener', () => {
  let t: MailApp;
  let w: EmailWorkflow;
  const escaped: unknown[] = [];
  const record = (err: unknown) => escaped.push(err);
  before(async () => {
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
    const app = await startTestApp({ env: { SMTP_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES), ROLE: 'api' }, captureLogs: true });
    t = Object.assign(app, { smtpPort: await app.app.get(SmtpListener).listen(0) });
    w = await givenEmailWorkflow(t);
  });
  after(async () => {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
    await t.close();
    await closeDb();
  });

  it('answers every generated message with 250 or a documented refusal, and stores nothing over the bound (40 runs)', async () => {
    const answers = new Map<string, number>();
    let sent = 0;
    let repliable: string | undefined;
    await fc.assert(
      fc.asyncProperty(generatedMail, damage, fc.boolean(), async (generated, harm, asReply) => {
        const messageId = `<f${++sent}@gen.example>`;
        const extra: [string, string][] = [['Message-ID', messageId], ...(asReply && repliable ? [['In-Reply-To', repliable] as [string, string]] : [])];
        const result = await send(t, { to: [w.address], message: renderMail(generated, extra, harm) });
        const answer = `${result.data?.code} ${result.data?.text}`;
        assert.ok(DOCUMENTED.some((documented) => documented.test(answer)), answer);
        if (result.data?.code === 250) repliable = messageId;
        const kind = answer.slice(0, 3);
        answers.set(kind, (answers.get(kind) ?? 0) + 1);
      }),
      { numRuns: 40, endOnFailure: true },
    );
    assert.ok((answers.get('250') ?? 0) > 0 && (answers.get('554') ?? 0) > 0, JSON.stringify([...answers]));

    const stored = await db().query<{ attributes: string }>('SELECT attributes::text AS attributes FROM cases WHERE workflow_id = $1', [w.workflowId]);
    const replies = await db().query<{ data: string }>(`SELECT e.data::text AS data FROM case_events e JOIN cases c ON c.id = e.case_id WHERE c.workflow_id = $1 AND e.type = 'email_received'`, [w.workflowId]);
    for (const text of [...stored.rows.map((r) => r.attributes), ...replies.rows.map((r) => r.data)]) {
      const bytes = Buffer.byteLength(JSON.stringify(JSON.parse(text)));
      assert.ok(bytes <= CASE_STORAGE_BYTES, `${bytes} bytes stored`);
    }
    assert.ok(stored.rows.length > 0);

    assert.deepEqual(escaped, [], 'no error escaped the listener');
    assert.deepEqual(t.logs.filter((line) => line.includes('email intake failed')), []);
  });

  it('still takes normal mail afterwards', async () => {
    const fresh = await givenEmailWorkflow(t);
    await sendAccepted(t, fresh.address, mail({ Subject: 'after the fuzz' }, 'hello\n'));
    assert.equal((await onlyCase(t, fresh)).subject, 'after the fuzz');
  });
});
