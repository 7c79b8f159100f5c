/**
 * Users and roles, sign-in links, sessions and their CSRF check (people.md, sections 1 and 2),
 * through the real HTTP stack, Postgres, Redis and an SMTP relay standing in for the real one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { assertJsonError } from '../support/foundation-assertions.js';
import {
  asSession,
  givenMember,
  givenOwnedOrganization,
  linkMailedTo,
  type PeopleOrganization,
  sessionFromMail,
  signInWith,
  uniqueEmail,
} from '../support/people-helpers.js';
import { operatorToken, sampleDefinition } from '../support/scenario.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { db, startTestApp, type TestApp } from '../support/test-app.js';

const USERS = '/api/admin/v1/users';

describe('people', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let origin: string;
  let org: PeopleOrganization;

  before(async () => {
    sink = await startSmtpSink();
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix() } });
    origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    org = await givenOwnedOrganization(t, sink, origin);
  });
  after(async () => {
    await t?.close();
    await sink?.close();
  });

  describe('users and roles', () => {
    it('the operator\'s owner_email becomes the first owner, invited until they sign in', async () => {
      const email = uniqueEmail('first');
      const created = await t.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name: 'Owned', owner_email: email } });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual([created.body.owner.email, created.body.owner.role, created.body.owner.status, created.body.owner.last_seen_at], [email, 'owner', 'invited', null]);
      const owner = await sessionFromMail(t, sink, email, origin);
      const users = await t.request('GET', USERS, { headers: { cookie: owner.cookie } });
      assert.deepEqual(users.body.users.map((u: { email: string; status: string }) => [u.email, u.status]), [[email, 'active']]);
    });

    it('an owner invites a user: 201 with the contract\'s shape, and a mail with a sign-in link valid 7 days', async () => {
      const email = uniqueEmail('invitee');
      const before = Date.now();
      const res = await asSession(t, org.owner, origin, 'POST', USERS, { email, role: 'editor' });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(Object.keys(res.body.user).sort(), ['created_at', 'email', 'id', 'last_seen_at', 'role', 'status']);
      assert.deepEqual([res.body.user.email, res.body.user.role, res.body.user.status, res.body.user.last_seen_at], [email, 'editor', 'invited', null]);
      const link = await linkMailedTo(sink, email);
      const [row] = (await db().query('SELECT expires_at FROM sign_in_links WHERE user_id = $1', [res.body.user.id])).rows as { expires_at: Date }[];
      const days = (row!.expires_at.getTime() - before) / 86_400_000;
      assert.ok(days > 6.99 && days < 7.01, `valid ${days} days`);
      assert.ok(!JSON.stringify(await t.request('GET', USERS, { headers: { cookie: org.owner.cookie } })).includes(link.split('/').pop()!), 'the link is in the mail only');
      const again = await asSession(t, org.owner, origin, 'POST', USERS, { email: email.toUpperCase(), role: 'viewer' });
      assertJsonError(again, 422);
    });

    it('lists, changes a role (200) and deletes (204); an unknown user is 404', async () => {
      const member = await givenMember(t, sink, org, 'viewer', origin);
      const listed = await t.request('GET', USERS, { headers: { cookie: org.owner.cookie } });
      assert.ok(listed.body.users.some((u: { id: number; status: string }) => u.id === member.userId && u.status === 'active'));
      const changed = await asSession(t, org.owner, origin, 'PATCH', `${USERS}/${member.userId}`, { role: 'admin' });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.body.user.role, 'admin');
      assert.equal((await t.request('GET', '/api/admin/v1/me', { headers: { cookie: member.cookie } })).body.role, 'admin', 'the new role acts on the next request');
      assert.equal((await asSession(t, org.owner, origin, 'DELETE', `${USERS}/${member.userId}`)).status, 204);
      assertJsonError(await t.request('GET', '/api/admin/v1/me', { headers: { cookie: member.cookie } }), 401);
      assertJsonError(await asSession(t, org.owner, origin, 'DELETE', `${USERS}/${member.userId}`), 404);
      assertJsonError(await asSession(t, org.owner, origin, 'PATCH', `${USERS}/${member.userId}`, { role: 'viewer' }), 404);
    });

    it('the last owner is neither demoted nor deleted (422); with a second owner, either may go', async () => {
      const other = await givenOwnedOrganization(t, sink, origin);
      assertJsonError(await asSession(t, other.owner, origin, 'PATCH', `${USERS}/${other.owner.userId}`, { role: 'admin' }), 422);
      assertJsonError(await asSession(t, other.owner, origin, 'DELETE', `${USERS}/${other.owner.userId}`), 422);
      const second = await givenMember(t, sink, other, 'owner', origin);
      assert.equal((await asSession(t, second, origin, 'PATCH', `${USERS}/${other.owner.userId}`, { role: 'viewer' })).status, 200);
      assertJsonError(await asSession(t, second, origin, 'DELETE', `${USERS}/${second.userId}`), 422);
    });

    it('users are the owner\'s business: an admin token gets 403, another organization\'s user is 404', async () => {
      assertJsonError(await t.request('GET', USERS, { token: org.adminToken }), 403);
      assertJsonError(await t.request('POST', USERS, { token: org.adminToken, body: { email: uniqueEmail(), role: 'owner' } }), 403);
      const other = await givenOwnedOrganization(t, sink, origin);
      assertJsonError(await asSession(t, org.owner, origin, 'DELETE', `${USERS}/${other.owner.userId}`), 404);
    });

    it('refuses bad bodies with 422', async () => {
      for (const body of [{ email: 'nope', role: 'viewer' }, { email: uniqueEmail(), role: 'root' }, { email: uniqueEmail(), role: 'viewer', extra: 1 }, {}]) {
        assertJsonError(await asSession(t, org.owner, origin, 'POST', USERS, body), 422, ['validation_errors']);
      }
      assertJsonError(await asSession(t, org.owner, origin, 'PATCH', `${USERS}/${org.owner.userId}`, { role: 'boss' }), 422, ['validation_errors']);
    });
  });

  describe('sign-in links', () => {
    it('opening the link only shows a button; the button signs in once, and the link is refused afterwards', async () => {
      const email = uniqueEmail('link');
      assert.equal((await asSession(t, org.owner, origin, 'POST', USERS, { email, role: 'viewer' })).status, 201);
      const link = await linkMailedTo(sink, email);
      for (let i = 0; i < 2; i++) {
        const page = await t.request('GET', link);
        assert.equal(page.status, 200);
        assert.match(page.text, /<form method="post"><button type="submit">Sign in<\/button><\/form>/);
        assert.equal(page.headers['set-cookie'], undefined, 'opening the link signs in nobody');
      }
      const { response, cookie } = await signInWith(t, link, origin);
      assert.equal(response.status, 303);
      assert.equal(response.headers.location, '/dashboard/');
      const attributes = String([response.headers['set-cookie']].flat()[0]).split('; ');
      assert.ok(attributes.includes('HttpOnly') && attributes.includes('SameSite=Lax') && attributes.includes('Path=/'), attributes.join('; '));
      assert.ok(!attributes.includes('Secure'), 'no Secure on http://localhost');
      assert.match(cookie!, /^cis_session=[A-Za-z0-9_-]{43}$/);
      const [stored] = (await db().query('SELECT count(*)::int AS n FROM sessions WHERE id_hash = sha256($1::bytea)', [Buffer.from(cookie!.split('=')[1]!)])).rows as { n: number }[];
      assert.equal(stored!.n, 1, 'the session is stored as the SHA-256 of its id');
      const replay = await signInWith(t, link, origin);
      assert.equal(replay.response.status, 404);
      assert.match(replay.response.text, /Link not valid/);
      assert.equal(replay.cookie, undefined);
      assert.equal((await t.request('GET', link)).status, 404);
    });

    it('a sign-in posted from another site\'s page is refused, and the link stays usable', async () => {
      const email = uniqueEmail('cross');
      await asSession(t, org.owner, origin, 'POST', USERS, { email, role: 'viewer' });
      const link = await linkMailedTo(sink, email);
      const refused = await signInWith(t, link, 'https://evil.example');
      assert.equal(refused.response.status, 403);
      assert.equal(refused.cookie, undefined);
      assert.equal((await signInWith(t, link, origin)).response.status, 303);
    });

    it('an expired or made-up link signs in nobody', async () => {
      const email = uniqueEmail('late');
      const invited = await asSession(t, org.owner, origin, 'POST', USERS, { email, role: 'viewer' });
      const link = await linkMailedTo(sink, email);
      await db().query(`UPDATE sign_in_links SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [invited.body.user.id]);
      assert.equal((await signInWith(t, link, origin)).response.status, 404);
      assert.equal((await signInWith(t, '/auth/link/sil_madeup', origin)).response.status, 404);
    });

    it('POST /auth/email answers 202 to anyone; a known user gets a link valid 15 minutes, an unknown address nothing', async () => {
      const member = await givenMember(t, sink, org, 'viewer', origin);
      const before = Date.now();
      const seen = new Set(sink.mails.map((mail) => mail.parsed.text ?? ''));
      const unknown = uniqueEmail('stranger');
      for (const email of [unknown, member.email]) {
        const res = await t.request('POST', '/auth/email', { body: { email } });
        assert.equal(res.status, 202);
        assert.equal(res.text, '');
      }
      const link = await linkMailedTo(sink, member.email, new Set([...seen].map((text) => /\/auth\/link\/sil_[A-Za-z0-9_-]+/.exec(text)?.[0] ?? '')));
      // The invitation's link was used to sign in: the one unused is the one asked for.
      const rows = (await db().query('SELECT expires_at FROM sign_in_links WHERE user_id = $1 AND used_at IS NULL', [member.userId])).rows as { expires_at: Date }[];
      const minutes = (rows[0]!.expires_at.getTime() - before) / 60_000;
      assert.ok(minutes > 14.9 && minutes < 15.1, `valid ${minutes} minutes`);
      assert.ok(!sink.mails.some((mail) => mail.to.includes(unknown)), 'no mail to an unknown address');
      assert.equal((await signInWith(t, link, origin)).response.status, 303);
      assertJsonError(await t.request('POST', '/auth/email', { body: { email: 'not-an-address' } }), 422, ['validation_errors']);
    });

    it('a flood of requests for one address from one client network mails at most 5 links in the window, and still answers 202; another network\'s request still gets one, up to 15 for the address from all networks', async () => {
      const member = await givenMember(t, sink, org, 'viewer', origin);
      const mailsBefore = sink.mails.filter((mail) => mail.to.includes(member.email)).length;
      const ask = async (remoteAddress: string) => assert.equal((await t.request('POST', '/auth/email', { body: { email: member.email }, remoteAddress })).status, 202);
      // Eight requests from addresses of one IPv6 /64: one client network.
      for (let i = 0; i < 8; i++) await ask(`2001:db8:5:7::${i + 1}`);
      // Links are issued after the answer (its timing says nothing about the address): wait for them, then give stragglers a moment.
      const issued = async () => ((await db().query('SELECT count(*)::int AS n FROM sign_in_links WHERE user_id = $1', [member.userId])).rows as { n: number }[])[0]!.n;
      const settled = async (count: number) => {
        await eventually('the links issued', async () => ((await issued()) >= count ? true : undefined));
        await new Promise((resolve) => setTimeout(resolve, 300));
        return issued();
      };
      // The invitation, then five of the eight requests.
      assert.equal(await settled(6), 6);
      // The person asks from elsewhere (the next /64, and an IPv4 address): the stranger's flood locked them out of nothing.
      await ask('2001:db8:5:8::1');
      await ask('198.51.100.7');
      assert.equal(await settled(8), 8);
      // A stranger with many networks: each lets 5 through, and the address takes 15 in all.
      for (let network = 10; network < 14; network++) for (let i = 0; i < 5; i++) await ask(`2001:db8:5:${network}::${i + 1}`);
      assert.equal(await settled(16), 16, 'the invitation and 15 links');
      assert.ok(mailsBefore >= 1);
    });
  });

  describe('sessions', () => {
    it('GET /api/admin/v1/me says who is calling: a person (with the CSRF token) or a token', async () => {
      const me = await t.request('GET', '/api/admin/v1/me', { headers: { cookie: org.owner.cookie } });
      assert.deepEqual({ ...me.body, csrf_token: typeof me.body.csrf_token }, { caller: { type: 'user', id: org.owner.userId, name: org.owner.email }, role: 'owner', organization: { id: org.id }, csrf_token: 'string' });
      const token = await t.request('GET', '/api/admin/v1/me', { token: org.adminToken });
      assert.deepEqual([token.body.caller.type, token.body.role, token.body.organization.id, token.body.csrf_token], ['token', 'admin', org.id, undefined]);
    });

    it('a state-changing request of a session needs the service\'s own Origin, or no (or a null) Origin and the CSRF token: otherwise 403', async () => {
      const body = sampleDefinition({ name: 'CSRF probe' });
      const cookie = org.owner.cookie;
      assertJsonError(await t.request('POST', '/api/admin/v1/workflows', { body, headers: { cookie, origin: 'https://evil.example' } }), 403);
      assertJsonError(await t.request('POST', '/api/admin/v1/workflows', { body, headers: { cookie } }), 403);
      assertJsonError(await t.request('POST', '/api/admin/v1/workflows', { body, headers: { cookie, 'x-csrf-token': 'forged' } }), 403);
      assert.equal((await t.request('POST', '/api/admin/v1/workflows', { body, headers: { cookie, origin } })).status, 201);
      assert.equal((await t.request('POST', '/api/admin/v1/workflows', { body, headers: { cookie, 'x-csrf-token': org.owner.csrf } })).status, 201);
      // A page with no referrer (or a sandboxed frame) sends `Origin: null`: only the CSRF token vouches for it.
      assertJsonError(await t.request('POST', '/api/admin/v1/workflows', { body, headers: { cookie, origin: 'null' } }), 403);
      assert.equal((await t.request('POST', '/api/admin/v1/workflows', { body, headers: { cookie, origin: 'null', 'x-csrf-token': org.owner.csrf } })).status, 201);
      assert.equal((await t.request('GET', '/api/admin/v1/workflows', { headers: { cookie, origin: 'https://evil.example' } })).status, 200, 'reads are not state-changing');
      // A bearer token is no ambient credential: no Origin check.
      assert.equal((await t.request('POST', '/api/admin/v1/workflows', { body, token: org.adminToken, headers: { origin: 'https://evil.example' } })).status, 201);
    });

    it('a session never reaches the cases API or the webhook', async () => {
      const res = await t.request('GET', '/api/external/v1/workflows/1/cases', { headers: { cookie: org.owner.cookie } });
      assertJsonError(res, 401);
    });

    it('sign-out ends the session and removes the cookie; it too needs the own Origin', async () => {
      const member = await givenMember(t, sink, org, 'viewer', origin);
      assertJsonError(await t.request('POST', '/auth/sign_out', { headers: { cookie: member.cookie, origin: 'https://evil.example' } }), 403);
      const out = await t.request('POST', '/auth/sign_out', { headers: { cookie: member.cookie, origin } });
      assert.equal(out.status, 204);
      assert.match(String(out.headers['set-cookie']), /^cis_session=; .*Max-Age=0/);
      assertJsonError(await t.request('GET', '/api/admin/v1/me', { headers: { cookie: member.cookie } }), 401);
      assert.equal((await t.request('POST', '/auth/sign_out', { headers: { cookie: member.cookie, origin } })).status, 204, 'signing out twice is no error');
    });

    it('over HTTPS at the root the session cookie is __Host-cis_session (Secure, Path=/, no Domain), and only that name signs in', async () => {
      const base = 'https://cases.example';
      const secure = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix(), PUBLIC_BASE_URL: base } });
      try {
        const email = uniqueEmail('secure');
        assert.equal((await secure.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name: 'Secure', owner_email: email } })).status, 201);
        const { response, cookie } = await signInWith(secure, await linkMailedTo(sink, email), base);
        assert.equal(response.status, 303, response.text);
        const attributes = String([response.headers['set-cookie']].flat()[0]).split('; ');
        assert.match(attributes[0]!, /^__Host-cis_session=[A-Za-z0-9_-]{43}$/);
        assert.ok(attributes.includes('Secure') && attributes.includes('Path=/'), attributes.join('; '));
        assert.ok(!attributes.some((a) => /^domain=/i.test(a)), 'no Domain');
        assert.equal((await secure.request('GET', '/api/admin/v1/me', { headers: { cookie: cookie! } })).status, 200);
        // The same id under the plain name (which a neighbouring host could set) is no session here.
        assertJsonError(await secure.request('GET', '/api/admin/v1/me', { headers: { cookie: cookie!.replace(/^__Host-/, '') } }), 401);
        const out = await secure.request('POST', '/auth/sign_out', { headers: { cookie: cookie!, origin: base } });
        assert.equal(out.status, 204);
        assert.match(String(out.headers['set-cookie']), /^__Host-cis_session=; Path=\/; .*Max-Age=0; Secure$/);
      } finally {
        await secure.close();
      }
    });

    it('a session ends 12 h after its last request and 14 days after its sign-in (seen by an instance that never cached it)', async () => {
      const idle = await givenMember(t, sink, org, 'viewer', origin);
      const old = await givenMember(t, sink, org, 'viewer', origin);
      const fresh = await givenMember(t, sink, org, 'viewer', origin);
      await db().query(`UPDATE sessions SET last_seen_at = now() - interval '12 hours 1 minute' WHERE user_id = $1`, [idle.userId]);
      await db().query(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [old.userId]);
      const other = await startTestApp({ env: { SMTP_RELAY_URL: sink.url } });
      try {
        assertJsonError(await other.request('GET', '/api/admin/v1/me', { headers: { cookie: idle.cookie } }), 401);
        assertJsonError(await other.request('GET', '/api/admin/v1/me', { headers: { cookie: old.cookie } }), 401);
        assert.equal((await other.request('GET', '/api/admin/v1/me', { headers: { cookie: fresh.cookie } })).status, 200);
      } finally {
        await other.close();
      }
      const [row] = (await db().query('SELECT extract(epoch FROM expires_at - created_at)::float8 AS seconds FROM sessions WHERE user_id = $1', [fresh.userId])).rows as { seconds: number }[];
      assert.ok(Math.abs(row!.seconds - 14 * 86_400) < 60, `${row!.seconds} s`);
    });
  });
});
