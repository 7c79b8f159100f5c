/**
 * Every route of the admin API, found at runtime among the controllers the app registered, for
 * every role and for an admin token: the callers the route's declared role allows get past the
 * check (whatever the handler then answers of the made-up ids and bodies), the others get 403
 * with a JSON error. The declared roles themselves are held to the role table of people.md, so
 * a new admin route fails here until it is placed in it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { declaredCredential } from '../../src/shared/http/authenticated-requests.js';
import { roleAllows } from '../../src/shared/http/roles.js';
import { givenMember, givenOwnedOrganization, type PeopleOrganization, ROLES, type Role, type Session } from '../support/people-helpers.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The least role of each admin route (people.md, section 1); `METHOD path` as the app registers it. */
const CONTRACT: Record<string, Role> = {
  'GET /api/admin/v1/cases': 'viewer',
  'GET /api/admin/v1/cases/:caseId': 'viewer',
  'GET /api/admin/v1/cases/:caseId/attachments/:attachmentId': 'viewer',
  'GET /api/admin/v1/cases/:caseId/timeline': 'viewer',
  'GET /api/admin/v1/cases/:caseId/runs': 'viewer',
  'POST /api/admin/v1/cases/:caseId/merge': 'agent',
  'POST /api/admin/v1/cases/:caseId/links': 'agent',
  'GET /api/admin/v1/cases/:caseId/links': 'viewer',
  'DELETE /api/admin/v1/cases/:caseId/links/:linkId': 'agent',
  'GET /api/admin/v1/cases/export.csv': 'agent',
  'POST /api/admin/v1/cases/bulk': 'agent',
  'GET /api/admin/v1/jobs/:jobId': 'agent',
  'POST /api/admin/v1/views': 'agent',
  'GET /api/admin/v1/views': 'agent',
  'PATCH /api/admin/v1/views/:viewId': 'agent',
  'DELETE /api/admin/v1/views/:viewId': 'agent',
  'PATCH /api/admin/v1/cases/:caseId': 'agent',
  'POST /api/admin/v1/teams': 'admin',
  'GET /api/admin/v1/teams': 'agent',
  'PATCH /api/admin/v1/teams/:teamId': 'admin',
  'DELETE /api/admin/v1/teams/:teamId': 'admin',
  'GET /api/admin/v1/usage': 'viewer',
  'GET /api/admin/v1/reports/cases': 'viewer',
  'GET /api/admin/v1/reports/sla': 'viewer',
  'GET /api/admin/v1/me': 'viewer',
  'POST /api/admin/v1/cases/:caseId/comments': 'agent',
  'GET /api/admin/v1/cases/:caseId/comments': 'viewer',
  'PUT /api/admin/v1/cases/:caseId/watchers/me': 'agent',
  'DELETE /api/admin/v1/cases/:caseId/watchers/me': 'agent',
  'GET /api/admin/v1/me/notifications': 'agent',
  'PUT /api/admin/v1/me/notifications': 'agent',
  'GET /api/admin/v1/step_types': 'editor',
  'POST /api/admin/v1/workflows/:workflowId/test_runs': 'editor',
  'POST /api/admin/v1/workflows': 'editor',
  'GET /api/admin/v1/workflows': 'editor',
  'GET /api/admin/v1/workflow_names': 'viewer',
  'GET /api/admin/v1/workflows/:workflowId': 'editor',
  'PUT /api/admin/v1/workflows/:workflowId': 'editor',
  'POST /api/admin/v1/workflows/:workflowId/publish': 'admin',
  'POST /api/admin/v1/workflows/:workflowId/unpublish': 'admin',
  'POST /api/admin/v1/workflows/:workflowId/webhook': 'admin',
  'GET /api/admin/v1/workflows/:workflowId/webhook': 'admin',
  'GET /api/admin/v1/workflows/:workflowId/versions': 'editor',
  'GET /api/admin/v1/workflows/:workflowId/versions/:version': 'editor',
  'POST /api/admin/v1/workflows/:workflowId/versions/:version/restore': 'editor',
  'PUT /api/admin/v1/workflows/:workflowId/webhook/verification': 'admin',
  'GET /api/admin/v1/workflows/:workflowId/webhook/verification': 'editor',
  'DELETE /api/admin/v1/workflows/:workflowId/webhook/verification': 'admin',
  'POST /api/admin/v1/workflows/:workflowId/email_address': 'admin',
  'GET /api/admin/v1/workflows/:workflowId/email_address': 'admin',
  'POST /api/admin/v1/workflows/:workflowId/form': 'admin',
  'GET /api/admin/v1/workflows/:workflowId/form': 'admin',
  'POST /api/admin/v1/digests': 'admin',
  'GET /api/admin/v1/digests': 'editor',
  'PATCH /api/admin/v1/digests/:digestId': 'admin',
  'DELETE /api/admin/v1/digests/:digestId': 'admin',
  'POST /api/admin/v1/digests/:digestId/send': 'admin',
  'GET /api/admin/v1/retention': 'editor',
  'PUT /api/admin/v1/retention': 'owner',
  'PUT /api/admin/v1/secrets/:name': 'admin',
  'GET /api/admin/v1/secrets': 'admin',
  'DELETE /api/admin/v1/secrets/:name': 'admin',
  'POST /api/admin/v1/subscriptions': 'admin',
  'GET /api/admin/v1/subscriptions': 'editor',
  'DELETE /api/admin/v1/subscriptions/:subscriptionId': 'admin',
  'PATCH /api/admin/v1/subscriptions/:subscriptionId': 'admin',
  'POST /api/admin/v1/subscriptions/:subscriptionId/enable': 'admin',
  'POST /api/admin/v1/subscriptions/:subscriptionId/rotate-secret': 'admin',
  'POST /api/admin/v1/subscriptions/:subscriptionId/deliveries/:deliveryId/retry': 'admin',
  'POST /api/admin/v1/subscriptions/:subscriptionId/recover': 'admin',
  'GET /api/admin/v1/subscriptions/:subscriptionId/deliveries': 'editor',
  'POST /api/admin/v1/tokens': 'admin',
  'GET /api/admin/v1/tokens': 'admin',
  'DELETE /api/admin/v1/tokens/:tokenId': 'admin',
  'POST /api/admin/v1/users': 'owner',
  'GET /api/admin/v1/users': 'owner',
  'PATCH /api/admin/v1/users/:userId': 'owner',
  'DELETE /api/admin/v1/users/:userId': 'owner',
  'PUT /api/admin/v1/sso': 'owner',
  'GET /api/admin/v1/sso': 'owner',
  'DELETE /api/admin/v1/sso': 'owner',
  'POST /api/admin/v1/sso/verify_domains': 'owner',
  'GET /api/admin/v1/audit': 'admin',
  'PUT /api/admin/v1/calendars/:name': 'admin',
  'GET /api/admin/v1/calendars': 'admin',
  'GET /api/admin/v1/calendars/:name': 'admin',
  'DELETE /api/admin/v1/calendars/:name': 'admin',
  'PUT /api/admin/v1/workflows/:workflowId/sla': 'admin',
  'GET /api/admin/v1/workflows/:workflowId/sla': 'admin',
  'DELETE /api/admin/v1/workflows/:workflowId/sla': 'admin',
};

