/**
 * Issue 16, one storage bound per case, for mail: generated MIME (nested multiparts, embedded
 * messages, hundreds of attachments with names of up to 16,000 characters, long and encoded
 * headers, text that JSON escapes) goes through the real mail reader and intake into Postgres.
 * Every message is refused, or the case it creates (or the reply it adds to a case's timeline)
 * stores at most CASE_STORAGE_BYTES of attributes; the only other thing a mail case stores is
 * its subject, at most 1,000 characters (docs/security.md, mail-borne input).
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { EmailAddressesService, type EmailTarget } from '../../src/modules/email/application/email-addresses.service.js';
import { ReceiveEmailService } from '../../src/modules/email/application/receive-email.service.js';
import { MailRefusedError } from '../../src/modules/email/domain/smtp-reply.js';
import { readMail } from '../../src/modules/email/infrastructure/mail-reader.js';
import { givenEmailWorkflow } from '../support/email-helpers.js';
import { generatedMail, renderMail } from '../support/mail-generators.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const CASE_STORAGE_BYTES = 1_048_576;
const MAX_SUBJECT_CHARS = 1_000;
const OVER_THE_BOUND = '5.6.0 Message refused: it would store more than the 1048576 bytes a case keeps';

/** What a stored jsonb value takes as the compact JSON text the bound measures. */
const compactBytes = (text: string) => Buffer.byteLength(JSON.stringify(JSON.parse(text)));

describe('property: a mail case stores at most CASE_STORAGE_BYTES, whatever the message', () => {
  let t: TestApp;
  let target: EmailTarget;
  let workflowId: number;
  before(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
    const w = await givenEmailWorkflow(t);
    workflowId = w.workflowId;
    target = (await t.app.get(EmailAddressesService).resolve(w.address))!;
  });
  after(async () => { await t.close(); await closeDb(); });

  const storedRows = async () => (await db().query<{ n: string }>(
    `SELECT (SELECT count(*) FROM cases WHERE workflow_id = $1) + (SELECT count(*) FROM case_events e JOIN cases c ON c.id = e.case_id WHERE c.workflow_id = $1) AS n`, [workflowId],
  )).rows[0]!.n;

  it('every generated message is refused with a documented reply and stores nothing, or stores within the bound (60 runs)', async () => {
    const intake = t.app.get(ReceiveEmailService);
    const seen = { created: 0, replied: 0, overTheBound: 0, unreadable: 0 };
    let sent = 0;
    let repliable: string | undefined;
    await fc.assert(
      fc.asyncProperty(generatedMail, fc.boolean(), async (mail, asReply) => {
        const messageId = `<m${++sent}@gen.example>`;
        const extra: [string, string][] = [['Message-ID', messageId], ...(asReply && repliable ? [['In-Reply-To', repliable] as [string, string]] : [])];
        const reading = await readMail(Readable.from([renderMail(mail, extra)]), t.env.SMTP_MAX_MESSAGE_BYTES);
        if (reading.kind !== 'read') {
          seen.unreadable++;
          return;
        }
        const rowsBefore = await storedRows();
        let outcome;
        try {
          [outcome] = await intake.receive([target], reading.message);
        } catch (err) {
          assert.ok(err instanceof MailRefusedError, String(err));
          assert.equal(err.reply.code, 554, err.reply.text);
          assert.match(err.reply.text, /^5\.6\.0 Message refused: (it would store more than the 1048576 bytes a case keeps|it holds a NUL character, which cannot be stored)$/);
          if (err.reply.text === OVER_THE_BOUND) seen.overTheBound++;
          assert.equal(await storedRows(), rowsBefore, 'a refused message stores nothing');
          return;
        }
        if (outcome!.kind === 'created') {
          seen.created++;
          repliable = messageId;
          const { rows: [row] } = await db().query<{ attributes: string; subject: string }>('SELECT attributes::text AS attributes, subject FROM cases WHERE id = $1', [outcome!.caseId]);
          const bytes = compactBytes(row!.attributes);
          assert.ok(bytes <= CASE_STORAGE_BYTES, `case ${outcome!.caseId} stores ${bytes} bytes of attributes`);
          assert.ok([...row!.subject].length <= MAX_SUBJECT_CHARS, `a subject of ${[...row!.subject].length} characters`);
        } else {
          assert.equal(outcome!.kind, 'replied');
          seen.replied++;
          const { rows: [row] } = await db().query<{ data: string }>(
            `SELECT data::text AS data FROM case_events WHERE case_id = $1 AND type = 'email_received' ORDER BY id DESC LIMIT 1`, [outcome!.caseId],
          );
          const bytes = compactBytes(row!.data);
          assert.ok(bytes <= CASE_STORAGE_BYTES, `the reply on case ${outcome!.caseId} stores ${bytes} bytes in the timeline`);
        }
      }),
      { numRuns: 60, endOnFailure: true },
    );
    // The generator reaches both sides of the bound, or the property proves little. Each side
    // comes 8 to 22 times in 60 runs; at least 5 failed once in CI (4 over the bound), at least 3
    // leaves such a run a chance of about one in ten thousand.
    assert.ok(seen.created >= 3 && seen.overTheBound >= 3, JSON.stringify(seen));
  });
});
