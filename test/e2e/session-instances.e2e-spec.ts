/**
 * A person's deletion or change of role acts on their next request on every instance: two
 * instances on one database and one Redis, each with the session and its user in its cache. A
 * runs in this process (where people sign in and owners make changes), B is a process of its own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { asSession, givenMember, givenOwnedOrganization, type PeopleOrganization, type Session } from '../support/people-helpers.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** Generous: B hears of a change at its next poll of cache_generation (docs/security.md promises 1 s); this only bounds a failing test. */
const GIVE_UP_MS = 5_000;

describe('sessions across instances', () => {
  let database: IsolatedDatabase;
  let sink: SmtpSink;
  let a: TestApp;
  let b: ServiceProcess;
  let aOrigin: string;
  let org: PeopleOrganization;

  before(async () => {
    database = await isolatedDatabase();
    sink = await startSmtpSink();
    // One public address for both, as behind one load balancer: the origin their sessions' requests come from.
    aOrigin = 'https://cis.example';
    const env = { DATABASE_URL: database.url, REDIS_PREFIX: isolatedRedisPrefix(), SMTP_RELAY_URL: sink.url, PUBLIC_BASE_URL: aOrigin };
    a = await startTestApp({ env });
    b = await spawnService('api', env);
    org = await givenOwnedOrganization(a, sink, aOrigin);
  });
  after(async () => {
    await a?.close();
    await b?.kill();
    await sink?.close();
    await database?.drop();
  });

  /** The member's status on B for a route editors may read (workflows). */
  const statusOnB = async (member: Session) => (await b.request('GET', '/api/admin/v1/workflows', { headers: { cookie: member.cookie } })).status;

  it('a user deleted on A is refused (401) on B at their next request after B\'s poll', async () => {
    const member = await givenMember(a, sink, org, 'editor', aOrigin);
    assert.equal(await statusOnB(member), 200, 'B serves the session (and caches it)');
    assert.equal(await statusOnB(member), 200);
    assert.equal((await asSession(a, org.owner, aOrigin, 'DELETE', `/api/admin/v1/users/${member.userId}`)).status, 204);
    await eventually('B to refuse the deleted user', async () => ((await statusOnB(member)) === 401 ? true : undefined), { timeoutMs: GIVE_UP_MS });
  });

  it('a role lowered on A is enforced (403) on B, and raised again, allowed again', async () => {
    const member = await givenMember(a, sink, org, 'editor', aOrigin);
    assert.equal(await statusOnB(member), 200);
    const change = (role: string) => asSession(a, org.owner, aOrigin, 'PATCH', `/api/admin/v1/users/${member.userId}`, { role });
    assert.equal((await change('viewer')).status, 200);
    await eventually('B to refuse the viewer', async () => ((await statusOnB(member)) === 403 ? true : undefined), { timeoutMs: GIVE_UP_MS });
    assert.equal((await change('editor')).status, 200);
    await eventually('B to let the editor in again', async () => ((await statusOnB(member)) === 200 ? true : undefined), { timeoutMs: GIVE_UP_MS });
  });

  it('a session signed out on A is refused on B', async () => {
    const member = await givenMember(a, sink, org, 'viewer', aOrigin);
    assert.equal((await b.request('GET', '/api/admin/v1/me', { headers: { cookie: member.cookie } })).status, 200);
    assert.equal((await a.request('POST', '/auth/sign_out', { headers: { cookie: member.cookie, origin: aOrigin } })).status, 204);
    await eventually('B to refuse the ended session', async () => ((await b.request('GET', '/api/admin/v1/me', { headers: { cookie: member.cookie } })).status === 401 ? true : undefined), { timeoutMs: GIVE_UP_MS });
  });
});