interface AdminRoute {
  method: string;
  path: string;
  role: Role;
}

const join = (...parts: (string | undefined)[]) => `/${parts.map((part) => (part ?? '').replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;

/** Every route of the running app whose credential is the admin check's, with its declared role. */
function registeredAdminRoutes(t: TestApp): AdminRoute[] {
  const routes: AdminRoute[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const credential = declaredCredential(handler);
        if (method === undefined || credential?.kind !== 'admin') continue;
        routes.push({ method: RequestMethod[method], path: join(Reflect.getMetadata(PATH_METADATA, controller) as string, Reflect.getMetadata(PATH_METADATA, handler) as string), role: credential.role });
      }
    }
  }
  return routes;
}

/** Ids no row has (a route the caller may use answers 404, 422 or the like, never 401 or 403). */
const concrete = (path: string) => path.replace(/:name\b/g, 'NO_SUCH_SECRET').replace(/:attachmentId\b/g, 'no-such-attachment').replace(/:[A-Za-z]+/g, '987654321');

describe('admin routes and roles', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let org: PeopleOrganization;
  let origin: string;
  const sessions = new Map<Role, Session>();
  let routes: AdminRoute[];

  before(async () => {
    sink = await startSmtpSink();
    // Hundreds of requests from one address and one session: the limits are not what is tested here.
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' } });
    origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    org = await givenOwnedOrganization(t, sink, origin);
    sessions.set('owner', org.owner);
    for (const role of ['admin', 'editor', 'agent', 'viewer'] as const) sessions.set(role, await givenMember(t, sink, org, role, origin));
    routes = registeredAdminRoutes(t);
  });
  after(async () => {
    await t?.close();
    await sink?.close();
  });

  it('finds every admin route, each with the role of the contract', () => {
    assert.ok(routes.length >= 50, `found only ${routes.length} admin routes`);
    const declared = Object.fromEntries(routes.map((route) => [`${route.method} ${route.path}`, route.role]));
    assert.deepEqual(declared, CONTRACT);
  });

  for (const role of ROLES) {
    it(`a signed-in ${role} gets past every route its role allows, and 403 on every other`, async () => {
      const wrong: string[] = [];
      for (const route of routes) {
        const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
        const res = await t.request(route.method, concrete(route.path), { body, headers: { cookie: sessions.get(role)!.cookie, origin } });
        const allowed = roleAllows(role, route.role);
        const ok = allowed ? res.status !== 401 && res.status !== 403 : res.status === 403 && typeof res.body?.error === 'string';
        if (!ok) wrong.push(`${route.method} ${route.path} (needs ${route.role}): ${res.status} ${res.text.slice(0, 120)}`);
      }
      assert.deepEqual(wrong, []);
    });
  }

  it('an admin token acts as the admin role on every route', async () => {
    const wrong: string[] = [];
    for (const route of routes) {
      const body = ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined;
      const res = await t.request(route.method, concrete(route.path), { body, token: org.adminToken });
      const ok = roleAllows('admin', route.role) ? res.status !== 401 && res.status !== 403 : res.status === 403 && typeof res.body?.error === 'string';
      if (!ok) wrong.push(`${route.method} ${route.path} (needs ${route.role}): ${res.status} ${res.text.slice(0, 120)}`);
    }
    assert.deepEqual(wrong, []);
  });
});
