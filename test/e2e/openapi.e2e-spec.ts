import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type CallOptions,
  DocumentedApi,
  inlineSchemasOf,
  type Json,
  type Operation,
  operationsOf,
  pointerTarget,
  refsOf,
  sameIdEverywhere,
  servedRoutes,
  toRoutePattern,
  toTemplate,
} from '../support/openapi-conformance.js';
import { givenOwnedOrganization, sessionFromMail, uniqueEmail } from '../support/people-helpers.js';
import { createToken, createWorkflow, generateWebhook, operatorToken, type Organization, sampleDefinition } from '../support/scenario.js';
import { type DnsTestServer, startDnsTestServer } from '../support/dns-test-server.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';
import { SmtpListener } from '../../src/modules/email/infrastructure/smtp-listener.js';
import { deliver } from '../support/smtp-client.js';
import { eventOf, Receiver, verifySignature, waitFor } from '../support/subscription-helpers.js';
import { REQUIRED_ROLE_EXTENSION } from '../../src/shared/http/route-credentials.js';

const MAX_BODY_BYTES = 1_048_576;
const NO_ID = 9_007_199_254_740_991;
const isApi = (path: string) => path.startsWith('/api/');
const isDocumentedRoute = (url: string) => isApi(url) || ['/healthz', '/readyz', '/metrics', '/auth/email', '/auth/sign_out'].includes(url);
/** The admin operations only an owner may call (people.md): called with an owner's session, every other with the admin token. */
const ownerOnly = ({ op }: Operation) => op[REQUIRED_ROLE_EXTENSION] === 'owner';
/** Probes take no input and no credential: nothing a client sends can be refused (/metrics can take METRICS_TOKEN). */
const takesInput = ({ op }: Operation) => op.security.length > 0;
const takesBody = ({ method }: Operation) => ['post', 'put', 'patch', 'delete'].includes(method);
const label = ({ method, path }: Operation) => `${method.toUpperCase()} ${path}`;
/** method, documented path, call options, expected status, expected `error` message. */
type Probe = [string, string, CallOptions, number, string?];

/** The credential scheme each family of paths must declare. */
function expectedSecurity(path: string): Json[] {
  if (path.endsWith('/case_webhooks')) return [{ webhookToken: [] }];
  if (path.startsWith('/api/external/')) return [{ apiToken: [] }];
  if (path.startsWith('/api/admin/')) return [{ adminToken: [] }];
  if (path.startsWith('/api/operator/')) return [{ operatorToken: [] }];
  if (path === '/metrics') return [{ metricsToken: [] }, {}];
  return [];
}

