/**
 * Report digests through HTTP and a real SMTP sink (smtp-server) the test starts: the digest
 * API and its refusals, one email per period with two workers passing at once, the catch-up of
 * periods that ended while no scheduler ran, a manual send, and what the email holds (a text
 * part, an HTML part and an inline PNG chart; live cases only).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DigestPass } from '../../src/modules/reporting/application/digest-pass.service.js';
import { type Automated, createCase, eventually, givenAutomation, type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix, patchStatus } from '../support/automation-helpers.js';
import { HOUR_MS, holdFold, travel } from '../support/report-helpers.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ROUTE = '/api/admin/v1/digests';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('digests', () => {
  let sink: SmtpSink;
  let database: IsolatedDatabase;
  const apps: TestApp[] = [];
  let w: Automated;
  /** The end of the last daily period for a digest at the current UTC hour. */
  let periodEnd: Date;

  const startWorker = async (checkEveryMs = 3_600_000) => {
    const env = { DATABASE_URL: database.url, REDIS_PREFIX, SMTP_RELAY_URL: sink.url, DIGEST_CHECK_INTERVAL_MS: String(checkEveryMs), PUBLIC_BASE_URL: 'https://cases.example' };
    const app = await startTestApp({ env });
    apps.push(app);
    return app;
  };
  const REDIS_PREFIX = isolatedRedisPrefix();
  const create = (body: unknown, app = apps[0]!) => app.request('POST', ROUTE, { token: w.org.adminToken, body });
  const backdate = (digestId: number, createdAt: Date) => database.pool.query('UPDATE digests SET created_at = $2 WHERE id = $1', [digestId, createdAt]);
  const mailsTo = (recipient: string) => sink.mails.filter((m) => m.to.includes(recipient));
  /** A pass as if run half an hour after the last period ended: the same periods are due whenever the test crosses an hour. */
  const pass = (app: TestApp) => app.app.get(DigestPass).run(new Date(periodEnd.getTime() + HOUR_MS / 2));

  before(async () => {
    sink = await startSmtpSink();
    database = await isolatedDatabase();
    const t = await startWorker();
    w = await givenAutomation(t, {});
    const now = new Date();
    periodEnd = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS);
    // Three live cases (one closed) and a test case, two hours ago: inside the period that ended at the top of this hour.
    const release = await holdFold(database.pool);
    const cases = [await createCase(w), await createCase(w), await createCase(w), await createCase(w, { mode: 'test' })];
    assert.equal((await patchStatus(w, cases[0]!, 'Closed')).status, 200);
    assert.equal((await patchStatus(w, cases[3]!, 'Closed')).status, 200);
    await travel(database.pool, w.org.id, 2 * HOUR_MS);
    await release();
  });
  after(async () => {
    for (const app of apps) await app.close();
    await database.drop();
    await sink.close();
  });

  it('sends each period once with two workers passing at once, and shows when it was last sent', async () => {
    const second = await startWorker();
    const res = await create({ schedule: 'daily', hour_utc: periodEnd.getUTCHours(), recipients: ['ops@acme.example', 'lead@acme.example'] });
    assert.equal(res.status, 201, res.text);
    const digest = res.body.digest;
    assert.deepEqual({ ...digest, id: undefined, created_at: undefined }, { id: undefined, schedule: 'daily', hour_utc: periodEnd.getUTCHours(), weekday: null, recipients: ['ops@acme.example', 'lead@acme.example'], workflow_ids: null, created_at: undefined, last_sent_at: null });
    // Created before the last period ended, after the one before: exactly one period is due.
    await backdate(digest.id, new Date(periodEnd.getTime() - 23 * HOUR_MS));
    for (let round = 0; round < 3; round++) await Promise.all([pass(apps[0]!), pass(second)]);
    const mails = mailsTo('ops@acme.example');
    assert.equal(mails.length, 1, mails.map((m) => m.parsed.subject).join('; '));
    assert.deepEqual(mails[0]!.to.sort(), ['lead@acme.example', 'ops@acme.example']);
    const listed = await apps[0]!.request('GET', ROUTE, { token: w.org.adminToken });
    assert.equal(listed.status, 200, listed.text);
    assert.equal(typeof listed.body.digests[0].last_sent_at, 'string');
  });

  it('is an email with a text part, an HTML part and an inline PNG chart, counting live cases only', async () => {
    const [mail] = mailsTo('ops@acme.example');
    const { parsed, raw } = mail!;
    const day = (at: Date) => at.toISOString().slice(0, 10);
    assert.equal(parsed.subject, `Case report (daily): ${day(new Date(periodEnd.getTime() - 24 * HOUR_MS))} to ${day(periodEnd)}`);
    assert.match(raw, /Content-Type: multipart\/alternative/);
    assert.match(raw, /Content-Type: multipart\/related/);
    assert.match(parsed.text ?? '', /^Cases created: 3$/m, 'the test case is not counted');
    assert.match(parsed.text ?? '', /^Cases closed: 1$/m);
    assert.match(parsed.text ?? '', /^Open now: Open: 2$/m);
    assert.match(parsed.text ?? '', /Open the report: https:\/\/cases\.example\/dashboard\/reports\?from=/);
    assert.match(String(parsed.html), /<img src="cid:chart@digest"/);
    assert.match(String(parsed.html), /<th scope="row"[^>]*>Cases created<\/th><td>3<\/td>/);
    const [chart] = parsed.attachments;
    assert.equal(parsed.attachments.length, 1);
    assert.equal(chart!.contentType, 'image/png');
    assert.equal(chart!.cid, 'chart@digest');
    assert.equal(chart!.contentDisposition, 'inline');
    assert.deepEqual(chart!.content.subarray(0, 8), PNG_SIGNATURE);
  });

  it('catches up on the periods that ended while no scheduler ran', async () => {
    for (const app of apps.splice(0)) await app.close();
    const res = await (await startWorker()).request('POST', ROUTE, { token: w.org.adminToken, body: { schedule: 'daily', hour_utc: periodEnd.getUTCHours(), recipients: ['late@acme.example'] } });
    assert.equal(res.status, 201, res.text);
    await backdate(res.body.digest.id, new Date(periodEnd.getTime() - 3 * 24 * HOUR_MS + HOUR_MS));
    assert.equal(mailsTo('late@acme.example').length, 0);
    await pass(apps[0]!);
    await pass(apps[0]!);
    const subjects = mailsTo('late@acme.example').map((m) => m.parsed.subject).sort();
    const day = (daysBefore: number) => new Date(periodEnd.getTime() - daysBefore * 24 * HOUR_MS).toISOString().slice(0, 10);
    assert.deepEqual(subjects, [2, 1, 0].map((d) => `Case report (daily): ${day(d + 1)} to ${day(d)}`));
  });

  it('sends by hand for the period ending with the current hour, queueing one send at a time', async () => {
    const [digest] = (await apps[0]!.request('GET', ROUTE, { token: w.org.adminToken })).body.digests;
    for (let call = 0; call < 3; call++) {
      const sent = await apps[0]!.request('POST', `${ROUTE}/${digest.id}/send`, { token: w.org.adminToken });
      assert.equal(sent.status, 202, sent.text);
    }
    await apps[0]!.app.get(DigestPass).run();
    await apps[0]!.app.get(DigestPass).run();
    const mails = mailsTo('ops@acme.example');
    assert.equal(mails.length, 2);
    assert.match(mails[1]!.parsed.text ?? '', /^Cases created: 3$/m);
    assert.equal((await apps[0]!.request('POST', `${ROUTE}/${digest.id}/send`, { token: w.org.adminToken })).status, 202);
    await apps[0]!.app.get(DigestPass).run();
    assert.equal(mailsTo('ops@acme.example').length, 3, 'once sent, a call sends again');
  });

  it('deletes a digest; 404 for one that is not the organization\'s', async () => {
    const t = apps[0]!;
    const created = await create({ schedule: 'weekly', weekday: 1, hour_utc: 6, recipients: ['x@acme.example'], workflow_ids: [w.workflowId] }, t);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.body.digest.weekday, created.body.digest.workflow_ids], [1, [w.workflowId]]);
    const id = created.body.digest.id;
    const stranger = await givenAutomation(t, {});
    assert.equal((await t.request('DELETE', `${ROUTE}/${id}`, { token: stranger.org.adminToken })).status, 404);
    assert.equal((await t.request('POST', `${ROUTE}/${id}/send`, { token: stranger.org.adminToken })).status, 404);
    assert.equal((await t.request('DELETE', `${ROUTE}/${id}`, { token: w.org.adminToken })).status, 204);
    assert.equal((await t.request('DELETE', `${ROUTE}/${id}`, { token: w.org.adminToken })).status, 404);
    assert.equal((await t.request('DELETE', `${ROUTE}/abc`, { token: w.org.adminToken })).status, 404);
    const listed = (await t.request('GET', ROUTE, { token: w.org.adminToken })).body.digests;
    assert.ok(!listed.some((d: { id: number }) => d.id === id));
  });

  it('is sent by the workers\' own schedule (a repeatable Bull job)', async () => {
    for (const app of apps.splice(0)) await app.close();
    const t = await startWorker(1000);
    const res = await create({ schedule: 'daily', hour_utc: periodEnd.getUTCHours(), recipients: ['scheduled@acme.example'] }, t);
    assert.equal(res.status, 201, res.text);
    await backdate(res.body.digest.id, new Date(periodEnd.getTime() - 23 * HOUR_MS));
    await eventually('the scheduled digest', async () => (mailsTo('scheduled@acme.example').length > 0 ? true : undefined));
    assert.equal(mailsTo('scheduled@acme.example').length, 1);
  });

  describe('refuses with 422', () => {
    const bodies: [string, unknown][] = [
      ['a weekly digest without weekday', { schedule: 'weekly', hour_utc: 6, recipients: ['a@acme.example'] }],
      ['a daily digest with a weekday', { schedule: 'daily', hour_utc: 6, weekday: 2, recipients: ['a@acme.example'] }],
      ['hour_utc 24', { schedule: 'daily', hour_utc: 24, recipients: ['a@acme.example'] }],
      ['weekday 8', { schedule: 'weekly', weekday: 8, hour_utc: 1, recipients: ['a@acme.example'] }],
      ['a monthly schedule', { schedule: 'monthly', hour_utc: 1, recipients: ['a@acme.example'] }],
      ['no recipient', { schedule: 'daily', hour_utc: 1, recipients: [] }],
      ['a recipient that is not an address', { schedule: 'daily', hour_utc: 1, recipients: ['not an address'] }],
      ['a recipient with an unpaired surrogate', { schedule: 'daily', hour_utc: 1, recipients: ['a\ud800@acme.example'] }],
      ['a recipient with a quoted local part holding a line break', { schedule: 'daily', hour_utc: 1, recipients: ['"a\r\nb"@acme.example'] }],
      ['21 recipients', { schedule: 'daily', hour_utc: 1, recipients: Array.from({ length: 21 }, (_, i) => `r${i}@acme.example`) }],
      ['an unknown key', { schedule: 'daily', hour_utc: 1, recipients: ['a@acme.example'], cc: ['b@acme.example'] }],
      ['workflow ids that are not integers', { schedule: 'daily', hour_utc: 1, recipients: ['a@acme.example'], workflow_ids: ['1'] }],
    ];
    for (const [what, body] of bodies) {
      it(what, async () => {
        const res = await create(body);
        assert.equal(res.status, 422, res.text);
        assert.equal(typeof res.body.error, 'string');
      });
    }
  });
});

describe('digests without SMTP_RELAY_URL', () => {
  let t: TestApp;
  let admin: string;
  before(async () => {
    t = await startTestApp({ env: { ROLE: 'api', SMTP_RELAY_URL: '' } });
    admin = (await givenAutomation(t, {})).org.adminToken;
  });
  after(() => t.close());

  it('answers 422 saying digests are not configured, on every digest endpoint', async () => {
    const answers = [
      await t.request('POST', ROUTE, { token: admin, body: { schedule: 'daily', hour_utc: 1, recipients: ['a@acme.example'] } }),
      await t.request('GET', ROUTE, { token: admin }),
      await t.request('DELETE', `${ROUTE}/1`, { token: admin }),
      await t.request('POST', `${ROUTE}/1/send`, { token: admin }),
    ];
    for (const res of answers) assert.deepEqual([res.status, res.body.error], [422, 'digests are not configured: SMTP_RELAY_URL is not set']);
  });
});
