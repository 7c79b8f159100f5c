/**
 * Single sign-on with OpenID Connect (people.md, section 2), end to end: the service, through the
 * real HTTP stack, Postgres and Redis, against a real OpenID provider (oidc-provider) started
 * here on 127.0.0.1, with a browser's trip driven by plain HTTP.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SignInRequestLimits } from '../../src/modules/people/application/sign-in-request-limits.js';
import { SsoSignInService } from '../../src/modules/people/application/sso-sign-in.service.js';
import type { Env } from '../../src/shared/config/env.js';
import { RateLimitedError } from '../../src/shared/errors/app-error.js';
import { REDIS_CLIENT } from '../../src/shared/redis/redis.client.js';
import { eventually, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { assertJsonError } from '../support/foundation-assertions.js';
import { type DnsTestServer, startDnsTestServer } from '../support/dns-test-server.js';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider, throughProvider } from '../support/oidc-test-provider.js';
import { asSession, givenMember, givenOwnedOrganization, linkMailedTo, type PeopleOrganization, signInWith } from '../support/people-helpers.js';
import { operatorToken } from '../support/scenario.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { db, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

const SSO = '/api/admin/v1/sso';

describe('single sign-on', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let idp: TestProvider;
  let dns: DnsTestServer;
  let origin: string;
  let org: PeopleOrganization;
  const domain = `acme-${randomBytes(3).toString('hex')}.test`;

  /** A person the provider knows, signing in next; answers their address. */
  const person = (who: string, claims: { email_verified?: boolean; domain?: string } = {}) => {
    const email = `${who}-${randomBytes(3).toString('hex')}@${claims.domain ?? domain}`;
    const id = `account-${randomBytes(4).toString('hex')}`;
    idp.accounts.set(id, { email, email_verified: claims.email_verified ?? true });
    idp.signInAs = id;
    return email;
  };

  const setting = (changes: Record<string, unknown> = {}) => ({
    issuer: idp.issuer, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, email_domains: [domain], default_role: 'viewer', required: false, ...changes,
  });
  const put = (body: unknown, as = org) => asSession(t, as.owner, origin, 'PUT', SSO, body);
  const verify = (as = org) => asSession(t, as.owner, origin, 'POST', `${SSO}/verify_domains`);
  type DomainVerification = { domain: string; verified: boolean; record_name: string; record_value: string };
  const verifications = async (as = org): Promise<DomainVerification[]> => (await asSession(t, as.owner, origin, 'GET', SSO, undefined)).body.sso.domain_verifications;

  /** Publishes the TXT records the organization's setting asks for these domains, and has them verified. */
  async function proveDomains(domains: string[], as = org): Promise<void> {
    for (const v of await verifications(as)) if (domains.includes(v.domain)) dns.txt.set(v.record_name, [['v=spf1 -all'], [v.record_value]]);
    const res = await verify(as);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.sso.domain_verifications.filter((v: DomainVerification) => v.verified).map((v: DomainVerification) => v.domain).sort(), [...domains].sort());
  }

  /** The start page's button: a post from the service's own page (or `from` another origin). */
  const begin = (organizationId = org.id, options: { remoteAddress?: string; from?: string } = {}) =>
    t.request('POST', `/auth/sso?organization=${organizationId}`, { headers: { origin: options.from ?? origin, 'content-type': 'application/x-www-form-urlencoded' }, rawBody: '', remoteAddress: options.remoteAddress });
  /** Where the start page's button posts, undefined for a page without one. */
  const startAction = (page: InjectResult) => /<form method="post" action="([^"]+)">/.exec(page.text)?.[1]?.replace(/&amp;/g, '&');

  /** Starts at `/auth/sso?...`, presses the start page's button, goes through the provider, and answers the callback's path with the pending sign-in's cookie. */
  async function toCallback(query = `organization=${org.id}`): Promise<{ path: string; cookie: string }> {
    const page = await t.request('GET', `/auth/sso?${query}`);
    assert.equal(page.status, 200, page.text);
    const action = startAction(page);
    assert.ok(action, page.text);
    const start = await t.request('POST', action, { headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, rawBody: '' });
    assert.equal(start.status, 303, start.text);
    const cookie = String([start.headers['set-cookie']].flat().find((c) => String(c).startsWith('cis_sso='))).split(';')[0]!;
    return { path: await throughProvider(String(start.headers.location), t.env.PUBLIC_BASE_URL!), cookie };
  }

  /** Every code and state the provider sent back, which no log line or audit entry may hold. */
  const returned: string[] = [];
  const callback = (trip: { path: string; cookie: string }) => {
    const query = new URL(trip.path, 'http://x').searchParams;
    returned.push(...['code', 'state'].map((name) => query.get(name)).filter((value): value is string => value !== null));
    return t.request('GET', trip.path, { headers: { cookie: trip.cookie } });
  };
  const sessionOf = (res: InjectResult) => [res.headers['set-cookie']].flat().map(String).find((c) => c.startsWith('cis_session=') && !c.startsWith('cis_session=;'))?.split(';')[0];
  const usersWith = async (email: string) => (await db().query('SELECT role, status FROM users WHERE organization_id = $1 AND lower(email) = lower($2)', [org.id, email])).rows as { role: string; status: string }[];
  const lastEntry = async (action: string) => (await db().query('SELECT actor_id, actor_name, target_type, summary FROM audit_entries WHERE organization_id = $1 AND action = $2 ORDER BY id DESC LIMIT 1', [org.id, action])).rows[0] as { actor_id: string; actor_name: string; target_type: string; summary: Record<string, unknown> } | undefined;

  /** A sign-in that must fail with `status`, audited with `reason`, setting no session. */
  async function refused(trip: { path: string; cookie: string }, status: number, reason: string, what = reason): Promise<void> {
    const res = await callback(trip);
    assert.equal(res.status, status, what);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(sessionOf(res), undefined, 'no session');
    assert.deepEqual((await lastEntry('session.sign_in_failed'))?.summary.reason, reason);
  }

  before(async () => {
    sink = await startSmtpSink();
    dns = await startDnsTestServer();
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix(), DNS_SERVERS: dns.server }, captureLogs: true });
    origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    idp = await startTestProvider(`${t.env.PUBLIC_BASE_URL}/auth/sso/callback`);
    org = await givenOwnedOrganization(t, sink, origin);
  });
  after(async () => {
    await t?.close();
    await idp?.close();
    await sink?.close();
    await dns?.close();
  });

  describe('the owner\'s setting', () => {
    it('GET is 404 until set; PUT answers the setting without the secret, stores the secret sealed, and audits which fields changed', async () => {
      assertJsonError(await asSession(t, org.owner, origin, 'GET', SSO), 404);
      const res = await put(setting({ email_domains: [domain, `b-${domain}`] }));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body.sso).sort(), ['client_id', 'created_at', 'default_role', 'domain_verifications', 'email_domains', 'issuer', 'required', 'updated_at']);
      assert.deepEqual(res.body.sso.email_domains, [domain, `b-${domain}`].sort());
      assert.deepEqual(res.body.sso.domain_verifications.map((v: DomainVerification) => [v.domain, v.verified, v.record_name]), [domain, `b-${domain}`].sort().map((d) => [d, false, `_case-intake.${d}`]));
      assert.match(res.body.sso.domain_verifications[0].record_value, /^case-intake-domain-verification=[0-9a-f]{32}$/);
      const got = await asSession(t, org.owner, origin, 'GET', SSO);
      assert.deepEqual(got.body, res.body);
      assert.ok(!got.text.includes(CLIENT_SECRET), 'GET never shows the secret');
      const [row] = (await db().query('SELECT client_secret_ciphertext FROM sso_configurations WHERE organization_id = $1', [org.id])).rows as { client_secret_ciphertext: string }[];
      assert.match(row!.client_secret_ciphertext, /^v2\./);
      assert.ok(!row!.client_secret_ciphertext.includes(CLIENT_SECRET));
      const first = await lastEntry('sso.configured');
      assert.equal(first?.summary.client_secret_changed, true);
      assert.deepEqual(Object.keys(first!.summary.changed as object).sort(), ['client_id', 'default_role', 'email_domains', 'issuer', 'required']);

      assert.equal((await put(setting())).status, 200);
      const second = await lastEntry('sso.configured');
      assert.deepEqual(second?.summary, { changed: { email_domains: { from: [domain, `b-${domain}`].sort(), to: [domain] } }, client_secret_changed: false });
      const { rows } = await db().query(`SELECT row_to_json(a)::text AS json FROM audit_entries a WHERE organization_id = $1`, [org.id]);
      assert.ok(!rows.some((r: { json: string }) => r.json.includes(CLIENT_SECRET)), 'no entry holds the secret');
    });

    it('refuses bad settings with 422 and stores nothing', async () => {
      const bad = [
        { issuer: 'http://idp.example' }, { issuer: 'https://idp.example/?tenant=1' }, { issuer: 'not a url' }, { issuer: 'ftp://idp.example' },
        { email_domains: ['Acme.com'] }, { email_domains: [] }, { email_domains: ['user@acme.com'] }, { email_domains: Array.from({ length: 51 }, (_, i) => `d${i}.example`) },
        { default_role: 'owner' }, { default_role: 'root' }, { required: 'yes' }, { client_secret: '' }, { client_id: '' }, { extra: 1 },
      ];
      const before = await asSession(t, org.owner, origin, 'GET', SSO);
      for (const change of bad) assertJsonError(await put(setting(change)), 422, ['validation_errors']);
      const missing = setting();
      delete (missing as Record<string, unknown>).client_secret;
      assertJsonError(await put(missing), 422, ['validation_errors']);
      assert.deepEqual((await asSession(t, org.owner, origin, 'GET', SSO)).body, before.body);
    });

    it('DELETE removes it (204, audited), then 404; an admin token may not touch it (403)', async () => {
      const other = await givenOwnedOrganization(t, sink, origin);
      assert.equal((await put(setting(), other)).status, 200);
      assertJsonError(await t.request('GET', SSO, { token: other.adminToken }), 403);
      assert.equal((await asSession(t, other.owner, origin, 'DELETE', SSO)).status, 204);
      assertJsonError(await asSession(t, other.owner, origin, 'DELETE', SSO), 404);
      assertJsonError(await asSession(t, other.owner, origin, 'GET', SSO), 404);
      const { rows } = await db().query(`SELECT count(*)::int AS n FROM audit_entries WHERE organization_id = $1 AND action = 'sso.deleted'`, [other.id]);
      assert.equal(rows[0].n, 1);
      assert.equal((await t.request('GET', `/auth/sso?organization=${other.id}`)).status, 404, 'no single sign-on: a page saying so');
    });
  });

  it('a setting changed on one instance acts on another within 1 s, also after it cached the old one', async () => {
    const other = await givenOwnedOrganization(t, sink, origin);
    assert.equal((await put(setting(), other)).status, 200);
    const b = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix() } });
    try {
      assert.equal((await b.request('GET', `/auth/sso?organization=${other.id}`)).status, 200, 'B knows the setting');
      assert.equal((await asSession(t, other.owner, origin, 'DELETE', SSO)).status, 204);
      const since = Date.now();
      await eventually('B to drop the deleted setting', async () => ((await b.request('GET', `/auth/sso?organization=${other.id}`)).status === 404 ? true : undefined), { timeoutMs: 1_500 });
      assert.ok(Date.now() - since < 1_500);
    } finally {
      await b.close();
    }
  });

  describe('signing in', () => {
    before(async () => {
      assert.equal((await put(setting())).status, 200);
    });

    it('a verified address of a listed domain with no user becomes one with default_role, signed in; the flow uses PKCE S256, state and nonce', async () => {
      const email = person('new');
      const start = await begin();
      const authorization = new URL(String(start.headers.location));
      assert.equal(authorization.origin, idp.issuer);
      for (const name of ['state', 'nonce', 'code_challenge']) assert.ok((authorization.searchParams.get(name) ?? '').length >= 43, name);
      assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorization.searchParams.get('redirect_uri'), `${t.env.PUBLIC_BASE_URL}/auth/sso/callback`);
      assert.equal(authorization.searchParams.get('scope'), 'openid email');
      const pending = String([start.headers['set-cookie']].flat()[0]);
      assert.match(pending, /^cis_sso=[A-Za-z0-9_-]{43}; Path=\/auth\/sso; HttpOnly; SameSite=Lax; Max-Age=600$/);

      const trip = { path: await throughProvider(String(start.headers.location), t.env.PUBLIC_BASE_URL!), cookie: pending.split(';')[0]! };
      const res = await callback(trip);
      assert.equal(res.status, 303, res.text);
      assert.equal(res.headers.location, '/dashboard/');
      const cookie = sessionOf(res);
      assert.ok(cookie, 'the session cookie is set');
      const me = await t.request('GET', '/api/admin/v1/me', { headers: { cookie } });
      assert.equal(me.status, 200, me.text);
      assert.deepEqual([me.body.caller.type, me.body.caller.name, me.body.role, me.body.organization.id], ['user', email, 'viewer', org.id]);
      assert.deepEqual(await usersWith(email), [{ role: 'viewer', status: 'active' }]);
      assert.deepEqual((await lastEntry('user.created'))?.summary, { email, role: 'viewer', via: 'sso' });
      const signedIn = await lastEntry('session.signed_in');
      assert.deepEqual([signedIn?.actor_name, signedIn?.summary], [email, { method: 'sso' }]);

      // The same callback again: the pending sign-in was used up.
      const replay = await callback(trip);
      assert.equal(replay.status, 400);
      assert.equal(sessionOf(replay), undefined);
    });

    it('over HTTPS at the root the pending sign-in cookie is __Host-cis_sso (Secure, Path=/), which no neighbouring host can plant', async () => {
      const base = 'https://cases.example';
      const secure = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix(), PUBLIC_BASE_URL: base } });
      try {
        const start = await secure.request('POST', `/auth/sso?organization=${org.id}`, { headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' }, rawBody: '' });
        assert.equal(start.status, 303, start.text);
        assert.match(String([start.headers['set-cookie']].flat()[0]), /^__Host-cis_sso=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600; Secure$/);
        const back = await secure.request('GET', '/auth/sso/callback?state=x&code=y');
        assert.match(String([back.headers['set-cookie']].flat()[0]), /^__Host-cis_sso=; Path=\/; .*Max-Age=0; Secure$/, 'the callback removes it by that name');
      } finally {
        await secure.close();
      }
    });

    it('GET /auth/sso?organization= only shows a page naming the organization and the provider\'s host; its button\'s post begins the sign-in, and a post from another origin is refused', async () => {
      const name = `Acme <b>"R&D"</b> ${org.id}`;
      await db().query('UPDATE organizations SET name = $1 WHERE id = $2', [name, org.id]);
      const page = await t.request('GET', `/auth/sso?organization=${org.id}`);
      assert.equal(page.status, 200, 'a page, not a redirect to the provider');
      assert.equal(page.headers.location, undefined);
      assert.equal(page.headers['set-cookie'], undefined, 'nothing begun: no pending sign-in');
      assert.match(String(page.headers['content-type']), /^text\/html/);
      const host = new URL(idp.issuer).host;
      assert.ok(page.text.includes(`Acme &lt;b&gt;&quot;R&amp;D&quot;&lt;/b&gt; ${org.id} signs its people in`) && page.text.includes(host), page.text);
      assert.ok(!page.text.includes('<b>"R&D"'), 'the name is escaped');
      assert.equal(startAction(page), `/auth/sso?organization=${org.id}`);
      assert.match(String(page.headers['content-security-policy']), new RegExp(`form-action 'self' ${idp.issuer.replace(/[.]/g, '\\.')};`), 'its post may go on to the provider, nowhere else');
      for (const from of ['https://elsewhere.example', 'null']) {
        const refusedStart = await begin(org.id, { from });
        assert.equal(refusedStart.status, 403, from);
        assert.match(refusedStart.text, /did not start from this service's own page/);
        assert.equal(refusedStart.headers.location, undefined);
        assert.equal(refusedStart.headers['set-cookie'], undefined);
      }
      const started = await begin();
      assert.equal(started.status, 303, started.text);
      assert.equal(new URL(String(started.headers.location)).origin, idp.issuer);
      assert.equal((await t.request('POST', '/auth/sso?organization=abc', { headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, rawBody: '' })).status, 404);
    });

    it('an invited user signs in with their role and becomes active', async () => {
      const email = person('invited');
      assert.equal((await asSession(t, org.owner, origin, 'POST', '/api/admin/v1/users', { email: email.toUpperCase(), role: 'editor' })).status, 201);
      const res = await callback(await toCallback());
      assert.equal(res.status, 303, res.text);
      const me = await t.request('GET', '/api/admin/v1/me', { headers: { cookie: sessionOf(res)! } });
      assert.equal(me.body.role, 'editor');
      assert.deepEqual(await usersWith(email), [{ role: 'editor', status: 'active' }]);
    });

    it('an address typed on the sign-in page leads to the organization that verified its domain, a chooser for several, a page for none', async () => {
      person('typed');
      const typed = (address: string) => t.request('GET', `/auth/sso?email=${encodeURIComponent(address)}`);
      const unproven = await typed(`someone@${domain}`);
      assert.equal(unproven.status, 200, 'a listed domain not verified sends nobody to the provider');
      assert.match(unproven.text, /No single sign-on is set up for that email domain/);
      await proveDomains([domain]);
      const res = await callback(await toCallback(`email=${encodeURIComponent(`someone@${domain.toUpperCase()}`)}`));
      assert.equal(res.status, 303, res.text);
      const none = await typed('someone@nowhere.example');
      assert.equal(none.status, 200);
      assert.match(none.text, /No single sign-on is set up for that email domain/);
      assert.match(none.text, /href="\/dashboard\/"/);
      assert.equal((await t.request('GET', '/auth/sso')).status, 422, 'neither an organization nor an address');
      assert.equal((await t.request('GET', '/auth/sso?organization=abc')).status, 404);
      const shared = `shared-${domain}`;
      const second = await givenOwnedOrganization(t, sink, origin);
      assert.equal((await put(setting({ email_domains: [domain, shared] }))).status, 200);
      assert.equal((await put(setting({ email_domains: [shared] }), second)).status, 200);
      await proveDomains([domain, shared]);
      assert.equal(startAction(await typed(`a@${shared}`)), `/auth/sso?organization=${org.id}`, 'one organization proved it: its start page');
      await proveDomains([shared], second);
      const chooser = await typed(`a@${shared}`);
      assert.equal(chooser.status, 200);
      assert.ok(chooser.text.includes(`href="/auth/sso?organization=${org.id}"`) && chooser.text.includes(`href="/auth/sso?organization=${second.id}"`), chooser.text);
      const [secondName] = (await db().query('SELECT name FROM organizations WHERE id = $1', [second.id])).rows.map((row: { name: string }) => row.name);
      assert.ok(chooser.text.includes(`>${secondName}, at `), 'each organization by its name');
      assert.equal((await put(setting())).status, 200);
    });

    it('verifies a domain only by its own TXT record: another organization\'s value, a missing record, or a domain removed and listed again prove nothing', async () => {
      const other = await givenOwnedOrganization(t, sink, origin);
      assertJsonError(await verify(other), 404);
      const claimed = `claimed-${domain}`;
      assert.equal((await put(setting({ email_domains: [claimed] }), other)).status, 200);
      assert.equal((await put(setting({ email_domains: [domain, claimed] }))).status, 200);
      const ours = (await verifications()).find((v) => v.domain === claimed)!;
      const theirs = (await verifications(other))[0]!;
      assert.equal(ours.record_name, theirs.record_name);
      assert.notEqual(ours.record_value, theirs.record_value, 'each organization has its own value');

      dns.txt.set(ours.record_name, [[ours.record_value]]);
      const refused = await verify(other);
      assert.equal(refused.status, 200, refused.text);
      assert.deepEqual(refused.body.sso.domain_verifications.map((v: DomainVerification) => v.verified), [false], 'the record names another organization');
      const { rows } = await db().query(`SELECT count(*)::int AS n FROM audit_entries WHERE organization_id = $1 AND action = 'sso.domains_verified'`, [other.id]);
      assert.equal(rows[0].n, 0, 'nothing proven, nothing audited');

      // A long value arrives as several strings of one record; joined, they prove the domain.
      dns.txt.set(ours.record_name, [[ours.record_value.slice(0, 20), ours.record_value.slice(20)]]);
      const proven = await verify();
      assert.equal(proven.body.sso.domain_verifications.find((v: DomainVerification) => v.domain === claimed)?.verified, true, proven.text);
      assert.deepEqual((await lastEntry('sso.domains_verified'))?.summary, { domains: [claimed] });
      assert.equal(startAction(await t.request('GET', `/auth/sso?email=a%40${claimed}`)), `/auth/sso?organization=${org.id}`, 'a typed address now leads to the start page');

      dns.txt.delete(ours.record_name);
      assert.equal((await put(setting({ email_domains: [domain] }))).status, 200);
      assert.equal((await put(setting({ email_domains: [domain, claimed] }))).status, 200);
      const again = await verify();
      assert.equal(again.body.sso.domain_verifications.find((v: DomainVerification) => v.domain === claimed)?.verified, false, 'removed and listed again: unverified until its record proves it again');
      assert.match((await t.request('GET', `/auth/sso?email=a%40${claimed}`)).text, /No single sign-on is set up for that email domain/);
      assert.equal((await put(setting())).status, 200);
    });

    it('a proof whose TXT record was taken down lapses at the worker\'s scheduled check, audited; a record still there keeps its proof', async () => {
      const other = await givenOwnedOrganization(t, sink, origin);
      const lapsing = `lapsing-${domain}`;
      assert.equal((await put(setting({ email_domains: [lapsing] }), other)).status, 200);
      await proveDomains([lapsing], other);
      assert.equal((await verifications()).find((v) => v.domain === domain)?.verified, true, 'this organization\'s domain is proven, its record in place');
      dns.txt.delete((await verifications(other))[0]!.record_name);
      // A worker whose schedule runs every second (the default is daily).
      const checker = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix(), DNS_SERVERS: dns.server, SSO_DOMAIN_CHECK_INTERVAL_MS: '1000' } });
      try {
        await eventually('the lapsed proof to be found', async () => ((await verifications(other))[0]!.verified ? undefined : true), { timeoutMs: 15_000 });
      } finally {
        await checker.close();
      }
      const { rows } = await db().query(`SELECT actor_type, actor_id, summary FROM audit_entries WHERE organization_id = $1 AND action = 'sso.domains_lapsed'`, [other.id]);
      assert.deepEqual(rows, [{ actor_type: 'operator', actor_id: 'domain-check', summary: { domains: [lapsing] } }]);
      assert.match((await t.request('GET', `/auth/sso?email=a%40${lapsing}`)).text, /No single sign-on is set up for that email domain/, 'a typed address leads nowhere now');
      assert.equal((await verifications()).find((v) => v.domain === domain)?.verified, true, 'a record still there keeps its proof');
    });

    it('an unverified address, or one outside the listed domains, signs in nobody and creates no user (403)', async () => {
      const unverified = person('unverified', { email_verified: false });
      await refused(await toCallback(), 403, 'email_not_verified');
      const outside = person('outside', { domain: 'elsewhere.example' });
      await refused(await toCallback(), 403, 'email_domain_not_listed');
      assert.deepEqual([...(await usersWith(unverified)), ...(await usersWith(outside))], []);
      assert.equal((await lastEntry('session.sign_in_failed'))?.target_type, 'sso');
    });

    it('a tampered state signs in nobody (400), and the pending sign-in is used up', async () => {
      person('state');
      const trip = await toCallback();
      const url = new URL(trip.path, 'http://x');
      url.searchParams.set('state', `${url.searchParams.get('state')}x`);
      await refused({ path: `${url.pathname}${url.search}`, cookie: trip.cookie }, 400, 'state_mismatch');
      const again = await callback(trip);
      assert.equal(again.status, 400);
      assert.equal(sessionOf(again), undefined);
    });

    it('an expired code, and a code used once already, are refused by the provider: nobody signs in (400)', async () => {
      person('late');
      idp.codeTtl = 1;
      try {
        const trip = await toCallback();
        await new Promise((resolve) => setTimeout(resolve, 2_100));
        await refused(trip, 400, 'code_rejected');
      } finally {
        idp.codeTtl = 60;
      }
      // A used code with a new pending sign-in's state and cookie: the provider refuses the code.
      const used = await toCallback();
      assert.equal((await callback(used)).status, 303);
      const fresh = await toCallback();
      const usedCode = new URL(used.path, 'http://x').searchParams.get('code')!;
      const url = new URL(fresh.path, 'http://x');
      url.searchParams.set('code', usedCode);
      await refused({ path: `${url.pathname}${url.search}`, cookie: fresh.cookie }, 400, 'code_rejected');
    });

    it('an ID token re-signed with the provider\'s key passes; with another audience, issuer, an expiry passed or another key, nobody signs in', async () => {
      const email = person('token');
      idp.tamper = { claims: {} };
      try {
        assert.equal((await callback(await toCallback())).status, 303, 'the re-signing itself is sound');
        const { privateKey: stranger } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        for (const tamper of [
          { claims: { aud: 'another-client' } },
          { claims: { aud: ['another-client'] } },
          { claims: { iss: `${idp.issuer}/other` } },
          { claims: { exp: Math.floor(Date.now() / 1000) - 3_600 } },
          { claims: { nonce: 'another-nonce' } },
          { claims: { email: `mallory@${domain}` }, key: stranger },
        ]) {
          idp.tamper = tamper;
          await refused(await toCallback(), 400, 'id_token_invalid', JSON.stringify(tamper.claims));
        }
      } finally {
        idp.tamper = undefined;
      }
      assert.deepEqual(await usersWith(`mallory@${domain}`), []);
      assert.equal((await usersWith(email)).length, 1);
    });

    it('a wrong issuer (the discovery document names another) and a provider that is down are a 502 page, audited', async () => {
      const other = await givenOwnedOrganization(t, sink, origin);
      assert.equal((await put(setting({ issuer: `${idp.issuer}/alias` }), other)).status, 200);
      const wrong = await begin(other.id);
      assert.equal(wrong.status, 502, wrong.text);
      assert.match(wrong.text, /Identity provider unavailable/);
      assert.equal(wrong.headers['set-cookie'], undefined);
      assert.equal((await put(setting({ issuer: 'http://127.0.0.1:9' }), other)).status, 200);
      assert.equal((await begin(other.id)).status, 502);
      const { rows } = await db().query(`SELECT summary FROM audit_entries WHERE organization_id = $1 AND action = 'session.sign_in_failed'`, [other.id]);
      assert.deepEqual(rows.map((r: { summary: unknown }) => r.summary), [{ method: 'sso', reason: 'provider_unreachable', count: 2 }], 'one entry counts both');
    });

    it('a provider that is down is asked once for the sign-ins begun within 30 s, each the same 502 page; a changed setting is asked at once', async () => {
      const other = await givenOwnedOrganization(t, sink, origin);
      // Down: every connection is taken, counted and closed unanswered.
      let asked = 0;
      const down = createServer((socket) => {
        asked++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
      try {
        const issuer = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
        assert.equal((await put(setting({ issuer }), other)).status, 200);
        // From an address of its own: these starts count towards no other test's limit.
        const start = async () => {
          const page = await begin(other.id, { remoteAddress: '192.0.2.77' });
          assert.equal(page.status, 502, page.text);
          assert.match(page.text, /Identity provider unavailable/);
          assert.equal(page.headers['set-cookie'], undefined);
        };
        await start();
        assert.equal(asked, 1, 'the first start asks the provider');
        await start();
        assert.equal(asked, 1, 'the second start, within the window, asks nobody');
        assert.equal((await put(setting({ issuer, default_role: 'editor' }), other)).status, 200);
        await start();
        assert.equal(asked, 2, 'a changed setting is asked at once');
      } finally {
        await new Promise((resolve) => down.close(resolve));
      }
    });

    it('with required: true, email links are refused for the organization\'s users: no link is mailed, and an issued one does not sign in', async () => {
      const email = person('required');
      assert.equal((await asSession(t, org.owner, origin, 'POST', '/api/admin/v1/users', { email, role: 'viewer' })).status, 201);
      const invitation = await linkMailedTo(sink, email);
      assert.equal((await put(setting({ required: true }))).status, 200);
      try {
        const refusedLink = await signInWith(t, invitation, origin);
        assert.equal(refusedLink.response.status, 403);
        assert.ok(refusedLink.response.text.includes(`href="/auth/sso?organization=${org.id}"`), 'the page leads to single sign-on');
        assert.equal(refusedLink.cookie, undefined);
        assert.equal((await lastEntry('session.sign_in_failed'))?.summary.reason, 'sso_required');
        const mailsBefore = sink.mails.length;
        assert.equal((await t.request('POST', '/auth/email', { body: { email } })).status, 202);
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(sink.mails.filter((mail) => mail.to.includes(email)).length, sink.mails.slice(0, mailsBefore).filter((mail) => mail.to.includes(email)).length, 'no new link mailed');
        assert.equal((await callback(await toCallback())).status, 303, 'single sign-on still signs them in');
      } finally {
        assert.equal((await put(setting())).status, 200);
      }
      assert.equal((await signInWith(t, invitation, origin)).response.status, 303, 'the link works again once SSO is not required');
    });

    it('turning required: true on ends the organization\'s email-link sessions on every instance, but not single sign-on ones nor those of the owner who turned it on', async () => {
      const member = await givenMember(t, sink, org, 'viewer', origin);
      person('kept');
      const viaSso = sessionOf(await callback(await toCallback()))!;
      const me = (app: TestApp, cookie: string) => app.request('GET', '/api/admin/v1/me', { headers: { cookie } });
      const b = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, REDIS_PREFIX: isolatedRedisPrefix() } });
      try {
        assert.equal((await me(b, member.cookie)).status, 200, 'B has the member\'s session cached');
        assert.equal((await put(setting({ required: true }))).status, 200);
        for (const app of [t, b]) await eventually('the email-link session to end', async () => ((await me(app, member.cookie)).status === 401 ? true : undefined));
        for (const app of [t, b]) {
          assert.equal((await me(app, viaSso)).status, 200, 'a single sign-on session stays');
          assert.equal((await me(app, org.owner.cookie)).status, 200, 'the owner who turned it on stays signed in');
        }
        const ended = (await lastEntry('sso.configured'))?.summary.email_link_sessions_ended;
        assert.ok(typeof ended === 'number' && ended >= 1, String(ended));
      } finally {
        await b.close();
        assert.equal((await put(setting())).status, 200);
      }
      assert.equal((await me(t, member.cookie)).status, 401, 'ended for good, not only while single sign-on is required');
    });

    it('once linked, a person is found by the provider\'s sub: a changed address stays the same user, and an address handed on to someone else signs in nobody', async () => {
      const email = person('linked');
      const account = idp.signInAs!;
      const userOf = async (res: InjectResult) => (await t.request('GET', '/api/admin/v1/me', { headers: { cookie: sessionOf(res)! } })).body.caller.id as number;
      const first = await callback(await toCallback());
      assert.equal(first.status, 303, first.text);
      const userId = await userOf(first);
      const { rows } = await db().query('SELECT sso_issuer, sso_subject FROM users WHERE organization_id = $1 AND id = $2', [org.id, userId]);
      assert.deepEqual(rows, [{ sso_issuer: idp.issuer, sso_subject: account }]);

      const renamed = `renamed-${email}`;
      idp.accounts.set(account, { email: renamed, email_verified: true });
      const again = await callback(await toCallback());
      assert.equal(again.status, 303, again.text);
      assert.equal(await userOf(again), userId, 'the same user, though the provider changed the address');
      assert.deepEqual(await usersWith(renamed), [], 'no new user');

      const successor = `account-${randomBytes(4).toString('hex')}`;
      idp.accounts.set(successor, { email, email_verified: true });
      idp.signInAs = successor;
      await refused(await toCallback(), 403, 'identity_mismatch', 'the address was handed on to another person at the provider');
    });

    it('the operator turns single sign-on off for an organization locked out by it (required, provider gone): email links work again, audited', async () => {
      assert.equal((await put(setting({ required: true, issuer: 'http://127.0.0.1:9' }))).status, 200);
      try {
        const route = `/api/operator/v1/organizations/${org.id}/sso`;
        assertJsonError(await t.request('DELETE', route, { token: org.adminToken }), 401);
        assert.equal((await t.request('DELETE', route, { token: operatorToken() })).status, 204);
        assert.deepEqual(await lastEntry('sso.deleted'), { actor_id: 'operator', actor_name: 'operator', target_type: 'sso', summary: {} });
        assertJsonError(await t.request('DELETE', route, { token: operatorToken() }), 404);
        assertJsonError(await t.request('DELETE', '/api/operator/v1/organizations/999999999/sso', { token: operatorToken() }), 404);
        assertJsonError(await asSession(t, org.owner, origin, 'GET', SSO), 404);

        const seen = new Set(sink.mails.map((mail) => /\/auth\/link\/sil_[A-Za-z0-9_-]+/.exec(mail.parsed.text ?? '')?.[0] ?? ''));
        assert.equal((await t.request('POST', '/auth/email', { body: { email: org.owner.email } })).status, 202);
        const link = await linkMailedTo(sink, org.owner.email, seen);
        assert.equal((await signInWith(t, link, origin)).response.status, 303, 'the owner signs in by email link again');
      } finally {
        assert.equal((await put(setting())).status, 200);
      }
    });

    it('past 30 single sign-ons begun from one address in 15 minutes, a 429 page with Retry-After (each keeps state in Redis for 10 minutes)', async () => {
      let answer: InjectResult | undefined;
      for (let i = 0; i <= 30 && answer?.status !== 429; i++) answer = await begin();
      assert.equal(answer?.status, 429);
      assert.match(answer!.text, /Too many requests/);
      assert.equal(answer!.headers['retry-after'], '900');
      assert.equal(answer!.headers['set-cookie'], undefined);
    });

    it('single sign-ons begun are counted per IPv6 /48, not per /64: a client with a whole /48 gets 30 in all', async () => {
      const signIns = t.app.get(SsoSignInService);
      for (let i = 0; i < 30; i++) await signIns.start(org.id, `2001:db8:48:${i + 1}::1`);
      await assert.rejects(signIns.start(org.id, '2001:db8:48:ffff::1'), RateLimitedError, 'another /64 of the same /48');
      await signIns.start(org.id, '2001:db8:49:1::1');
    });

    it('past SSO_PENDING_CEILING single sign-ons begun in 10 minutes from all clients together, no more are begun', async () => {
      const limits = new SignInRequestLimits(t.app.get(REDIS_CLIENT), { ...t.env, REDIS_PREFIX: isolatedRedisPrefix(), SSO_PENDING_CEILING: 3 } as Env);
      for (const address of ['192.0.2.1', '192.0.2.2', '2001:db8:50::1']) assert.equal(await limits.allowSsoStart(address), true, address);
      assert.equal(await limits.allowSsoStart('2001:db8:51::1'), false, 'a fourth client, never seen before');
    });

    it('no log line or audit entry holds a code, a state or the client secret', async () => {
      assert.ok(returned.length > 20, 'the sign-ins above ran first');
      assert.ok(t.logs.some((line) => line.includes('single sign-on failed')), 'failures are logged');
      const { rows } = await db().query(`SELECT row_to_json(a)::text AS json FROM audit_entries a`);
      const text = [...t.logs, ...rows.map((r: { json: string }) => r.json)].join('\n');
      for (const value of [...returned, CLIENT_SECRET]) assert.ok(!text.includes(value), `${value} is written somewhere`);
    });
  });
});