/** A definition whose automations use every step kind, on a status no test ever enters (nothing runs). */
function everyStepDefinition(name = 'Every step kind'): Json {
  return sampleDefinition({
    name,
    statuses: ['Triage', 'Dormant'],
    automations: {
      Dormant: [
        { if: { field: 'case.mode', equals: 'test' }, then: [{ set_attributes: { note: 'test traffic' } }], else: [{ fail: 'live traffic' }] },
        { if: { field: 'attributes.order.total', exists: true }, then: [{ wait: { seconds: 1.5 } }] },
        { http_request: { method: 'POST', url: 'https://crm.example/hooks', headers: { 'x-a': 'b' }, body: { email: '{{ attributes.customer_email }}' }, timeout_ms: 500, retries: 0, save_response_as: 'crm' } },
        { set_status: 'Triage' },
        { close: { outcome: 'Auto-resolved' } },
        { close: {} },
      ],
    },
  });
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  let api: DocumentedApi;
  let operations: Operation[];
  let sink: SmtpSink;
  let dns: DnsTestServer;

  before(async () => {
    sink = await startSmtpSink();
    dns = await startDnsTestServer();
    t = await startTestApp({ env: { SMTP_RELAY_URL: sink.url, DNS_SERVERS: dns.server } });
    const res = await t.request('GET', '/openapi.json');
    doc = res.body;
    api = new DocumentedApi(t, doc);
    operations = operationsOf(doc);
  });
  after(async () => { await t.close(); await closeDb(); await sink.close(); await dns.close(); });

  /** An organization with an admin token, a signed-in owner, an API token and a published direct workflow. */
  async function givenOrganization() {
    const origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
    const owned = await givenOwnedOrganization(t, sink, origin);
    const org: Organization = { id: owned.id, adminToken: owned.adminToken };
    const { secret } = await createToken(t, org, 'api');
    const workflowId = await createWorkflow(t, org);
    const credentials: Record<string, string> = { adminToken: org.adminToken, apiToken: secret, operatorToken: operatorToken() };
    const owner = { cookie: owned.owner.cookie, origin };
    /** How `operation` is called with this organization's credential: a token, an owner's session, or nothing. */
    const credentialFor = (operation: Operation): CallOptions => {
      const scheme = Object.keys(operation.op.security[0] ?? {})[0];
      if (scheme === undefined) return {};
      return ownerOnly(operation) ? { session: owner } : { token: credentials[scheme] };
    };
    return { org, admin: org.adminToken, api: secret, workflowId, credentials, owner, credentialFor };
  }

  /** Each request answers this status (and error message, when given), a documented answer of its operation. */
  async function expectAnswers(probes: Probe[]): Promise<void> {
    for (const [method, path, options, status, error] of probes) {
      const res = await api.call(method, path, options);
      const actual = { status: res.status, ...(error === undefined ? {} : { error: res.body?.error }) };
      assert.deepEqual(actual, { status, ...(error === undefined ? {} : { error }) }, `${method.toUpperCase()} ${path}: ${res.text}`);
    }
  }

  describe('the document itself', () => {
    it('is served as OpenAPI 3.1 JSON at /openapi.json, and browsable at /docs', async () => {
      const res = await t.request('GET', '/openapi.json');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.match(doc.openapi, /^3\.1\.\d+$/);
      assert.deepEqual(doc.servers, [{ url: t.env.PUBLIC_BASE_URL }]);
      const ui = await t.request('GET', '/docs');
      assert.equal(ui.status, 200);
      assert.match(String(ui.headers['content-type']), /^text\/html/);
      assert.match(ui.text, /<title>Case Intake Service API<\/title>/);
    });

    it('resolves every $ref to an existing component, and uses every component', () => {
      const refs = refsOf(doc);
      assert.ok(refs.length > 50, `only ${refs.length} $refs`);
      for (const { at, ref } of refs) {
        assert.match(ref, /^#\/components\/(schemas|responses|parameters|headers)\/[A-Za-z]+$/, `${at}: ${ref}`);
        assert.ok(pointerTarget(doc, ref), `${at}: ${ref} points to nothing`);
      }
      const referenced = new Set(refs.map(({ ref }) => ref));
      for (const kind of ['schemas', 'responses', 'parameters', 'headers']) {
        for (const name of Object.keys(doc.components[kind])) assert.ok(referenced.has(`#/components/${kind}/${name}`), `${kind}/${name} is never used`);
      }
    });

    it('holds only schemas that compile as strict JSON Schema 2020-12', () => {
      for (const name of Object.keys(doc.components.schemas)) assert.doesNotThrow(() => api.validator.compile({ $ref: `#/components/schemas/${name}` }), name);
      for (const { at, schema } of inlineSchemasOf(doc.paths).concat(inlineSchemasOf(doc.components, '#/components'))) {
        assert.doesNotThrow(() => api.validator.compile(schema), at);
      }
    });

    it('declares exactly the path parameters of each template, and a unique operationId, summary and description per operation', () => {
      const resolved = (p: Json): Json => (p.$ref ? (pointerTarget(doc, p.$ref) as Json) : p);
      for (const operation of operations) {
        const inPath = (operation.op.parameters ?? []).map(resolved).filter((p: Json) => p.in === 'path');
        assert.deepEqual(inPath.map((p: Json) => p.name).sort(), [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort(), label(operation));
        assert.ok(inPath.every((p: Json) => p.required === true), label(operation));
        assert.ok(operation.op.summary && operation.op.description, label(operation));
      }
      const ids = operations.map((o) => o.op.operationId);
      assert.equal(new Set(ids).size, ids.length);
    });

    it('names the credential of every operation, and webhook tokens as a query apiKey', () => {
      assert.deepEqual(doc.components.securitySchemes.webhookToken, { ...doc.components.securitySchemes.webhookToken, type: 'apiKey', in: 'query', name: 'token' });
      for (const scheme of ['adminToken', 'apiToken', 'operatorToken']) assert.equal(doc.components.securitySchemes[scheme].scheme, 'bearer', scheme);
      for (const operation of operations) assert.deepEqual(operation.op.security, expectedSecurity(operation.path), label(operation));
    });

    it('documents 401 and 503 on every /api/ operation, a 4xx on every operation taking input, 413 wherever a body is read, and the Idempotency-Key', () => {
      for (const operation of operations) {
        const statuses = Object.keys(operation.op.responses);
        if (isApi(operation.path)) {
          assert.ok(statuses.includes('401') && statuses.includes('503'), `${label(operation)}: ${statuses}`);
        }
        if (takesInput(operation)) assert.ok(statuses.some((s) => s.startsWith('4')), `${label(operation)}: ${statuses}`);
        if (takesBody(operation)) assert.ok(statuses.includes('413'), `${label(operation)}: ${statuses}`);
      }
      const create = doc.paths['/api/external/v1/workflows/{workflowId}/cases'].post;
      assert.ok(create.parameters.some((p: Json) => p.$ref === '#/components/parameters/IdempotencyKey'));
      assert.ok(create.responses['201'].headers['Idempotent-Replayed']);
    });
  });

  describe('matches the routes the app serves', () => {
    it('documents every API and health route with its method', () => {
      const fastify = t.app.getHttpAdapter().getInstance();
      const served = servedRoutes(fastify).filter((r) => r.method !== 'HEAD' && isDocumentedRoute(r.url));
      assert.ok(served.length >= 20, `parsed only ${served.length} routes`);
      for (const { method, url } of served) {
        assert.ok(fastify.hasRoute({ method: method as 'GET', url }), `the route list parsed wrongly: ${method} ${url}`);
        assert.ok(doc.paths[toTemplate(url)]?.[method.toLowerCase()], `${method} ${toTemplate(url)} is served but not documented`);
      }
      assert.equal(served.length, operations.length);
    });

    it('documents every route the app serves, but for the documents themselves, the dashboard\'s files, the hosted form\'s pages, the digest recipients\' pages and the sign-in pages (links and single sign-on)', () => {
      const fastify = t.app.getHttpAdapter().getInstance();
      // The hosted request form's pages, the digest recipients' and notification unsubscribe pages and the sign-in pages are HTML for people, like the dashboard (and `/`, which leads to it): not API operations.
      const notApi = /^\/$|^\/(docs|dashboard)([/*]|$)|^\/(forms|digests|notifications\/unsubscribe|auth\/link)\/|^\/auth\/sso(\/callback)?$|^\/openapi\.(json|yaml)$/;
      const served = servedRoutes(fastify).filter((r) => r.method !== 'HEAD' && !notApi.test(r.url));
      assert.ok(served.some((r) => r.url === '/metrics') && served.length >= 20, `parsed only ${served.length} routes`);
      const undocumented = served.filter(({ method, url }) => !doc.paths[toTemplate(url)]?.[method.toLowerCase()]);
      assert.deepEqual(undocumented, [], 'served but not documented');
    });

    it('derives request schemas from the request classes (the CLI plugin\'s metadata was loaded)', () => {
      const { CreateTokenRequest, CreateCaseRequest } = doc.components.schemas;
      assert.deepEqual(CreateTokenRequest.properties.name, { type: 'string', minLength: 1, maxLength: 200, description: 'A label for people.' });
      assert.deepEqual(CreateTokenRequest.required, ['name', 'scope']);
      assert.equal(CreateTokenRequest.additionalProperties, false);
      assert.deepEqual(CreateCaseRequest.properties.subject.type, ['string', 'null']);
      assert.equal(CreateCaseRequest.properties.subject.maxLength, 1000);
    });

    it('documents every query parameter of the case lists and the change feed, and only those', () => {
      const queryOf = (path: string, method: string) => (doc.paths[path][method].parameters as Json[]).filter((p) => p.in === 'query').map((p) => p.name).sort();
      const filters = ['attributes', 'created_after', 'created_before', 'cursor', 'limit', 'mode', 'q', 'status', 'updated_after', 'updated_before'];
      assert.deepEqual(queryOf('/api/external/v1/workflows/{workflowId}/cases', 'get'), filters);
      assert.deepEqual(queryOf('/api/admin/v1/cases', 'get'), [...filters, 'assignee', 'priority', 'sla', 'sort', 'source', 'team_id', 'watching', 'workflow_id'].sort());
      assert.deepEqual(queryOf('/api/external/v1/workflows/{workflowId}/cases/changes', 'get'), ['after', 'limit']);
      assert.ok(doc.paths['/api/external/v1/workflows/{workflowId}/cases/changes'].get.responses['410'], 'the expired cursor is documented');
    });

    it('serves every documented operation', () => {
      const fastify = t.app.getHttpAdapter().getInstance();
      for (const operation of operations) {
        assert.ok(fastify.hasRoute({ method: operation.method.toUpperCase() as 'GET', url: toRoutePattern(operation.path) }), `${label(operation)} is documented but not served`);
      }
    });
  });

  describe('matches what the app answers', () => {
    it('answers every operation with its documented success status and schema', async () => {
      const ownerEmail = uniqueEmail('owner');
      const created = await api.call('post', '/api/operator/v1/organizations', { token: operatorToken(), body: { name: 'Documented org', owner_email: ownerEmail } });
      await api.call('get', '/api/operator/v1/organizations', { token: operatorToken() });
      const admin = created.body.admin_token;
      const apiToken = (await api.call('post', '/api/admin/v1/tokens', { token: admin, body: { name: 'CRM sync', scope: 'api' } })).body.secret;
      const spare = await api.call('post', '/api/admin/v1/tokens', { token: admin, body: { name: 'spare', scope: 'admin' } });
      await api.call('delete', '/api/admin/v1/tokens/{tokenId}', { token: admin, params: { tokenId: spare.body.token.id } });
      await api.call('get', '/api/admin/v1/tokens', { token: admin });

      const workflowId = (await api.call('post', '/api/admin/v1/workflows', { token: admin, body: everyStepDefinition() })).body.workflow.id;
      const params = { workflowId };
      await api.call('get', '/api/admin/v1/workflows', { token: admin });
      await api.call('get', '/api/admin/v1/workflow_names', { token: admin });
      await api.call('get', '/api/admin/v1/workflows/{workflowId}', { token: admin, params });
      await api.call('put', '/api/admin/v1/workflows/{workflowId}', { token: admin, params, body: { ...everyStepDefinition('Renamed'), webhook_dedup: { key: '/delivery_id' } } });
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/publish', { token: admin, params });
      await api.call('get', '/api/admin/v1/workflows/{workflowId}/versions', { token: admin, params });
      await api.call('get', '/api/admin/v1/workflows/{workflowId}/versions/{version}', { token: admin, params: { ...params, version: 1 } });
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/versions/{version}/restore', { token: admin, params: { ...params, version: 1 } });
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/webhook', { token: admin, params });
      await api.call('get', '/api/admin/v1/workflows/{workflowId}/webhook', { token: admin, params });
      const hook = await api.call('post', '/api/operator/v1/workflows/{workflowId}/webhook/rotate', { token: operatorToken(), params });
      const verificationPath = '/api/admin/v1/workflows/{workflowId}/webhook/verification';
      await api.call('put', verificationPath, { token: admin, params, body: { scheme: 'stripe', secret: 'whsec_documented' } });
      await api.call('get', verificationPath, { token: admin, params });
      await api.call('delete', verificationPath, { token: admin, params });

      const casesPath = '/api/external/v1/workflows/{workflowId}/cases';
      const body = { subject: null, attributes: { customer_email: 'a@b.co', order: { total: 12.5 } }, mode: 'test' };
      const first = await api.call('post', casesPath, { token: apiToken, params, body, headers: { 'idempotency-key': 'order-1' } });
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const replay = await api.call('post', casesPath, { token: apiToken, params, body, headers: { 'idempotency-key': 'order-1' } });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.deepEqual(replay.body, first.body);
      const caseParams = { workflowId, caseId: first.body.case.id };
      await api.call('get', `${casesPath}/{caseId}`, { token: apiToken, params: caseParams });
      await api.call('patch', `${casesPath}/{caseId}`, { token: apiToken, params: caseParams, body: { status: 'Closed' } });
      const listed = await api.call('get', casesPath, { token: apiToken, params, query: `?status=Open,Closed&mode=test&limit=1&attributes=${encodeURIComponent('{"order":{"total":12.5}}')}` });
      assert.deepEqual(listed.body.cases.map((c: Json) => c.id), [first.body.case.id]);
      const feed = await api.call('get', `${casesPath}/changes`, { token: apiToken, params, query: '?limit=10' });
      await api.call('get', `${casesPath}/changes`, { token: apiToken, params, query: `?after=${feed.body.next_cursor}` });
      const webhookQuery = `?token=${encodeURIComponent(hook.body.webhook.token)}`;
      const delivery = { params, query: webhookQuery, rawBody: '{"customer_email":"w@b.co","delivery_id":"d-1"}', headers: { 'content-type': 'text/plain' } };
      const delivered = await api.call('post', '/api/external/v1/workflows/{workflowId}/case_webhooks', delivery);
      const duplicate = await api.call('post', '/api/external/v1/workflows/{workflowId}/case_webhooks', delivery);
      assert.deepEqual(duplicate.body, { ...delivered.body, duplicate: true });

      const page = await api.call('get', '/api/admin/v1/cases', { token: admin, query: `?workflow_id=${workflowId}&limit=1` });
      assert.equal(typeof page.body.next_cursor, 'string');
      await api.call('get', '/api/admin/v1/cases/{caseId}', { token: admin, params: caseParams });
      const team = await api.call('post', '/api/admin/v1/teams', { token: admin, body: { name: 'Front line', member_ids: [] } });
      const teamParams = { teamId: team.body.team.id };
      await api.call('get', '/api/admin/v1/teams', { token: admin });
      await api.call('patch', '/api/admin/v1/teams/{teamId}', { token: admin, params: teamParams, body: { name: 'Front line EU' } });
      await api.call('patch', '/api/admin/v1/cases/{caseId}', { token: admin, params: caseParams, body: { team_id: team.body.team.id, priority: 'high', attributes: { note: 'documented' } } });
      await api.call('delete', '/api/admin/v1/teams/{teamId}', { token: admin, params: teamParams });
      await api.call('get', '/api/admin/v1/cases/{caseId}/timeline', { token: admin, params: caseParams });
      // A case without runs here; case-runs.e2e-spec.ts checks traced runs against the document.
      await api.call('get', '/api/admin/v1/cases/{caseId}/runs', { token: admin, params: caseParams });
      const usage = await api.call('get', '/api/admin/v1/usage', { token: admin, query: '?from=2020-01-01T00:00:00Z' });
      const { live, test } = usage.body.usage;
      assert.deepEqual({ live, test }, { live: { cases: 1, runs: 0 }, test: { cases: 1, runs: 0 } });
      const report = await api.call('get', '/api/admin/v1/reports/cases', { token: admin, query: `?interval=hour&from=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&workflow_id=${workflowId}` });
      assert.equal(report.body.report.totals.created, 1, 'the test case does not count');
      await api.call('get', '/api/admin/v1/reports/sla', { token: admin, query: '?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z' });
      const digest = await api.call('post', '/api/admin/v1/digests', { token: admin, body: { schedule: 'weekly', weekday: 1, hour_utc: 6, recipients: ['ops@acme.example'], workflow_ids: [workflowId] } });
      const digestParams = { digestId: digest.body.digest.id };
      await api.call('get', '/api/admin/v1/digests', { token: admin });
      await api.call('patch', '/api/admin/v1/digests/{digestId}', { token: admin, params: digestParams, body: { schedule: 'daily', recipients: ['ops@acme.example', 'lead@acme.example'], workflow_ids: null } });
      await api.call('post', '/api/admin/v1/digests/{digestId}/send', { token: admin, params: digestParams });
      // As if ops@ had pressed Confirm on its invitation's page (digest-recipients.e2e-spec.ts does it for real).
      await db().query(`UPDATE digest_recipients r SET confirmed_at = now() FROM digests d
                        WHERE d.id = $1 AND r.organization_id = d.organization_id AND r.address = 'ops@acme.example'`, [digestParams.digestId]);
      await api.call('post', '/api/admin/v1/digests/{digestId}/send', { token: admin, params: digestParams });
      await api.call('delete', '/api/admin/v1/digests/{digestId}', { token: admin, params: digestParams });
      const subscriptionsPath = '/api/admin/v1/subscriptions';
      const subscription = await api.call('post', subscriptionsPath, { token: admin, body: { url: 'https://crm.example/events', events: ['case.closed'], workflow_ids: [workflowId] } });
      const subscriptionParams = { subscriptionId: subscription.body.subscription.id };
      await api.call('get', subscriptionsPath, { token: admin });
      // A name that never resolves: the live case's event gets one failed attempt, which is retried.
      await api.call('patch', `${subscriptionsPath}/{subscriptionId}`, { token: admin, params: subscriptionParams, body: { url: 'https://no-such-host.invalid/events', events: ['case.created'] } });
      await api.call('post', casesPath, { token: apiToken, params, body: { attributes: { customer_email: 'c@b.co' } } });
      const [attempt] = await waitFor('a delivery attempt', async () => {
        const log = await api.call('get', `${subscriptionsPath}/{subscriptionId}/deliveries`, { token: admin, params: subscriptionParams, query: '?limit=5' });
        return log.body.deliveries.length ? log.body.deliveries : undefined;
      });
      await api.call('post', `${subscriptionsPath}/{subscriptionId}/deliveries/{deliveryId}/retry`, { token: admin, params: { ...subscriptionParams, deliveryId: attempt.delivery_id } });
      await api.call('post', `${subscriptionsPath}/{subscriptionId}/recover`, { token: admin, params: subscriptionParams, body: { since: '2020-01-01T00:00:00Z' } });
      await api.call('post', `${subscriptionsPath}/{subscriptionId}/enable`, { token: admin, params: subscriptionParams });
      await api.call('post', `${subscriptionsPath}/{subscriptionId}/rotate-secret`, { token: admin, params: subscriptionParams });
      await api.call('delete', `${subscriptionsPath}/{subscriptionId}`, { token: admin, params: subscriptionParams });
      await api.call('put', '/api/admin/v1/secrets/{name}', { token: admin, params: { name: 'CRM_KEY' }, body: { value: 'key-1' } });
      await api.call('get', '/api/admin/v1/secrets', { token: admin });
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/test_runs', { token: admin, params, body: { attributes: { customer_email: 'a@b.co' } } });
      await api.call('get', '/api/admin/v1/step_types', { token: admin });
      await api.call('delete', '/api/admin/v1/secrets/{name}', { token: admin, params: { name: 'CRM_KEY' } });
      const calendar = { token: admin, params: { name: 'Support-hours' } };
      await api.call('put', '/api/admin/v1/calendars/{name}', { ...calendar, body: { time_zone: 'Europe/Berlin', hours: { mon: [['09:00', '17:00']] }, holidays: ['2026-12-24'] } });
      await api.call('get', '/api/admin/v1/calendars', { token: admin });
      await api.call('get', '/api/admin/v1/calendars/{name}', calendar);
      await api.call('put', '/api/admin/v1/workflows/{workflowId}/sla', { token: admin, params, body: { calendar: 'Support-hours', targets: { normal: { first_response: 'PT8H', resolution: 'P5D' } }, pause_statuses: ['Triage'], warn_before: 'PT30M' } });
      await api.call('get', '/api/admin/v1/workflows/{workflowId}/sla', { token: admin, params });
      await api.call('delete', '/api/admin/v1/workflows/{workflowId}/sla', { token: admin, params });
      await api.call('delete', '/api/admin/v1/calendars/{name}', calendar);
      const origin = new URL(t.env.PUBLIC_BASE_URL!).origin;
      const owner = { cookie: (await sessionFromMail(t, sink, ownerEmail, origin)).cookie, origin };
      await api.call('put', '/api/admin/v1/retention', { session: owner, body: { runs_days: 7, deliveries_days: null } });
      await api.call('get', '/api/admin/v1/retention', { token: admin });
      await api.call('get', '/api/admin/v1/audit', { token: admin, query: '?limit=5&target=secret' });
      const view = await api.call('post', '/api/admin/v1/views', { token: admin, body: { name: 'Open', filters: { status: 'Open' }, columns: ['id', 'status'], shared: true } });
      await api.call('get', '/api/admin/v1/views', { token: admin });
      await api.call('patch', '/api/admin/v1/views/{viewId}', { token: admin, params: { viewId: view.body.view.id }, body: { name: 'Still open' } });
      await api.call('delete', '/api/admin/v1/views/{viewId}', { token: admin, params: { viewId: view.body.view.id } });
      // A case that does not exist: the job is accepted and counts it as failed, changing nothing here.
      const job = await api.call('post', '/api/admin/v1/cases/bulk', { token: admin, body: { case_ids: [987654321], change: { status: 'Closed' } } });
      await api.call('get', '/api/admin/v1/jobs/{jobId}', { token: admin, params: { jobId: job.body.job.id } });
      await api.call('get', '/api/admin/v1/cases/export.csv', { token: admin, query: `?workflow_id=${workflowId}&columns=id,subject,attributes` });
      await exerciseComments(owner, caseParams);
      await exercisePeople(admin, owner);
      await exerciseEmailIntake(admin, apiToken);
      await exerciseRequestForm(admin);
      await exerciseMergesAndLinks(admin, apiToken, params);
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/unpublish', { token: admin, params });
      await api.call('get', '/healthz');
      await api.call('get', '/readyz');
      await api.call('get', '/metrics');

      for (const { method, path, op } of operations) {
        for (const success of Object.keys(op.responses).filter((s) => s.startsWith('2'))) {
          assert.ok(api.seen.has(`${method.toUpperCase()} ${path} ${success}`), `${method.toUpperCase()} ${path} ${success} was not exercised`);
        }
      }
    });

    /** Comments, watching and notification preferences, as a person (an admin token is no person to watch). */
    async function exerciseComments(owner: { cookie: string; origin: string }, caseParams: { caseId: number }): Promise<void> {
      await api.call('post', '/api/admin/v1/cases/{caseId}/comments', { session: owner, params: caseParams, body: { body: 'Looked at it', visibility: 'internal' } });
      await api.call('get', '/api/admin/v1/cases/{caseId}/comments', { session: owner, params: caseParams, query: '?limit=10' });
      await api.call('put', '/api/admin/v1/cases/{caseId}/watchers/me', { session: owner, params: caseParams });
      await api.call('delete', '/api/admin/v1/cases/{caseId}/watchers/me', { session: owner, params: caseParams });
      await api.call('put', '/api/admin/v1/me/notifications', { session: owner, body: { assigned: true, mentioned: false, watched: true } });
      await api.call('get', '/api/admin/v1/me/notifications', { session: owner });
    }

    /** The users of an organization, who is calling, asking for a sign-in link and signing out. */
    async function exercisePeople(admin: string, owner: { cookie: string; origin: string }): Promise<void> {
      const invited = await api.call('post', '/api/admin/v1/users', { session: owner, body: { email: uniqueEmail('editor'), role: 'editor' } });
      await api.call('get', '/api/admin/v1/users', { session: owner });
      await api.call('patch', '/api/admin/v1/users/{userId}', { session: owner, params: { userId: invited.body.user.id }, body: { role: 'viewer' } });
      await api.call('delete', '/api/admin/v1/users/{userId}', { session: owner, params: { userId: invited.body.user.id } });
      await api.call('get', '/api/admin/v1/me', { token: admin });
      const me = await api.call('get', '/api/admin/v1/me', { session: owner });
      const sso = { issuer: 'https://idp.example', client_id: 'case-intake', client_secret: 'documented-secret', email_domains: ['example.com'], default_role: 'viewer', required: false };
      const set = await api.call('put', '/api/admin/v1/sso', { session: owner, body: sso });
      const [proof] = set.body.sso.domain_verifications;
      dns.txt.set(proof.record_name, [[proof.record_value]]);
      await api.call('post', '/api/admin/v1/sso/verify_domains', { session: owner });
      await api.call('get', '/api/admin/v1/sso', { session: owner });
      await api.call('delete', '/api/admin/v1/sso', { session: owner });
      await api.call('put', '/api/admin/v1/sso', { session: owner, body: sso });
      await api.call('delete', '/api/operator/v1/organizations/{organizationId}/sso', { token: operatorToken(), params: { organizationId: me.body.organization.id } });
      await api.call('post', '/auth/email', { body: { email: uniqueEmail('nobody') } });
      await api.call('post', '/auth/sign_out', { session: owner });
    }

    /** An email workflow's address (generate, view, rotate), a message with an attachment sent to it, and the attachment's downloads. */
    /** Two cases of the workflow linked, listed, linked again, unlinked, then merged. */
    async function exerciseMergesAndLinks(admin: string, apiToken: string, params: { workflowId: number }): Promise<void> {
      const opened = async () => (await api.call('post', '/api/external/v1/workflows/{workflowId}/cases', { token: apiToken, params, body: { attributes: { customer_email: 'm@b.co' } } })).body.case.id;
      const [caseId, otherId] = [await opened(), await opened()];
      const linkBody = { case_id: otherId, type: 'duplicates' };
      const made = await api.call('post', '/api/admin/v1/cases/{caseId}/links', { token: admin, params: { caseId }, body: linkBody });
      assert.equal(made.status, 201, made.text);
      assert.equal((await api.call('post', '/api/admin/v1/cases/{caseId}/links', { token: admin, params: { caseId }, body: linkBody })).status, 200);
      await api.call('get', '/api/admin/v1/cases/{caseId}/links', { token: admin, params: { caseId: otherId } });
      await api.call('delete', '/api/admin/v1/cases/{caseId}/links/{linkId}', { token: admin, params: { caseId, linkId: made.body.link.id } });
      await api.call('post', '/api/admin/v1/cases/{caseId}/merge', { token: admin, params: { caseId }, body: { into: otherId } });
    }

    async function exerciseEmailIntake(admin: string, apiToken: string): Promise<void> {
      const workflowId = (await api.call('post', '/api/admin/v1/workflows', { token: admin, body: { name: 'Inbox', case_source: 'email' } })).body.workflow.id;
      const params = { workflowId };
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/publish', { token: admin, params });
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/email_address', { token: admin, params });
      await api.call('get', '/api/admin/v1/workflows/{workflowId}/email_address', { token: admin, params });
      const rotated = await api.call('post', '/api/operator/v1/workflows/{workflowId}/email_address/rotate', { token: operatorToken(), params });
      const smtpPort = await t.app.get(SmtpListener).listen(0);
      const message = 'Subject: files\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nsee file\r\n--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=a.pdf\r\n\r\n%PDF-1.7\r\n--b--\r\n';
      const sent = await deliver({ port: smtpPort, to: [rotated.body.email_address.address], message });
      assert.equal(sent.data?.code, 250, JSON.stringify(sent));
      const caseId = (await api.call('get', '/api/admin/v1/cases', { token: admin, query: `?workflow_id=${workflowId}&source=Email` })).body.cases[0].id;
      const [file] = (await api.call('get', '/api/admin/v1/cases/{caseId}', { token: admin, params: { caseId } })).body.case.attributes.email.attachments;
      await api.call('get', '/api/external/v1/workflows/{workflowId}/cases/{caseId}/attachments/{attachmentId}', { token: apiToken, params: { workflowId, caseId, attachmentId: file.id } });
      await api.call('get', '/api/admin/v1/cases/{caseId}/attachments/{attachmentId}', { token: admin, params: { caseId, attachmentId: file.id } });
    }

    /** A ticketing workflow's form URL (generate, view, rotate), and a case posted through the form. */
    async function exerciseRequestForm(admin: string): Promise<void> {
      const workflowId = (await api.call('post', '/api/admin/v1/workflows', { token: admin, body: { name: 'Requests', case_source: 'ticketing' } })).body.workflow.id;
      const params = { workflowId };
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/publish', { token: admin, params });
      await api.call('post', '/api/admin/v1/workflows/{workflowId}/form', { token: admin, params });
      await api.call('get', '/api/admin/v1/workflows/{workflowId}/form', { token: admin, params });
      const rotated = await api.call('post', '/api/operator/v1/workflows/{workflowId}/form/rotate', { token: operatorToken(), params });
      const posted = await t.request('POST', new URL(rotated.body.form.url).pathname, { rawBody: 'subject=Printer&attribute%3Adescription=jammed', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(posted.status, 303, posted.text);
      const cases = await api.call('get', '/api/admin/v1/cases', { token: admin, query: `?workflow_id=${workflowId}&source=Form` });
      assert.equal(cases.body.cases[0].source_type, 'Form');
    }

    it('sends subscribers the signed request documented under webhooks, and logs the attempt as documented', async () => {
      const org = await givenOrganization();
      const receiver = await Receiver.start();
      try {
        const body = { url: `${receiver.url}/hook`, events: ['case.created'], workflow_ids: [org.workflowId] };
        const created = await api.call('post', '/api/admin/v1/subscriptions', { token: org.admin, body });
        const subscription = { subscriptionId: created.body.subscription.id };
        const caseId = (await t.request('POST', `/api/external/v1/workflows/${org.workflowId}/cases`, { token: org.api, body: { attributes: { customer_email: 'a@b.co' } } })).body.case.id;

        const request = await waitFor('the delivery', () => receiver.requests[0]);
        const event = doc.webhooks.caseEvent.post;
        for (const header of event.parameters) assert.equal(typeof request.headers[header.name], 'string', header.name);
        verifySignature(created.body.signing_secret, request);
        api.validator.assertValid(event.requestBody.content['application/json'].schema, eventOf(request), 'the delivered event');
        assert.deepEqual([eventOf(request).type, eventOf(request).data.case.id], ['case.created', caseId]);

        const deliveries = await waitFor('the delivery log', async () => {
          const res = await api.call('get', '/api/admin/v1/subscriptions/{subscriptionId}/deliveries', { token: org.admin, params: subscription });
          return res.body.deliveries.length ? res.body.deliveries : undefined;
        });
        assert.deepEqual(deliveries.map((d: Json) => [d.event_id, d.event_type, d.delivered, d.status_code]), [[request.headers['webhook-id'], 'case.created', true, 200]]);
      } finally {
        await receiver.stop();
      }
    });

    it('answers 401, as documented, to every /api/ operation called without its credential', async () => {
      for (const operation of operations.filter((o) => isApi(o.path))) {
        const res = await api.call(operation.method, operation.path);
        assert.equal(res.status, 401, `${label(operation)}: ${res.text}`);
      }
    });

    it('answers 404, as documented, to every operation whose ids name nothing', async () => {
      const org = await givenOrganization();
      const bodies: Record<string, Json> = { put: sampleDefinition(), patch: { status: 'Open' } };
      // Bodies that pass validation, so the id is what is refused.
      const validBodies: [string, Json][] = [
        ['/webhook/verification', { scheme: 'github', secret: 's' }],
        ['/subscriptions/{subscriptionId}', { events: ['case.closed'] }],
        ['/digests/{digestId}', { hour_utc: 6 }],
        ['/recover', { since: '2026-01-01T00:00:00Z' }],
        ['/users/{userId}', { role: 'viewer' }],
        ['/merge', { into: 1 }],
        ['/links', { case_id: 1, type: 'relates' }],
        ['/views/{viewId}', { name: 'Renamed' }],
        ['/teams/{teamId}', { name: 'Nobody' }],
        ['/comments', { body: 'note', visibility: 'internal' }],
      ];
      for (const operation of operations.filter((o) => o.op.responses['404'] && o.path.includes('{'))) {
        const res = await api.call(operation.method, operation.path, {
          ...org.credentialFor(operation),
          params: sameIdEverywhere(operation.path, NO_ID),
          body: validBodies.find(([end]) => operation.path.endsWith(end))?.[1] ?? bodies[operation.method],
        });
        assert.equal(res.status, 404, `${label(operation)}: ${res.text}`);
      }
    });

    it('answers 404, as documented, to every operator operation when OPERATOR_TOKEN is unset', async () => {
      const withoutOperator = await startTestApp({ env: { OPERATOR_TOKEN: '' } });
      try {
        const unconfigured = new DocumentedApi(withoutOperator, doc);
        for (const operation of operations.filter((o) => o.path.startsWith('/api/operator/'))) {
          const res = await unconfigured.call(operation.method, operation.path, { token: operatorToken() });
          assert.equal(res.status, 404, `${label(operation)}: ${res.text}`);
        }
      } finally {
        await withoutOperator.close();
      }
    });

    it('answers 413 beyond 1 MB (1,048,576 bytes), 415 to non-JSON (but on the webhook) and 400 to a wrong Content-Length, as documented', async () => {
      const tooLarge = `"${'x'.repeat(MAX_BODY_BYTES - 1)}"`;
      // With a valid credential: a bad one is answered 401 before the body is read.
      const org = await givenOrganization();
      const hook = await generateWebhook(t, org.org, org.workflowId);
      for (const operation of operations.filter(takesBody)) {
        const credential = Object.keys(operation.op.security[0] ?? {})[0] === 'webhookToken'
          ? { params: { workflowId: org.workflowId }, query: hook.path.slice(hook.path.indexOf('?')) }
          : org.credentialFor(operation);
        const large = await api.call(operation.method, operation.path, { ...credential, rawBody: tooLarge });
        assert.equal(large.status, 413, `${label(operation)}: ${large.text}`);
        const mismatched = await api.call(operation.method, operation.path, { ...credential, rawBody: '{}', headers: { 'content-length': '10' } });
        assert.equal(mismatched.status, 400, `${label(operation)}: ${mismatched.text}`);
        if (!operation.op.responses['415']) continue;
        const text = await api.call(operation.method, operation.path, { ...credential, rawBody: '{}', headers: { 'content-type': 'text/plain' } });
        assert.equal(text.status, 415, `${label(operation)}: ${text.text}`);
      }
    });

    it('answers each documented 422 (and the webhook\'s 1,000-key 413) with the documented error shape', async () => {
      const org = await givenOrganization();
      const draftId = await createWorkflow(t, org.org, sampleDefinition(), false);
      const hook = await generateWebhook(t, org.org, org.workflowId);
      const params = { workflowId: org.workflowId };
      const casesPath = '/api/external/v1/workflows/{workflowId}/cases';
      const webhookPath = '/api/external/v1/workflows/{workflowId}/case_webhooks';
      const webhook = { params, query: hook.path.slice(hook.path.indexOf('?')) };
      const manyKeys = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]));
      await api.call('post', casesPath, { token: org.api, params, body: { attributes: { customer_email: 'a@b.co' } }, headers: { 'idempotency-key': 'k' } });

      const probes: Probe[] = [
        ['post', casesPath, { token: org.api, params, body: { priority: 1 } }, 422, 'invalid request body'],
        ['post', casesPath, { token: org.api, params, body: { attributes: { customer_email: 7 } } }, 422, 'attributes_validation_failed'],
        ['post', casesPath, { token: org.api, params, body: { attributes: { customer_email: 'x@b.co' } }, headers: { 'idempotency-key': 'k' } }, 422, 'this Idempotency-Key was used in the last 24 hours with a different request'],
        ['post', casesPath, { token: org.api, params, headers: { 'idempotency-key': 'has space' } }, 422, 'Idempotency-Key must be 1 to 255 printable ASCII characters'],
        ['post', casesPath, { token: org.api, params: { workflowId: draftId } }, 422, 'this workflow is not published'],
        ['post', casesPath, { token: org.api, params, rawBody: '{"attributes":' }, 422, 'request body is not valid JSON'],
        ['patch', `${casesPath}/{caseId}`, { token: org.api, params: { ...params, caseId: 1 }, body: { status: 'Open', note: 'x' } }, 422, 'invalid request body'],
        ['post', '/api/admin/v1/tokens', { token: org.admin, body: { name: 'x', scope: 'root' } }, 422, 'invalid request body'],
        ['post', '/api/operator/v1/organizations', { token: operatorToken(), body: {} }, 422, 'invalid request body'],
        ['post', '/api/admin/v1/workflows', { token: org.admin, body: sampleDefinition({ statuses: ['Open'] }) }, 422, 'workflow_definition_invalid'],
        ['put', '/api/admin/v1/workflows/{workflowId}', { token: org.admin, params, body: [] }, 422, 'request body must be a JSON object'],
        ['post', '/api/admin/v1/workflows/{workflowId}/webhook', { token: org.admin, params: { workflowId: draftId } }, 422, 'an incoming webhook needs a published workflow whose case source is "direct"'],
        ['get', '/api/admin/v1/cases', { token: org.admin, query: '?limit=0' }, 422, 'invalid query string'],
        ['get', casesPath, { token: org.api, params, query: '?created_after=yesterday' }, 422, 'invalid query string'],
        ['get', `${casesPath}/changes`, { token: org.api, params, query: '?after=not-a-cursor' }, 422, 'invalid query string'],
        ['put', '/api/admin/v1/secrets/{name}', { token: org.admin, params: { name: 'CRM_KEY' }, body: { value: 'x'.repeat(8193) } }, 422, 'invalid request body'],
        ['put', '/api/admin/v1/secrets/{name}', { token: org.admin, params: { name: 'crm_key' }, body: { value: 'x' } }, 422, 'invalid secret name: it must match [A-Z][A-Z0-9_]{0,63}'],
        ['put', '/api/admin/v1/calendars/{name}', { token: org.admin, params: { name: 'Hours' }, body: { time_zone: '+01:00', hours: '24x7' } }, 422, 'invalid request body'],
        ['put', '/api/admin/v1/workflows/{workflowId}/sla', { token: org.admin, params, body: { calendar: 'Nowhere', targets: { normal: { resolution: 'P1W' } } } }, 422, 'invalid request body'],
        ['put', '/api/admin/v1/retention', { session: org.owner, body: { runs_days: 0, keep: true } }, 422, 'invalid request body'],
        ['post', '/api/admin/v1/users', { session: org.owner, body: { email: 'not an address', role: 'owner' } }, 422, 'invalid request body'],
        ['patch', '/api/admin/v1/users/{userId}', { session: org.owner, params: { userId: (await api.call('get', '/api/admin/v1/me', { session: org.owner })).body.caller.id }, body: { role: 'viewer' } }, 422, 'the organization\'s last owner cannot be demoted or deleted'],
        ['post', '/auth/email', { body: { email: 7 } }, 422, 'invalid request body'],
        ['put', '/api/admin/v1/sso', { session: org.owner, body: { issuer: 'https://idp.example', client_id: 'c', client_secret: 's', email_domains: ['Example.COM'], default_role: 'viewer', required: false } }, 422, 'invalid request body'],
        ['put', '/api/admin/v1/sso', { session: org.owner, body: { issuer: 'http://idp.example', client_id: 'c', client_secret: 's', email_domains: ['example.com'], default_role: 'viewer', required: false } }, 422, 'invalid request body'],
        ['get', '/api/admin/v1/audit', { token: org.admin, query: '?limit=0' }, 422, 'invalid query string'],
        ['get', '/api/admin/v1/audit', { token: org.admin, query: '?after=YWJj' }, 422, 'invalid query string'],
        ['get', '/api/admin/v1/reports/cases', { token: org.admin, query: '?from=2025-01-01&to=2026-06-01' }, 422, 'the range must not be longer than 366 days'],
        ['post', '/api/admin/v1/digests', { token: org.admin, body: { schedule: 'weekly', hour_utc: 6, recipients: ['ops@acme.example'] } }, 422, 'invalid request body'],
        ['patch', '/api/admin/v1/digests/{digestId}', { token: org.admin, params: { digestId: 1 }, body: {} }, 422, 'invalid request body'],
        ['put', '/api/admin/v1/workflows/{workflowId}/webhook/verification', { token: org.admin, params, body: { scheme: 'hmac', secret: 's' } }, 422, 'invalid request body'],
        ['post', webhookPath, { ...webhook, body: [1] }, 422, 'the request body must be a JSON object'],
        ['post', webhookPath, { ...webhook, body: { customer_email: 'nope' } }, 422, 'attributes_validation_failed'],
        ['post', webhookPath, { ...webhook, body: manyKeys }, 413, 'the JSON object has more than 1000 top-level keys'],
      ];
      await expectAnswers(probes);
    });
  });

  describe('documents the answers of the layers below the handlers', () => {
    it('refuses text holding U+0000 with a documented 422, never a 500', async () => {
      const org = await givenOrganization();
      const unstorable = 'the request holds a value that cannot be stored (\\u0000, an unpaired surrogate, or a number out of range)';
      await expectAnswers([
        ['post', '/api/admin/v1/tokens', { token: org.admin, body: { name: 'a\u0000b', scope: 'api' } }, 422, 'invalid request body'],
        ['post', '/api/operator/v1/organizations', { token: operatorToken(), body: { name: 'a\u0000b' } }, 422, 'invalid request body'],
        ['post', '/api/external/v1/workflows/{workflowId}/cases', { token: org.api, params: { workflowId: org.workflowId }, body: { subject: 'a\u0000b', attributes: { customer_email: 'a@b.co' } } }, 422, 'invalid request body'],
        ['post', '/api/admin/v1/workflows', { token: org.admin, body: sampleDefinition({ name: 'a\u0000b' }) }, 422, unstorable],
        ['get', '/api/admin/v1/cases', { token: org.admin, query: '?status=%00' }, 422, 'invalid query string'],
        ['get', '/api/external/v1/workflows/{workflowId}/cases', { token: org.api, params: { workflowId: org.workflowId }, query: '?attributes=%7B%22a%22%3A%22%5Cu0000%22%7D' }, 422, 'invalid query string'],
      ]);
    });

    it('answers malformed percent-encoding (400) and over-long ids (414) in every path with ids, as documented', async () => {
      const org = await givenOrganization();
      for (const operation of operations.filter((o) => o.path.includes('{'))) {
        const token = org.credentials[Object.keys(operation.op.security[0])[0]!];
        const ids = (id: string) => ({ token, params: sameIdEverywhere(operation.path, id) });
        await expectAnswers([
          [operation.method, operation.path, ids('%zz'), 400, 'malformed URL'],
          [operation.method, operation.path, ids('1'.repeat(201)), 414],
        ]);
      }
    });
  });
});
