/**
 * Digest recipients and the relay failing, through HTTP and a real SMTP sink: an address gets
 * a digest only once it confirmed on the page its confirmation mail links to (opening the link
 * confirms nothing), at most one confirmation mail a week however often digests naming it are
 * created, unsubscribes in one click (RFC 8058) from every digest of the organization; a send
 * the relay keeps refusing is given up after 5 attempts with a readable error; old sends are
 * purged without any period going out twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DigestPass } from '../../src/modules/reporting/application/digest-pass.service.js';
import { PurgePass } from '../../src/modules/retention/application/purge-pass.service.js';
import { DIGESTS, type DigestWorld, linkIn, startDigestWorld } from '../support/digest-helpers.js';
import { postForm } from '../support/form-helpers.js';
import { DAY_MS, HOUR_MS } from '../support/report-helpers.js';

describe('digest recipients', () => {
  let d: DigestWorld;
  const t = () => d.apps[0]!;
  const daily = (recipients: string[]) => ({ schedule: 'daily', hour_utc: d.periodEnd.getUTCHours(), recipients });
  const listed = async (id: number) => (await d.list()).find((digest) => digest.id === id)!;
  const sends = async (digestId: number) =>
    (await d.database.pool.query<{ state: string; attempts: number; last_error: string | null }>('SELECT state, attempts, last_error FROM digest_sends WHERE digest_id = $1 ORDER BY id', [digestId])).rows;
  /** Makes the digest's unsent sends look claimed `ms` earlier, as if that much time had passed. */
  const age = (digestId: number, ms: number) =>
    d.database.pool.query(`UPDATE digest_sends SET claimed_at = claimed_at - $2 * interval '1 millisecond' WHERE digest_id = $1 AND state = 'sending'`, [digestId, ms]);

  before(async () => {
    d = await startDigestWorld();
  });
  after(() => d.close());

  it('a confirmation link only shows a page (a mail scanner opening it confirms nothing); until its button is pressed, periods are skipped, not sent later', async () => {
    const digest = await d.create(daily(['ana@acme.example', 'bob@acme.example']));
    await d.pass();
    const [invitation] = d.invitationsTo('ana@acme.example');
    assert.match(invitation!.parsed.text ?? '', /An administrator of the organization ".+" on https:\/\/cases\.example asked to send case report digests to ana@acme\.example\./);
    const link = linkIn(invitation!, 'digests/confirm');
    for (let open = 0; open < 2; open++) {
      const page = await t().request('GET', link);
      assert.equal(page.status, 200, page.text);
      assert.match(page.text, /Someone asked to send the case report digests of the organization “.+” to <strong>ana@acme\.example<\/strong>\./);
      assert.match(String(page.headers['content-security-policy']), /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'/);
      assert.deepEqual([page.headers['cache-control'], page.headers['referrer-policy']], ['no-store', 'no-referrer']);
      assert.doesNotMatch(page.text, /<script/);
    }
    assert.deepEqual((await listed(digest.id)).confirmed_recipients, []);
    await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 23 * HOUR_MS));
    assert.equal(await d.pass(), 1, 'the period with no confirmed recipient is done with, and is not an error');
    assert.deepEqual(await sends(digest.id), [{ state: 'skipped', attempts: 1, last_error: null }]);
    assert.equal((await listed(digest.id)).last_sent_at, null);

    await d.confirm('ana@acme.example');
    await d.confirm('bob@acme.example');
    assert.deepEqual((await listed(digest.id)).confirmed_recipients, ['ana@acme.example', 'bob@acme.example']);
    await d.pass();
    assert.equal(d.digestsTo('ana@acme.example').length, 0, 'the skipped period is not sent once confirmed');
    await d.pass(t(), DAY_MS);
    assert.equal(d.digestsTo('ana@acme.example').length, 1, 'the next period is');
  });

  it('sends no digest to an address that did not confirm; an address confirmed in the organization needs no new confirmation', async () => {
    const digest = await d.create(daily(['ana@acme.example', 'stranger@else.example']));
    assert.deepEqual([digest.confirmed_recipients, digest.recipients], [['ana@acme.example'], ['ana@acme.example', 'stranger@else.example']]);
    await d.pass();
    assert.equal(d.invitationsTo('ana@acme.example').length, 1, 'no second confirmation mail to a confirmed address');
    assert.equal(d.invitationsTo('stranger@else.example').length, 1);
    await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 23 * HOUR_MS));
    await d.pass();
    assert.equal(d.digestsTo('ana@acme.example').length, 2);
    assert.deepEqual(d.digestsTo('stranger@else.example'), [], 'the unconfirmed address gets only its confirmation mail');
  });

  it('mails an address that does not answer once a week at most, however often digests naming it are created and deleted', async () => {
    const createAndDelete = async () => {
      const digest = await d.create(daily(['pest@else.example']));
      await d.pass();
      assert.equal((await t().request('DELETE', `${DIGESTS}/${digest.id}`, { token: d.w.org.adminToken })).status, 204);
    };
    for (let round = 0; round < 5; round++) await createAndDelete();
    assert.equal(d.invitationsTo('pest@else.example').length, 1);
    await d.database.pool.query(`UPDATE digest_recipients SET invited_at = invited_at - interval '7 days 1 minute' WHERE address = 'pest@else.example'`);
    await createAndDelete();
    await createAndDelete();
    assert.equal(d.invitationsTo('pest@else.example').length, 2, 'a week later, one more');
  });

  it('unsubscribes in one click (RFC 8058 POST, urlencoded or multipart) from every digest of the organization; opening the link changes nothing', async () => {
    const [digest] = d.digestsTo('ana@acme.example').slice(-1);
    const link = linkIn(digest!, 'digests/unsubscribe');
    const page = await t().request('GET', link);
    assert.equal(page.status, 200, page.text);
    assert.match(page.text, /<form method="post"><button type="submit">Unsubscribe<\/button><\/form>/);
    assert.ok((await d.list()).every((listedDigest) => !listedDigest.unsubscribed_recipients.includes('ana@acme.example')), 'a GET unsubscribes no one');

    const oneClick = await postForm(t(), link, 'List-Unsubscribe=One-Click');
    assert.equal(oneClick.status, 200, oneClick.text);
    assert.match(oneClick.text, /<h1>Unsubscribed<\/h1>/);
    const bobsLink = linkIn(d.digestsTo('bob@acme.example')[0]!, 'digests/unsubscribe');
    const multipart = '--b0undary\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b0undary--\r\n';
    const bob = await t().request('POST', bobsLink, { rawBody: multipart, headers: { 'content-type': 'multipart/form-data; boundary=b0undary' } });
    assert.equal(bob.status, 200, bob.text);
    for (const digestListed of (await d.list()).filter((listedDigest) => listedDigest.recipients.includes('ana@acme.example'))) {
      assert.ok(digestListed.unsubscribed_recipients.includes('ana@acme.example') && !digestListed.confirmed_recipients.includes('ana@acme.example'), JSON.stringify(digestListed));
    }
    const sentBefore = d.digestsTo('ana@acme.example').length;
    await d.pass(t(), 2 * DAY_MS);
    assert.equal(d.digestsTo('ana@acme.example').length, sentBefore, 'no digest after unsubscribing');
    assert.equal(d.digestsTo('bob@acme.example').length, 1);
    await d.create(daily(['ana@acme.example']));
    await d.pass(t(), 2 * DAY_MS);
    assert.equal(d.invitationsTo('ana@acme.example').length, 1, 'a new digest naming an unsubscribed address mails it nothing');
  });

  it('a digest\'s unsubscribe link never confirms, and is dead once used: whoever holds a forwarded digest cannot bring back an address that opted out; its confirmation mail can, with a new unsubscribe link', async () => {
    const address = 'cara@acme.example';
    const digest = await d.create(daily([address]));
    await d.pass();
    await d.confirm(address);
    await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 23 * HOUR_MS));
    await d.pass();
    const [forwarded] = d.digestsTo(address);
    const link = linkIn(forwarded!, 'digests/unsubscribe');
    const asConfirm = link.replace('/digests/unsubscribe/', '/digests/confirm/');
    assert.notEqual(asConfirm, linkIn(d.invitationsTo(address)[0]!, 'digests/confirm'), 'the digest carries a token of its own');
    const status = async (method: 'GET' | 'POST', path: string) => (method === 'GET' ? await t().request('GET', path) : await postForm(t(), path, '')).status;
    assert.deepEqual([await status('GET', asConfirm), await status('POST', asConfirm)], [404, 404], 'the unsubscribe token is no confirm token');

    const unsubscribed = await postForm(t(), link, 'List-Unsubscribe=One-Click');
    assert.equal(unsubscribed.status, 200, unsubscribed.text);
    assert.match(unsubscribed.text, /<h1>Unsubscribed<\/h1>/);
    assert.doesNotMatch(unsubscribed.text, /<form/, 'no button on the page confirms again');
    assert.deepEqual([await status('POST', asConfirm), await status('GET', link), await status('POST', link)], [404, 404, 404], 'used up, and still no confirm token');
    assert.deepEqual((await listed(digest.id)).unsubscribed_recipients, [address]);
    await d.pass(t(), DAY_MS);
    assert.equal(d.digestsTo(address).length, 1, 'nothing sent after unsubscribing');

    await d.confirm(address);
    await d.pass(t(), 2 * DAY_MS);
    const [, next] = d.digestsTo(address);
    assert.ok(next, 'digests again once confirmed through the confirmation mail');
    const newLink = linkIn(next, 'digests/unsubscribe');
    assert.notEqual(newLink, link);
    assert.equal(await status('GET', newLink), 200);
    assert.equal(await status('GET', link), 404);
  });

  it('answers a 404 page for an unknown or malformed token, to GET and POST alike', async () => {
    for (const [method, path] of [['GET', '/digests/confirm/'], ['POST', '/digests/confirm/'], ['GET', '/digests/unsubscribe/'], ['POST', '/digests/unsubscribe/']] as const) {
      for (const token of ['A'.repeat(43), 'short', `${'A'.repeat(42)}!`]) {
        const res = method === 'GET' ? await t().request('GET', `${path}${encodeURIComponent(token)}`) : await postForm(t(), `${path}${encodeURIComponent(token)}`, '');
        assert.equal(res.status, 404, `${method} ${path}${token}: ${res.text}`);
        assert.match(res.text, /<h1>Link not valid<\/h1>/);
        assert.match(String(res.headers['content-security-policy']), /^default-src 'none'/);
      }
    }
  });

  it('gives a send up after 5 attempts the relay refused, retried later each time; shows last_error without the relay URL or password; a later period goes out', async () => {
    const digest = await d.create(daily(['fail@acme.example']));
    await d.pass();
    await d.confirm('fail@acme.example');
    d.sink.refusing = `5.7.1 relay refused ${d.sink.url} (digest:secret)`;
    try {
      await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 23 * HOUR_MS));
      await d.pass();
      assert.deepEqual((await sends(digest.id)).map((s) => [s.state, s.attempts]), [['sending', 1]]);
      await d.pass();
      assert.equal((await sends(digest.id))[0]!.attempts, 1, 'not retried before its lease (5 minutes) ends');
      await age(digest.id, 5 * 60_000 + 1000);
      await d.pass();
      assert.equal((await sends(digest.id))[0]!.attempts, 2);
      await age(digest.id, 5 * 60_000 + 1000);
      await d.pass();
      assert.equal((await sends(digest.id))[0]!.attempts, 2, 'the second wait is twice as long');
      for (const attempts of [3, 4, 5]) {
        await age(digest.id, DAY_MS);
        await d.pass();
        assert.equal((await sends(digest.id))[0]!.attempts, attempts);
      }
      const [given] = await sends(digest.id);
      assert.equal(given!.state, 'failed');
      await d.database.pool.query(`UPDATE digest_sends SET claimed_at = claimed_at - interval '1 day' WHERE digest_id = $1`, [digest.id]);
      await d.pass();
      assert.equal((await sends(digest.id))[0]!.attempts, 5, 'never tried again');
      const shown = await listed(digest.id);
      assert.equal(typeof shown.last_failed_at, 'string');
      assert.match(shown.last_error, /^550 .*5\.7\.1 relay refused/);
      assert.ok(!shown.last_error.includes('secret') && !shown.last_error.includes(d.sink.url) && shown.last_error.length <= 200, shown.last_error);
      assert.equal(shown.last_sent_at, null);
      assert.deepEqual(d.digestsTo('fail@acme.example'), []);
    } finally {
      d.sink.refusing = undefined;
    }
    await d.pass(t(), DAY_MS);
    const [mail] = d.digestsTo('fail@acme.example');
    assert.equal(mail?.parsed.subject, `Case report (daily): ${d.periodEnd.toISOString().slice(0, 10)} to ${new Date(d.periodEnd.getTime() + DAY_MS).toISOString().slice(0, 10)}`);
    assert.equal(typeof (await listed(digest.id)).last_sent_at, 'string');
  });

  it('purges sends done with once older than the catch-up window, counted in purged_rows_total; a purged period is never claimed and sent again', async () => {
    const digest = await d.create(daily(['history@acme.example']));
    await d.pass();
    await d.confirm('history@acme.example');
    await d.backdate(digest.id, new Date(d.periodEnd.getTime() - 100 * DAY_MS));
    // 100 days of daily periods already done with, the last one ending at periodEnd.
    await d.database.pool.query(
      `INSERT INTO digest_sends (digest_id, kind, period_start, period_end, state, sent_at)
       SELECT $1, 'scheduled', $2::timestamptz - (k + 1) * interval '1 day', $2::timestamptz - k * interval '1 day', CASE WHEN k % 10 = 9 THEN 'failed' ELSE 'sent' END, now()
       FROM generate_series(0, 99) k`,
      [digest.id, d.periodEnd],
    );
    await t().app.get(PurgePass).run();
    const { rows } = await d.database.pool.query<{ n: number; oldest: Date }>('SELECT count(*)::int AS n, min(period_end) AS oldest FROM digest_sends WHERE digest_id = $1', [digest.id]);
    assert.ok(rows[0]!.n >= 50 && rows[0]!.n <= 51, `the last 50 days are kept: ${rows[0]!.n}`);
    const metrics = (await t().request('GET', '/metrics')).text;
    assert.ok(Number(/^purged_rows_total\{kind="digest_sends"\} (\d+)$/m.exec(metrics)?.[1]) >= 100 - rows[0]!.n, metrics);

    await d.pass();
    await t().app.get(DigestPass).run();
    assert.deepEqual(d.digestsTo('history@acme.example'), [], 'no purged period is due again');
    // The check can fail: a period whose row is missing is sent.
    await d.database.pool.query('DELETE FROM digest_sends WHERE digest_id = $1 AND period_end = $2', [digest.id, d.periodEnd]);
    await d.pass();
    assert.equal(d.digestsTo('history@acme.example').length, 1);
  });
});
