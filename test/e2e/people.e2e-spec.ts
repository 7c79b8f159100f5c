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
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix() }, captureLogs: true });
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

    /** Sign-in links issued to these users: the worker issues one as it mails it. */
    const issued = async (...userIds: number[]) => ((await db().query('SELECT count(*)::int AS n FROM sign_in_links WHERE user_id = ANY($1::bigint[])', [userIds])).rows as { n: number }[])[0]!.n;
    /** Links are issued after the answer (its timing says nothing about the address): waits for `count`, then gives stragglers a moment. */
    const settled = async (count: number, ...userIds: number[]) => {
      await eventually('the links issued', async () => ((await issued(...userIds)) >= count ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 300));
      return issued(...userIds);
    };
    const ask = async (email: string, remoteAddress: string) => assert.equal((await t.request('POST', '/auth/email', { body: { email }, remoteAddress })).status, 202);
    const linksSeen = () => new Set(sink.mails.map((mail) => /\/auth\/link\/sil_[A-Za-z0-9_-]+/.exec(mail.parsed.text ?? '')?.[0] ?? ''));

    it('a stranger on many networks cannot keep a person from a link: from a network that signed them in it is mailed at once; the stranger\'s requests wait for the person\'s backoff, logged without the address', async () => {
      // The member signed in with their invitation from 127.0.0.1: that network is known to them.
      const member = await givenMember(t, sink, org, 'viewer', origin);
      // A stranger: 20 networks (IPv6 /64s and IPv4 addresses), 3 requests from each.
      for (let network = 0; network < 20; network++) {
        for (let i = 0; i < 3; i++) await ask(member.email, network % 2 ? `2001:db8:5:${network}::${i + 1}` : `198.51.100.${network * 3 + i + 1}`);
      }
      // The invitation, then the first request's link; the backoff holds the others (the next one after a minute).
      assert.equal(await settled(2, member.userId), 2);
      // The person asks from their own network: mailed at once, whatever the stranger spent.
      const seen = linksSeen();
      await ask(member.email, '127.0.0.1');
      assert.equal((await signInWith(t, await linkMailedTo(sink, member.email, seen), origin)).response.status, 303);
      // From a known network, at most 5 in the window: someone sharing it cannot flood the inbox either.
      for (let i = 0; i < 7; i++) await ask(member.email, '127.0.0.1');
      assert.equal(await settled(7, member.userId), 7, 'the invitation, the stranger\'s one, and 5 from the known network');
      const heldBack = t.logs.filter((line) => line.includes('sign-in link request held back') && line.includes(`"userId":${member.userId}`));
      assert.ok(heldBack.some((line) => line.includes('"reason":"backoff"')) && heldBack.some((line) => line.includes('"reason":"known_network_limit"')), heldBack.join(''));
      assert.ok(!t.logs.some((line) => line.includes(member.email)), 'no log line holds the address');
    });

    it('strangers asking for links for 4 of an organization\'s people do not keep a 5th from one, even from a network new to them', async () => {
      const staffed = await givenOwnedOrganization(t, sink, origin);
      const staff = [];
      for (let i = 0; i < 5; i++) staff.push(await givenMember(t, sink, staffed, 'viewer', origin));
      const targets = staff.slice(0, 4);
      for (const person of targets) for (let network = 0; network < 20; network++) await ask(person.email, `2001:db8:6:${network}::1`);
      const ids = targets.map((person) => person.userId);
      // Each invitation, and the first request for each.
      assert.equal(await settled(8, ...ids), 8);
      const seen = linksSeen();
      await ask(staff[4]!.email, '203.0.113.9');
      assert.equal((await signInWith(t, await linkMailedTo(sink, staff[4]!.email, seen), origin)).response.status, 303);
    });

    it('twenty failed sign-ins with one link are one audit entry counting them', async () => {
      const email = uniqueEmail('replayed');
      const invited = await asSession(t, org.owner, origin, 'POST', USERS, { email, role: 'viewer' });
      const link = await linkMailedTo(sink, email);
      assert.equal((await signInWith(t, link, origin)).response.status, 303);
      for (let i = 0; i < 20; i++) assert.equal((await signInWith(t, link, origin)).response.status, 404);
      const { rows } = await db().query(`SELECT summary FROM audit_entries WHERE organization_id = $1 AND action = 'session.sign_in_failed' AND target_id = $2`, [org.id, String(invited.body.user.id)]);
      assert.deepEqual(rows.map((row: { summary: unknown }) => row.summary), [{ method: 'email_link', reason: 'used', count: 20 }]);
    });

    it('an organization invites at most MAX_INVITATIONS_PER_DAY people a day (429) and holds at most MAX_USERS_PER_ORGANIZATION users (422)', async () => {
      const busy = await givenOwnedOrganization(t, sink, origin);
      const invite = (as: PeopleOrganization) => asSession(t, as.owner, origin, 'POST', USERS, { email: uniqueEmail('many'), role: 'viewer' });
      // The owner's own invitation (owner_email) was the day's first.
      for (let i = 1; i < 100; i++) assert.equal((await invite(busy)).status, 201);
      const refused = await invite(busy);
      assertJsonError(refused, 429);
      assert.ok(Number(refused.headers['retry-after']) > 86_000, String(refused.headers['retry-after']));
      assert.equal((await invite(org)).status, 201, 'another organization invites as before');

      const large = await givenOwnedOrganization(t, sink, origin);
      await db().query(`INSERT INTO users (organization_id, email, role, status) SELECT $1, 'user-' || n || '@example.com', 'viewer', 'invited' FROM generate_series(1, 998) n`, [large.id]);
      assert.equal((await invite(large)).status, 201, 'the 1,000th user');
      const full = await invite(large);
      assertJsonError(full, 422, ['cap', 'limit']);
      assert.deepEqual([full.body.cap, full.body.limit], ['MAX_USERS_PER_ORGANIZATION', 1000]);
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
