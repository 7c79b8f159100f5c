/**
 * Report digests through HTTP and a real SMTP sink (smtp-server) the test starts: the digest
 * API and its refusals, one email per period and recipient with two workers passing at once,
 * the catch-up of periods that ended while no scheduler ran, manual sends and their limit, and
 * what the email holds (a text part, an HTML part and an inline PNG chart, live cases only, an
 * unsubscribe link and headers). Recipients confirm through their real confirmation mail first;
 * digest-recipients.e2e-spec.ts covers confirming, unsubscribing and the relay failing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DigestPass } from '../../src/modules/reporting/application/digest-pass.service.js';
import { isServiceMessageId } from '../../src/shared/mail/service-message-id.js';
import { eventually, givenAutomation } from '../support/automation-helpers.js';
import { DIGESTS as ROUTE, type DigestWorld, linkIn, startDigestWorld } from '../support/digest-helpers.js';
import { postForm } from '../support/form-helpers.js';
import { HOUR_MS } from '../support/report-helpers.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('digests', () => {
  let d: DigestWorld;
  const admin = () => d.w.org.adminToken;
  const sendNow = (id: number) => d.apps[0]!.request('POST', `${ROUTE}/${id}/send`, { token: admin() });

  before(async () => {
    d = await startDigestWorld();
  });
  after(() => d.close());

  it('sends each period once to each confirmed recipient with two workers passing at once, and shows when it was last sent', async () => {
    const second = await d.startWorker();
    const digest = await d.create({ schedule: 'daily', hour_utc: d.periodEnd.getUTCHours(), recipients: ['ops@acme.example', 'lead@acme.example'] });
    assert.deepEqual({ ...digest, id: undefined, created_at: undefined }, {
      id: undefined,
      schedule: 'daily',
      hour_utc: d.periodEnd.getUTCHours(),
      weekday: null,
      recipients: ['ops@acme.example', 'lead@acme.example'],
      confirmed_recipients: [],
      unsubscribed_recipients: [],
      workflow_ids: null,
      created_at: undefined,
      last_sent_at: null,
      last_failed_at: null,
      last_error: null,
    });
    await Promise.all([d.pass(), d.pass(second)]);
    for (const address of ['ops@acme.example', 'lead@acme.example']) {
      assert.equal(d.invitationsTo(address).length, 1, `one confirmation mail to ${address}, whatever the number of workers`);
      await d.confirm(address);
    }
    assert.deepEqual((await d.list())[0].confirmed_recipients, ['ops@acme.example', 'lead@acme.example']);
    // Created before the last period ended, after the one before: exactly one period is due.
    await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 23 * HOUR_MS));
    for (let round = 0; round < 3; round++) await Promise.all([d.pass(), d.pass(second)]);
    for (const address of ['ops@acme.example', 'lead@acme.example']) {
      const mails = d.digestsTo(address);
      assert.equal(mails.length, 1, mails.map((m) => m.parsed.subject).join('; '));
      assert.deepEqual(mails[0]!.to, [address], 'one message per recipient, each with its own unsubscribe link');
    }
    assert.equal(typeof (await d.list())[0].last_sent_at, 'string');
  });

  it('is an email with a text part, an HTML part and an inline PNG chart, counting live cases only, with its recipient\'s unsubscribe link and headers', async () => {
    const [mail] = d.digestsTo('ops@acme.example');
    const { parsed, raw } = mail!;
    const day = (at: Date) => at.toISOString().slice(0, 10);
    assert.equal(parsed.subject, `Case report (daily): ${day(new Date(d.periodEnd.getTime() - 24 * HOUR_MS))} to ${day(d.periodEnd)}`);
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
    const unsubscribe = linkIn(mail!, 'digests/unsubscribe');
    assert.ok(String(parsed.html).includes(`href="https://cases.example${unsubscribe}"`), 'the HTML part links to it too');
    const headers = `\r\n${raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ')}\r\n`;
    assert.ok(headers.includes(`\r\nList-Unsubscribe: <https://cases.example${unsubscribe}>\r\n`), `List-Unsubscribe names the same URL: ${headers}`);
    assert.ok(headers.includes('\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n'));
    assert.notEqual(linkIn(d.digestsTo('lead@acme.example')[0]!, 'digests/unsubscribe'), unsubscribe, 'each recipient has its own');
  });

  it('is marked as mail a machine sent (Auto-Submitted), with a Message-ID the listener knows answers to (so they start no run)', () => {
    const { parsed, raw } = d.digestsTo('ops@acme.example')[0]!;
    assert.match(raw.slice(0, raw.indexOf('\r\n\r\n')), /(^|\r\n)Auto-Submitted: auto-generated(\r\n|$)/);
    assert.ok(isServiceMessageId(parsed.messageId ?? ''), String(parsed.messageId));
  });

  it('catches up on the periods that ended while no scheduler ran', async () => {
    for (const app of d.apps.splice(0)) await app.close();
    const t = await d.startWorker();
    const digest = await d.create({ schedule: 'daily', hour_utc: d.periodEnd.getUTCHours(), recipients: ['late@acme.example'] }, t);
    await d.pass();
    await d.confirm('late@acme.example');
    await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 3 * 24 * HOUR_MS + HOUR_MS));
    assert.equal(d.digestsTo('late@acme.example').length, 0);
    await d.pass();
    await d.pass();
    const subjects = d.digestsTo('late@acme.example').map((m) => m.parsed.subject).sort();
    const day = (daysBefore: number) => new Date(d.periodEnd.getTime() - daysBefore * 24 * HOUR_MS).toISOString().slice(0, 10);
    assert.deepEqual(subjects, [2, 1, 0].map((n) => `Case report (daily): ${day(n + 1)} to ${day(n)}`));
  });

  it('sends by hand for the period ending with the current hour; another manual send within 10 minutes is a 429 with Retry-After', async () => {
    const [digest] = await d.list();
    assert.equal((await sendNow(digest!.id)).status, 202);
    for (const refused of [await sendNow(digest!.id), await sendNow(digest!.id)]) {
      assert.equal(refused.status, 429, refused.text);
      assert.match(refused.body.error, /^a manual send of this digest is still waiting or was asked for less than 10 minutes ago; retry in \d+ s$/);
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 600, `Retry-After: ${refused.headers['retry-after']}`);
    }
    await d.apps[0]!.app.get(DigestPass).run();
    await d.apps[0]!.app.get(DigestPass).run();
    const mails = d.digestsTo('ops@acme.example');
    assert.equal(mails.length, 2, 'one manual send queued, sent once');
    assert.match(mails[1]!.parsed.text ?? '', /^Cases created: 3$/m);
    assert.equal((await sendNow(digest!.id)).status, 429, 'sent, but asked for less than 10 minutes ago');
    await d.database.pool.query(`UPDATE digests SET manual_send_at = manual_send_at - interval '10 minutes' WHERE id = $1`, [digest!.id]);
    assert.equal((await sendNow(digest!.id)).status, 202);
    await d.apps[0]!.app.get(DigestPass).run();
    assert.equal(d.digestsTo('ops@acme.example').length, 3, '10 minutes later, a call sends again');
  });

  it('refuses a manual send while the last one is still unsent, even after 10 minutes', async () => {
    const [digest] = await d.list();
    await d.database.pool.query(`UPDATE digests SET manual_send_at = manual_send_at - interval '10 minutes' WHERE id = $1`, [digest!.id]);
    assert.equal((await sendNow(digest!.id)).status, 202);
    await d.database.pool.query(`UPDATE digests SET manual_send_at = manual_send_at - interval '1 hour' WHERE id = $1`, [digest!.id]);
    const refused = await sendNow(digest!.id);
    assert.deepEqual([refused.status, refused.headers['retry-after']], [429, '60']);
    await d.apps[0]!.app.get(DigestPass).run();
  });

  it('refuses a manual send with 409 while no recipient has confirmed, and holds nothing back: the send after the first confirmation goes out', async () => {
    const digest = await d.create({ schedule: 'daily', hour_utc: 6, recipients: ['first@acme.example'] });
    const refused = await sendNow(digest.id);
    assert.equal(refused.status, 409, refused.text);
    assert.deepEqual(refused.body, { error: 'no recipient of this digest has confirmed yet: each gets a confirmation email, and the digest goes to those who confirm' });
    await d.pass();
    await d.confirm('first@acme.example');
    const before = d.digestsTo('first@acme.example').length;
    assert.equal((await sendNow(digest.id)).status, 202, 'no 10-minute wait after the refused send');
    await d.apps[0]!.app.get(DigestPass).run();
    assert.equal(d.digestsTo('first@acme.example').length, before + 1);
  });

  it('deletes a digest; 404 for one that is not the organization\'s', async () => {
    const t = d.apps[0]!;
    const created = await d.create({ schedule: 'weekly', weekday: 1, hour_utc: 6, recipients: ['x@acme.example'], workflow_ids: [d.w.workflowId] });
    assert.deepEqual([created.weekday, created.workflow_ids], [1, [d.w.workflowId]]);
    const stranger = await givenAutomation(t, {});
    assert.equal((await t.request('DELETE', `${ROUTE}/${created.id}`, { token: stranger.org.adminToken })).status, 404);
    assert.equal((await t.request('POST', `${ROUTE}/${created.id}/send`, { token: stranger.org.adminToken })).status, 404);
    assert.equal((await t.request('DELETE', `${ROUTE}/${created.id}`, { token: admin() })).status, 204);
    assert.equal((await t.request('DELETE', `${ROUTE}/${created.id}`, { token: admin() })).status, 404);
    assert.equal((await t.request('DELETE', `${ROUTE}/abc`, { token: admin() })).status, 404);
    assert.ok(!(await d.list()).some((listed) => listed.id === created.id));
  });

  describe('changes a digest (PATCH)', () => {
    const patch = (id: number | string, body: unknown, token = admin()) => d.apps[0]!.request('PATCH', `${ROUTE}/${id}`, { token, body });
    let digest: { id: number; [key: string]: unknown };
    const otherHour = () => (d.periodEnd.getUTCHours() + 12) % 24;

    before(async () => {
      digest = await d.create({ schedule: 'daily', hour_utc: otherHour(), recipients: ['keep@acme.example', 'drop@acme.example'] });
      await d.pass();
    });

    it('applies any of the fields and reads them back; an added address is asked to confirm, one that unsubscribed is mailed nothing', async () => {
      const unsubscribed = await postForm(d.apps[0]!, linkIn(d.digestsTo('ops@acme.example')[0]!, 'digests/unsubscribe'), 'List-Unsubscribe=One-Click');
      assert.equal(unsubscribed.status, 200, unsubscribed.text);
      const opsInvitations = d.invitationsTo('ops@acme.example').length;
      const res = await patch(digest.id, { schedule: 'weekly', weekday: 3, hour_utc: 9, recipients: ['keep@acme.example', 'new@acme.example', 'ops@acme.example'], workflow_ids: [d.w.workflowId] });
      assert.equal(res.status, 200, res.text);
      const expected = {
        ...digest,
        schedule: 'weekly',
        weekday: 3,
        hour_utc: 9,
        recipients: ['keep@acme.example', 'new@acme.example', 'ops@acme.example'],
        unsubscribed_recipients: ['ops@acme.example'],
        workflow_ids: [d.w.workflowId],
      };
      assert.deepEqual(res.body, { digest: expected });
      assert.deepEqual((await d.list()).find((listed) => listed.id === digest.id), expected);
      await d.pass();
      assert.equal(d.invitationsTo('new@acme.example').length, 1, 'the added address is asked to confirm');
      assert.equal(d.invitationsTo('ops@acme.example').length, opsInvitations, 'the address that unsubscribed is not mailed');
      assert.equal(d.invitationsTo('keep@acme.example').length, 1, 'an address it had already is not asked again');

      const daily = await patch(digest.id, { schedule: 'daily', workflow_ids: null });
      assert.equal(daily.status, 200, daily.text);
      assert.deepEqual([daily.body.digest.schedule, daily.body.digest.weekday, daily.body.digest.hour_utc, daily.body.digest.workflow_ids], ['daily', null, 9, null], 'becoming daily drops the weekday; null workflow_ids is every workflow');
    });

    it('starts a new schedule with its next period: no period that ended before the change is sent', async () => {
      await d.confirm('keep@acme.example');
      // The hour must change for this to be a new schedule: the test before leaves it at 9, which is periodEnd's own hour from 09:00 to 09:59 UTC.
      const away = await patch(digest.id, { hour_utc: (d.periodEnd.getUTCHours() + 1) % 24 });
      assert.equal(away.status, 200, away.text);
      await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 3 * 24 * HOUR_MS));
      const res = await patch(digest.id, { hour_utc: d.periodEnd.getUTCHours(), recipients: ['keep@acme.example'] });
      assert.equal(res.status, 200, res.text);
      await d.pass();
      assert.equal(d.digestsTo('keep@acme.example').length, 0, 'no catch-up of the periods the new hour would have had');
      await d.pass(undefined, 24 * HOUR_MS);
      assert.equal(d.digestsTo('keep@acme.example').length, 1, 'the next period is sent');
    });

    it('answers 404 for another organization\'s digest or an unknown one, and changes nothing', async () => {
      const stranger = await givenAutomation(d.apps[0]!, {});
      const before = (await d.list()).find((listed) => listed.id === digest.id);
      for (const res of [await patch(digest.id, { hour_utc: 1 }, stranger.org.adminToken), await patch(999_999, { hour_utc: 1 }), await patch('abc', { hour_utc: 1 })]) {
        assert.equal(res.status, 404, res.text);
        assert.equal(typeof res.body.error, 'string');
      }
      assert.deepEqual((await d.list()).find((listed) => listed.id === digest.id), before);
    });

    const refused: [string, unknown, string][] = [
      ['an empty body', {}, ''],
      ['hour_utc 24', { hour_utc: 24 }, '/hour_utc'],
      ['schedule null', { schedule: null }, '/schedule'],
      ['recipients null', { recipients: null }, '/recipients'],
      ['a monthly schedule', { schedule: 'monthly' }, '/schedule'],
      ['weekly without a weekday', { schedule: 'weekly' }, '/weekday'],
      ['a weekday on a daily digest', { weekday: 2 }, '/weekday'],
      ['no recipient', { recipients: [] }, '/recipients'],
      ['a recipient that is not an address', { recipients: ['not an address'] }, '/recipients'],
      ['21 recipients', { recipients: Array.from({ length: 21 }, (_, i) => `r${i}@acme.example`) }, '/recipients'],
      ['workflow ids that are not integers', { workflow_ids: ['1'] }, '/workflow_ids'],
    ];
    for (const [what, body, pointer] of refused) {
      it(`refuses with 422 at its pointer: ${what}`, async () => {
        const res = await patch(digest.id, body);
        assert.equal(res.status, 422, res.text);
        assert.equal(typeof res.body.error, 'string');
        assert.ok(res.body.validation_errors?.some((e: { path: string }) => e.path === pointer), res.text);
      });
    }
  });

  it('is sent by the workers\' own schedule (a repeatable Bull job), confirmation mail included', async () => {
    for (const app of d.apps.splice(0)) await app.close();
    const t = await d.startWorker(1000);
    const digest = await d.create({ schedule: 'daily', hour_utc: d.periodEnd.getUTCHours(), recipients: ['scheduled@acme.example'] }, t);
    await eventually('the confirmation mail', async () => (d.invitationsTo('scheduled@acme.example').length > 0 ? true : undefined));
    await d.confirm('scheduled@acme.example');
    await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 23 * HOUR_MS));
    await eventually('the scheduled digest', async () => (d.digestsTo('scheduled@acme.example').length > 0 ? true : undefined));
    assert.equal(d.digestsTo('scheduled@acme.example').length, 1);
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
        const res = await d.apps[0]!.request('POST', ROUTE, { token: admin(), body });
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
      await t.request('PATCH', `${ROUTE}/1`, { token: admin, body: { hour_utc: 1 } }),
      await t.request('DELETE', `${ROUTE}/1`, { token: admin }),
      await t.request('POST', `${ROUTE}/1/send`, { token: admin }),
    ];
    for (const res of answers) assert.deepEqual([res.status, res.body.error], [422, 'digests are not configured: SMTP_RELAY_URL is not set']);
  });
});
