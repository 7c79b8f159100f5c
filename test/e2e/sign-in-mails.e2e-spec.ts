/**
 * Sign-in and invitation mails are queued in Postgres with what asks for them and sent by the
 * worker: through a relay that is down for a while, across a restart, and given up after an
 * hour. The apps of this file share a database no other app reads (see isolatedDatabase), so
 * only they send its mails.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eventually, type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { sessionFromMail, uniqueEmail } from '../support/people-helpers.js';
import { operatorToken } from '../support/scenario.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const INVITATION = 'You are invited to the Case Intake Service';
const SIGN_IN = 'Your sign-in link';

describe('sign-in mails', () => {
  let database: IsolatedDatabase;
  let sink: SmtpSink;

  before(async () => {
    database = await isolatedDatabase();
    sink = await startSmtpSink();
  });
  after(async () => {
    await sink?.close();
    await database?.drop();
  });

  const start = (env: Record<string, string> = {}) =>
    startTestApp({ env: { SMTP_RELAY_URL: sink.url, DATABASE_URL: database.url, REDIS_PREFIX: isolatedRedisPrefix(), ...env }, captureLogs: true });
  const queued = async (email: string) =>
    (await database.pool.query<{ kind: string; attempts: number; held: boolean }>(
      'SELECT m.kind, m.attempts, m.locked_until IS NOT NULL AS held FROM sign_in_mails m JOIN users u ON u.organization_id = m.organization_id AND u.id = m.user_id WHERE u.email = $1 ORDER BY m.id',
      [email],
    )).rows;
  const subjectsTo = (email: string) => sink.mails.filter((mail) => mail.to.includes(email)).map((mail) => mail.parsed.subject);
  const createOrganization = (t: TestApp, ownerEmail: string) =>
    t.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name: `Mailed ${randomBytes(3).toString('hex')}`, owner_email: ownerEmail } });

  it('mails asked for while no worker runs are kept, and sent by the worker that starts later', async () => {
    const email = uniqueEmail('restart');
    const api = await start({ ROLE: 'api' });
    try {
      assert.equal((await createOrganization(api, email)).status, 201);
      assert.equal((await api.request('POST', '/auth/email', { body: { email } })).status, 202);
      await eventually('the sign-in mail queued', async () => ((await queued(email)).length === 2 ? true : undefined));
    } finally {
      await api.close();
    }
    assert.deepEqual(await queued(email), [{ kind: 'invitation', attempts: 0, held: false }, { kind: 'sign_in', attempts: 0, held: false }], 'both mails outlive the process');
    assert.deepEqual(subjectsTo(email), []);

    const worker = await start();
    try {
      await eventually('both mails sent', async () => (subjectsTo(email).length === 2 ? true : undefined));
      assert.deepEqual(subjectsTo(email).sort(), [INVITATION, SIGN_IN].sort());
      await eventually('the sent mails deleted', async () => ((await queued(email)).length === 0 ? true : undefined));
      const session = await sessionFromMail(worker, sink, email, new URL(worker.env.PUBLIC_BASE_URL!).origin);
      assert.equal(session.role, 'owner');
      assert.ok(!worker.logs.join('').includes('sil_'), 'no link in the log');
    } finally {
      await worker.close();
    }
  });

  it('a mail the relay refuses is tried again, and arrives once the relay takes mail again', async () => {
    const t = await start();
    try {
      sink.refusing = 'relay down for maintenance';
      const email = uniqueEmail('retried');
      assert.equal((await createOrganization(t, email)).status, 201);
      // Counted when it starts, and no longer held once the relay refused it.
      await eventually('a refused attempt', async () => ((await queued(email)).some((mail) => mail.attempts >= 1 && !mail.held) ? true : undefined));
      assert.deepEqual(subjectsTo(email), []);
      sink.refusing = undefined;
      await eventually('the invitation sent', async () => (subjectsTo(email).length > 0 ? true : undefined));
      assert.deepEqual(subjectsTo(email), [INVITATION]);
      await eventually('the sent mail deleted', async () => ((await queued(email)).length === 0 ? true : undefined));
      const logs = t.logs.join('');
      assert.match(logs, /sign-in mail not sent; tried again later/);
      assert.ok(!logs.includes('sil_') && !logs.includes('digest:secret'), 'neither the link nor the relay password in the log');
    } finally {
      sink.refusing = undefined;
      await t.close();
    }
  });

  it('a mail the relay still refuses an hour after it was asked for is given up: deleted, logged and counted', async () => {
    const t = await start({ ROLE: 'api' });
    const email = uniqueEmail('given-up');
    try {
      assert.equal((await createOrganization(t, email)).status, 201);
    } finally {
      await t.close();
    }
    await database.pool.query(`UPDATE sign_in_mails SET created_at = now() - interval '61 minutes'`);
    sink.refusing = 'mailbox unavailable';
    const worker = await start();
    try {
      await eventually('the mail given up', async () => ((await queued(email)).length === 0 ? true : undefined));
      assert.deepEqual(subjectsTo(email), []);
      assert.match(worker.logs.join(''), /sign-in mail not sent; given up/);
      const metrics = await worker.request('GET', '/metrics');
      assert.match(metrics.text, /^sign_in_mails_given_up_total\{kind="invitation"\} 1$/m);
    } finally {
      sink.refusing = undefined;
      await worker.close();
    }
  });

  it('an organization, its owner and the invitation mail are one transaction: a mail that cannot be queued leaves no organization', async () => {
    // Refuses the mails of one address only, as a full disk or a lost connection would at that insert.
    await database.pool.query(`
      CREATE FUNCTION refuse_mail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM users WHERE id = NEW.user_id AND email LIKE 'unmailable-%') THEN RAISE EXCEPTION 'no mail today'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_mail BEFORE INSERT ON sign_in_mails FOR EACH ROW EXECUTE FUNCTION refuse_mail();`);
    const t = await start();
    try {
      const email = uniqueEmail('unmailable');
      const name = `Unmailable ${randomBytes(3).toString('hex')}`;
      const created = await t.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name, owner_email: email } });
      assert.equal(created.status, 500, created.text);
      assert.deepEqual((await database.pool.query('SELECT id FROM organizations WHERE name = $1', [name])).rows, []);
      assert.deepEqual((await database.pool.query('SELECT id FROM users WHERE email = $1', [email])).rows, []);
    } finally {
      await t.close();
      await database.pool.query('DROP TRIGGER refuse_mail ON sign_in_mails; DROP FUNCTION refuse_mail()');
    }
  });
});
