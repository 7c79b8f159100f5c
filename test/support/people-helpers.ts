import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SignInLinksService } from '../../src/modules/people/application/sign-in-links.service.js';
import { UsersService } from '../../src/modules/people/application/users.service.js';
import type { Requester } from './automation-helpers.js';
import { eventually } from './automation-helpers.js';
import { operatorToken } from './scenario.js';
import type { SmtpSink, SunkMail } from './smtp-sink.js';
import type { InjectResult, TestApp } from './test-app.js';

export const ROLES = ['viewer', 'agent', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** A signed-in person: their session cookie and the CSRF token the dashboard would send. */
export interface Session {
  email: string;
  userId: number;
  role: Role;
  cookie: string;
  csrf: string;
}

export interface PeopleOrganization {
  id: number;
  adminToken: string;
  owner: Session;
}

export const uniqueEmail = (who = 'person') => `${who}-${randomBytes(4).toString('hex')}@example.com`;

/** The sign-in link path (`/auth/link/sil_...`) of the newest mail to `email` with a link not yet in `seen`. */
export async function linkMailedTo(sink: SmtpSink, email: string, seen: Set<string> = new Set()): Promise<string> {
  return eventually(`a sign-in link mailed to ${email}`, async () => {
    const links = sink.mails.filter((mail: SunkMail) => mail.to.includes(email)).map((mail) => /\/auth\/link\/sil_[A-Za-z0-9_-]+/.exec(mail.parsed.text ?? '')?.[0]);
    return links.reverse().find((link): link is string => link !== undefined && !seen.has(link));
  });
}

/** Opens the link and presses its button, as a browser on the service's own page: the session cookie set. */
export async function signInWith(r: Requester, link: string, origin: string): Promise<{ response: InjectResult; cookie: string | undefined }> {
  const response = await r.request('POST', link, { headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, rawBody: '' });
  const setCookie = [response.headers['set-cookie']].flat().find((value) => typeof value === 'string' && /^(__Host-)?cis_session=/.test(value));
  return { response, cookie: (setCookie as string | undefined)?.split(';')[0] };
}

/** Signs in with the newest link mailed to `email` and asks who that is. */
export async function sessionFromMail(r: Requester, sink: SmtpSink, email: string, origin: string): Promise<Session> {
  const { response, cookie } = await signInWith(r, await linkMailedTo(sink, email), origin);
  assert.equal(response.status, 303, response.text);
  assert.ok(cookie, 'the sign-in set the session cookie');
  const me = await r.request('GET', '/api/admin/v1/me', { headers: { cookie } });
  assert.equal(me.status, 200, me.text);
  return { email, userId: me.body.caller.id, role: me.body.role, cookie, csrf: me.body.csrf_token };
}

/** A request of a signed-in person from the dashboard: the cookie, and the service's own Origin. */
export function asSession(r: Requester, session: Session, origin: string, method: string, url: string, body?: unknown): Promise<InjectResult> {
  return r.request(method, url, { body, headers: { cookie: session.cookie, origin } });
}

/** A new organization whose owner (invited through `owner_email`) has signed in. */
export async function givenOwnedOrganization(r: Requester, sink: SmtpSink, origin: string): Promise<PeopleOrganization> {
  const email = uniqueEmail('owner');
  const created = await r.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name: `Org ${randomBytes(3).toString('hex')}`, owner_email: email } });
  assert.equal(created.status, 201, created.text);
  return { id: created.body.organization.id, adminToken: created.body.admin_token, owner: await sessionFromMail(r, sink, email, origin) };
}

/** A user of `role` invited by the organization's owner, signed in with the invitation's link. */
export async function givenMember(r: Requester, sink: SmtpSink, org: PeopleOrganization, role: Role, origin: string): Promise<Session> {
  const email = uniqueEmail(role);
  const invited = await asSession(r, org.owner, origin, 'POST', '/api/admin/v1/users', { email, role });
  assert.equal(invited.status, 201, invited.text);
  return sessionFromMail(r, sink, email, origin);
}

/**
 * An owner of an existing organization (one made without `owner_email`), signed in: invited as
 * the operator would be, with a link issued by the service as its worker does for a mail.
 */
export function givenOwner(t: TestApp, organizationId: number): Promise<Session> {
  return givenPerson(t, organizationId, 'owner');
}

/** A person of `role` in an existing organization, signed in (as givenOwner). */
export async function givenPerson(t: TestApp, organizationId: number, role: Role, email = uniqueEmail(role)): Promise<Session> {
  const user = await t.app.get(UsersService).invite({ actor: { type: 'operator', id: 'operator', name: 'operator' }, address: null }, organizationId, email, role);
  const link = await t.app.get(SignInLinksService).issue({ organizationId, id: user.id }, 'invitation');
  const origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
  const { response, cookie } = await signInWith(t, new URL(link).pathname, origin);
  assert.equal(response.status, 303, response.text);
  assert.ok(cookie, 'the sign-in set the session cookie');
  const me = await t.request('GET', '/api/admin/v1/me', { headers: { cookie } });
  assert.equal(me.status, 200, me.text);
  return { email, userId: me.body.caller.id, role: me.body.role, cookie, csrf: me.body.csrf_token };
}

/** A request of `session` from the service's own dashboard (its PUBLIC_BASE_URL's origin). */
export function fromDashboard(t: TestApp, session: Session, method: string, url: string, body?: unknown): Promise<InjectResult> {
  return asSession(t, session, new URL(t.env.PUBLIC_BASE_URL!).origin, method, url, body);
}
