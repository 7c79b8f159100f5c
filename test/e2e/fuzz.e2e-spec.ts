/**
 * Hostile input on every public endpoint (cases API, incoming webhook, admin and operator
 * APIs): property-based with fast-check, over 10,000 generated requests with valid, missing and
 * garbage credentials, then hand-written cases of each class with their exact status. Every
 * answer is below 500, one of the endpoint's documented statuses, and an error is JSON with a
 * string `error` and nothing internal. Refused creations create nothing (checked per batch).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { caseCount } from '../support/cases-api.js';
import {
  checkAnswer, contentType, credential, fuzz, hostileBody, hostileId, hostileNumberText, hostileString, hostileValue, INVALID_TYPES, isWellFormedId, MAX_BODY_BYTES,
  nested, numberLiteral, objectWith, objectWithKeys, OTHER_TYPES, pathId, type Auth, type FuzzCase, type Probe, queryString, requestsSent, templateValue,
} from '../support/hostile-input.js';
import { holdsOverlongNumber, NUMBER_TOO_LARGE } from '../support/number-oracle.js';
import { createOrganization, createToken, createWorkflow, generateWebhook, givenDirectWorkflow, operatorToken, sampleDefinition, type DirectWorkflow } from '../support/scenario.js';
import { closeDb, db, startTestApp, type InjectResult, type TestApp } from '../support/test-app.js';
import { directDefinition, webhookPath } from '../support/webhook-helpers.js';

/** Limits off: this suite sends thousands of requests from one address with one token. No workers. */
// SMTP_RELAY_URL only lets digests be created: the API role sends nothing.
const FUZZ_ENV = { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', ROLE: 'api', SMTP_RELAY_URL: 'smtp://127.0.0.1:9' };
const ADMIN = '/api/admin/v1';
const OPERATOR = '/api/operator/v1';
const EVENT_TYPES = ['case.created', 'case.status_changed', 'case.closed', 'case.reopened', 'case.errored'];
const WEBHOOK_DEFINITION = directDefinition({ name: 'Fuzzed webhook', attributes: { event: { type: 'string', required: true }, amount: { type: 'number' } } });

/** Org A takes cases (API and webhook), org B is the other tenant, org C is fuzzed through the admin API. */
interface World {
  a: DirectWorkflow & { webhookWorkflowId: number; webhookToken: string; caseIds: number[]; apiTokenId: number };
  b: DirectWorkflow & { caseId: number; apiTokenId: number };
  c: { adminToken: string; apiToken: string; workflowId: number; subscriptionId: number };
}

async function buildWorld(t: TestApp): Promise<World> {
  const a = await givenDirectWorkflow(t, sampleDefinition({ automations: {} }));
  const webhookWorkflowId = await createWorkflow(t, a.org, WEBHOOK_DEFINITION);
  const { token: webhookToken } = await generateWebhook(t, a.org, webhookWorkflowId);
  const caseIds = await Promise.all([1, 2, 3].map(async (i) => (await createCase(t, a, { subject: `seed ${i}`, attributes: { customer_email: `seed${i}@example.com` } })).body.case.id as number));
  const b = await givenDirectWorkflow(t, sampleDefinition({ automations: {} }));
  const bCase = await createCase(t, b, { attributes: { customer_email: 'other@example.com' } });
  const orgC = await createOrganization(t);
  const cApi = await createToken(t, orgC, 'api');
  const cWorkflow = await createWorkflow(t, orgC, directDefinition({ name: 'Admin fuzz' }));
  const subscription = await t.request('POST', `${ADMIN}/subscriptions`, { token: orgC.adminToken, body: { url: 'http://127.0.0.1:9/fuzz', events: ['case.closed'] } });
  assert.equal(subscription.status, 201, subscription.text);
  return {
    a: { ...a, webhookWorkflowId, webhookToken, caseIds, apiTokenId: await tokenIdOf(a.org.id, 'api') },
    b: { ...b, caseId: bCase.body.case.id, apiTokenId: await tokenIdOf(b.org.id, 'api') },
    c: { adminToken: orgC.adminToken, apiToken: cApi.secret, workflowId: cWorkflow, subscriptionId: subscription.body.subscription.id },
  };
}

async function createCase(t: TestApp, w: DirectWorkflow, body: unknown): Promise<InjectResult> {
  const res = await t.request('POST', w.casesPath, { token: w.apiToken, body });
  assert.equal(res.status, 201, res.text);
  return res;
}

async function tokenIdOf(organizationId: number, scope: string): Promise<number> {
  const { rows } = await db().query('SELECT id FROM access_tokens WHERE organization_id = $1 AND scope = $2 ORDER BY id LIMIT 1', [organizationId, scope]);
  return Number(rows[0].id);
}

async function casesOfOrganization(organizationId: number): Promise<number> {
  const { rows } = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM cases WHERE organization_id = $1', [organizationId]);
  return rows[0]!.n;
}

/**
 * Runs a batch of generated creations, checks the workflow gained exactly one case per fresh
 * 201 (so no refusal created one), and that the generators reached each of `reached`.
 */
async function fuzzCreations(t: TestApp, workflowId: number, cases: fc.Arbitrary<FuzzCase>, numRuns: number, reached: number[]): Promise<void> {
  const before = await caseCount(workflowId);
  let created = 0;
  const statuses = await fuzz(t, cases, numRuns, (_c, res) => {
    if (res.status === 201 && res.headers['idempotent-replayed'] !== 'true') created++;
  });
  assert.equal(await caseCount(workflowId), before + created, 'refused requests created no case, every 201 created one');
  assert.deepEqual(reached.filter((s) => !statuses.has(s)), [], `statuses answered: ${JSON.stringify([...statuses])}`);
}

/** Two path ids: who owns them decides whether a live credential may succeed. */
function ownerOf(ids: string[], owners: Record<string, string[]>): string | undefined {
  return Object.keys(owners).find((owner) => ids.every((id, i) => owners[owner]![i] === id));
}

/** A live credential (org `a`'s, or a `foreign` one of org `b`) succeeds only on its own organization's resources. */
function authOn(auth: Auth, owner: string | undefined): Auth {
  if (auth === 'invalid') return auth;
  return (auth === 'valid' ? 'a' : 'b') === owner ? 'valid' : 'foreign';
}

// ---------------------------------------------------------------------------------------------
// Near-valid bodies, so the handlers' own checks run

const nearValidCase = objectWith({
  subject: fc.oneof(fc.string({ maxLength: 40 }), hostileString, fc.constant(null)),
  attributes: fc.oneof(
    { weight: 4, arbitrary: objectWith({ customer_email: fc.oneof(fc.emailAddress(), hostileValue), priority: fc.oneof(fc.constantFrom(1, 2, 3), hostileValue), amount: fc.oneof(fc.double(), numberLiteral, hostileValue), vip: hostileValue, order: hostileValue, tags: hostileValue, raw: hostileValue }, 3) },
    { weight: 1, arbitrary: hostileValue },
  ),
  mode: fc.oneof(fc.constantFrom('live', 'test'), hostileString),
});
/** Bodies the cases API accepts (unless the email format says otherwise). */
const validCase = fc.record(
  {
    subject: fc.oneof(fc.string({ maxLength: 100 }), fc.constant(null)),
    attributes: fc.record(
      { customer_email: fc.emailAddress(), priority: fc.constantFrom(1, 2, 3, null), amount: fc.double({ noNaN: true, noDefaultInfinity: true }), vip: fc.boolean(), order: fc.object({ maxDepth: 2 }), tags: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }), raw: fc.jsonValue({ maxDepth: 2 }) },
      { requiredKeys: ['customer_email'] },
    ),
    mode: fc.constantFrom('live', 'test'),
  },
  { requiredKeys: ['attributes'] },
);
const nearValidStatus = objectWith({ status: fc.oneof(fc.constantFrom('Open', 'Closed', 'Error', 'Triage', 'Waiting on customer'), hostileString, hostileValue) }, 1);
const nearValidWebhook = objectWith({ event: fc.oneof(fc.string({ maxLength: 20 }), hostileValue), amount: fc.oneof(fc.double(), numberLiteral, hostileValue) }, 4);
const nearValidToken = objectWith({ name: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), hostileString), scope: fc.oneof(fc.constantFrom('api', 'admin'), hostileString) }, 1);
const nearValidOrganization = objectWith({ name: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), hostileString) }, 1);
const nearValidSubscription = objectWith({
  url: fc.oneof(fc.constantFrom('http://127.0.0.1:9/x', 'https://example.invalid/hook', 'javascript:alert(1)', 'file:///etc/passwd', 'http://[::1]/', 'ftp://x/', 'http://', 'http://a b/'), hostileString),
  events: fc.oneof(fc.array(fc.oneof(fc.constantFrom(...EVENT_TYPES), hostileString), { maxLength: 6 }), hostileValue),
  workflow_ids: fc.oneof(fc.array(fc.oneof(fc.integer(), fc.constant(2 ** 53), numberLiteral, hostileValue), { maxLength: 5 }), hostileValue),
});
const nearValidRecover = objectWith({ since: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom('2024-02-30', '2024-01-01T24:00:00Z', 'yesterday', '0'), hostileValue) }, 1);
const nearValidDigest = objectWith({
  schedule: fc.oneof(fc.constantFrom('daily', 'weekly', 'monthly', ''), hostileValue),
  hour_utc: fc.oneof(fc.integer({ min: -2, max: 25 }), numberLiteral, hostileValue),
  weekday: fc.oneof(fc.integer({ min: 0, max: 8 }), hostileValue),
  recipients: fc.oneof(fc.array(fc.oneof(fc.constantFrom('ops@acme.example', 'a@b', 'not an address', 'x@y.example\r\nBcc: z@evil.example'), hostileString), { maxLength: 22 }), hostileValue),
  workflow_ids: fc.oneof(fc.array(fc.oneof(fc.integer(), numberLiteral, hostileValue), { maxLength: 5 }), hostileValue),
});
/** Where a template value could move a request: before, inside and after the host, in headers, and secrets anywhere. */
const templatedUrl = fc
  .tuple(
    fc.constantFrom('https://crm.example', 'https://crm.example/', 'https://crm.example/a?k=', 'https://crm.example:', 'https://', 'http', '', 'https://crm.example/a#'),
    fc.oneof(templateValue, fc.constantFrom('{{ attributes.raw }}', '{{ secrets.CRM_KEY }}', '{{ secrets.crm }}', '{{ case.id }}', '{{attributes.raw}}', '{{ }}')),
    fc.oneof(fc.constant(''), templateValue, fc.constantFrom('/x', '?a={{ secrets.K }}', '{{ attributes.raw }}')),
  )
  .map((parts) => parts.join(''));
const httpRequestStep = objectWith({
  method: fc.oneof(fc.constantFrom('GET', 'POST'), hostileString),
  url: fc.oneof(templatedUrl, hostileString),
  url_from_attribute: fc.oneof(fc.boolean(), hostileValue),
  headers: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom('authorization', 'x-ref'), hostileString), fc.oneof(templateValue, templatedUrl), { maxKeys: 2 }), hostileValue),
  body: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(templateValue, templatedUrl), { maxKeys: 2 }), hostileValue),
}, 1).map((arg) => ({ http_request: arg }));
const secretName = fc.oneof(fc.constantFrom('CRM_KEY', 'A', `A${'B'.repeat(63)}`, `A${'B'.repeat(64)}`, 'crm_key', '1A', '_A', 'A-B', 'A.B', '%41', 'A%20B'), fc.stringMatching(/^[A-Z][A-Z0-9_]{0,10}$/));
/** Every scheme, its options mixed across schemes, and secrets around the size limit. */
const nearValidVerification = objectWith({
  scheme: fc.oneof(fc.constantFrom('github', 'stripe', 'slack', 'standard_webhooks', 'hmac', 'GitHub', 'sha256', ''), hostileValue),
  secret: fc.oneof(fc.constantFrom('s3cret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_not base64', ''), fc.integer({ min: 1020, max: 1030 }).map((n) => 'k'.repeat(n)), hostileValue),
  tolerance_seconds: fc.oneof(fc.integer({ min: -1, max: 4000 }), numberLiteral, hostileValue),
  header: fc.oneof(fc.constantFrom('X-Signature', 'x sig', 'X-Sig\r\nX-Other: 1', 'a'.repeat(101)), hostileValue),
  algorithm: fc.oneof(fc.constantFrom('sha256', 'sha512', 'sha1', 'md5'), hostileValue),
  encoding: fc.oneof(fc.constantFrom('hex', 'base64', 'base64url'), hostileValue),
  prefix: fc.oneof(fc.constantFrom('sha256=', '', 'p'.repeat(65)), hostileValue),
});
const nearValidSecret = objectWith({ value: fc.oneof(templateValue, fc.string({ maxLength: 40 }), fc.integer({ min: 8180, max: 8200 }).map((n) => 'k'.repeat(n)), hostileValue) }, 1);
const step = fc.oneof(
  httpRequestStep,
  hostileString.map((s) => ({ set_status: s })),
  hostileString.map((s) => ({ close: { outcome: s } })),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 3 }).map((a) => ({ set_attributes: a })),
  fc.oneof(fc.integer(), numberLiteral, hostileValue).map((seconds) => ({ wait: { seconds } })),
  hostileString.map((s) => ({ fail: s })),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 2 }),
);
const validDefinition = fc.record({
  name: fc.string({ minLength: 1, maxLength: 50 }),
  case_source: fc.constant('direct'),
  attributes: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'object', 'array', 'any'), required: fc.boolean() }), { maxKeys: 3 }),
  automations: fc.constant({}),
});
const nearValidDefinition = objectWith({
  name: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), hostileString),
  case_source: fc.oneof(fc.constantFrom('direct', 'ticketing', 'email'), hostileString),
  sensitive_data: fc.oneof(fc.boolean(), hostileValue),
  statuses: fc.oneof(fc.array(fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), hostileString), { maxLength: 4 }), hostileValue),
  default_outcome: fc.oneof(fc.string({ maxLength: 12 }), hostileValue),
  attributes: fc.oneof(
    fc.dictionary(
      fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), hostileString),
      objectWith({ type: fc.oneof(fc.constantFrom('string', 'integer', 'number', 'boolean', 'object', 'array', 'any'), hostileString), required: fc.oneof(fc.boolean(), hostileValue), enum: hostileValue, format: fc.oneof(fc.constantFrom('email', 'uri', 'date-time', 'date'), hostileString) }, 1),
      { maxKeys: 3 },
    ),
    hostileValue,
  ),
  automations: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom('Open', 'Closed', 'Error'), hostileString), fc.array(step, { maxLength: 3 }), { maxKeys: 2 }), hostileValue),
  webhook_dedup: fc.oneof(
    objectWith({
      key: fc.oneof(fc.constantFrom('/id', '/a~1b/~0c/0', '/', '', 'id', '/a~2', '/a~', `/${'k'.repeat(999)}`, `/${'k'.repeat(1_000)}`), hostileString),
      window_seconds: fc.oneof(fc.constantFrom(59, 60, 86_400, 604_800, 604_801, 60.5, -60, 0), numberLiteral, hostileValue),
    }, 1),
    hostileValue,
  ),
});

const idempotencyKey = fc.option(
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz-3') },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 255 }).filter((k) => /^[\x21-\x7e]+$/.test(k)) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'é', 'a b', 'x'.repeat(256), '\t', 'k\u0000') },
  ),
  { freq: 3 },
);

// ---------------------------------------------------------------------------------------------
// The generated requests, one family per endpoint group

function casesCreation(w: World): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      cred: credential(w.a.apiToken, [w.a.org.adminToken, w.c.adminToken, operatorToken()], [w.b.apiToken]),
      type: contentType(true),
      body: hostileBody(fc.oneof(validCase, nearValidCase), 'subject', { attributes: { customer_email: 'keys@example.com' } }),
      key: idempotencyKey,
    })
    .map(({ cred, type, body, key }): FuzzCase => ({
      probe: { method: 'POST', url: w.a.casesPath, body, contentType: type, authorization: cred.authorization, headers: key === null ? {} : { 'idempotency-key': key } },
      allowed: [201, 401, 404, 413, 415, 422],
      auth: cred.auth,
      readsBody: true,
      idsWellFormed: true,
      onSuccess: (res) => assert.equal(res.body.case.workflow_id, w.a.workflowId),
    }));
}

function casesReadAndUpdate(w: World): fc.Arbitrary<FuzzCase> {
  const owners = { a: [String(w.a.workflowId), String(w.a.caseIds[0])], b: [String(w.b.workflowId), String(w.b.caseId)] };
  return fc
    .record({
      cred: credential(w.a.apiToken, [w.a.org.adminToken], [w.b.apiToken]),
      workflowId: pathId(w.a.workflowId, w.b.workflowId),
      caseId: pathId(w.a.caseIds[0]!, w.b.caseId),
      patch: fc.boolean(),
      type: contentType(true),
      body: hostileBody(nearValidStatus, 'status'),
    })
    .map(({ cred, workflowId, caseId, patch, type, body }): FuzzCase => ({
      probe: { method: patch ? 'PATCH' : 'GET', url: `/api/external/v1/workflows/${workflowId}/cases/${caseId}`, authorization: cred.authorization, ...(patch ? { body, contentType: type } : {}) },
      allowed: patch ? [200, 401, 404, 413, 415, 422] : [200, 401, 404],
      auth: authOn(cred.auth, ownerOf([workflowId, caseId], owners)),
      readsBody: patch,
      idsWellFormed: isWellFormedId(workflowId) && isWellFormedId(caseId),
      onSuccess: (res) => assert.deepEqual([res.body.case.id, res.body.case.workflow_id], [Number(caseId), Number(workflowId)]),
    }));
}

function webhookQuery(token: string, otherToken: string): fc.Arbitrary<{ query: string; valid: boolean }> {
  const valid = (q: string) => ({ query: q, valid: true });
  const invalid = (q: string) => ({ query: q, valid: false });
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(valid(`token=${token}`), valid(`token=${token}&extra=1`), valid(`x=%00&token=${token}`)) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        invalid(''), invalid('token='), invalid(`token=${token}&token=${token}`), invalid(`token[]=${token}`), invalid(`token[0]=${token}`), invalid(`TOKEN=${token}`),
        invalid(`token=${token}%00`), invalid('token=%00'), invalid(`token=${token.slice(0, -1)}`), invalid(`token=%20${token}`), invalid(`token=${otherToken}`),
        invalid(`token=${'a'.repeat(10_000)}`), invalid(`token=${token}%ED%A0%80`), invalid(`token=' OR '1'='1`), invalid('token'),
      ),
    },
    { weight: 1, arbitrary: hostileString.map((s) => invalid(`token=${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))}`)) },
  );
}

function webhookPosts(w: World, otherToken: string): fc.Arbitrary<FuzzCase> {
  return fc
    .record({
      workflowId: fc.oneof({ weight: 12, arbitrary: fc.constant(String(w.a.webhookWorkflowId)) }, { weight: 1, arbitrary: fc.constant(String(w.a.workflowId)) }, { weight: 2, arbitrary: hostileId }),
      query: webhookQuery(w.a.webhookToken, otherToken),
      // Syntactically invalid media types are left out here: see "the webhook reads any Content-Type" below.
      type: contentType(false),
      body: hostileBody(nearValidWebhook, 'event', { event: 'keys' }),
      cred: fc.option(fc.constantFrom(`Bearer ${w.a.apiToken}`, 'Bearer garbage')),
    })
    .map(({ workflowId, query, type, body, cred }): FuzzCase => ({
      probe: { method: 'POST', url: `/api/external/v1/workflows/${workflowId}/case_webhooks?${query.query}`, body, contentType: type, authorization: cred ?? undefined },
      allowed: [201, 401, 413, 422],
      auth: query.valid && workflowId === String(w.a.webhookWorkflowId) ? 'valid' : 'invalid',
      readsBody: true,
      lenient: true,
      idsWellFormed: true,
      onSuccess: (res) => assert.match(res.text, /^\{"case":\{"id":[1-9][0-9]*,"source_type":"Webhook"\}\}$/),
    }));
}

function adminBodies(w: World): fc.Arbitrary<FuzzCase> {
  const admin = credential(w.c.adminToken, [w.c.apiToken, operatorToken()]);
  const write = (method: string, url: string, body: fc.Arbitrary<unknown>, allowed: number[], cred = admin, auth = (a: Auth) => a) =>
    fc.record({ cred, type: contentType(true), body: hostileBody(body, 'name') }).map(({ cred: c, type, body: b }): FuzzCase => ({
      probe: { method, url, body: b, contentType: type, authorization: c.authorization },
      allowed,
      auth: auth(c.auth),
      readsBody: true,
      idsWellFormed: true,
    }));
  const created = [201, 401, 413, 415, 422];
  /** A PUT on organization c's workflow; on a's it must not succeed. */
  const putOnWorkflow = (url: (id: string) => string, body: fc.Arbitrary<unknown>) =>
    pathId(w.c.workflowId, w.a.workflowId).chain((id) =>
      write('PUT', url(id), body, [200, 401, 404, 413, 415, 422], admin, (a) => (a === 'valid' && id !== String(w.c.workflowId) ? 'foreign' : a)).map((c) => ({ ...c, idsWellFormed: isWellFormedId(id) })),
    );
  /** A body sent to organization c's subscription (at `suffix`), or to a hostile id. */
  const onSubscription = (method: string, suffix: string, body: fc.Arbitrary<unknown>, allowed: number[]) =>
    pathId(w.c.subscriptionId).chain((id) =>
      write(method, `${ADMIN}/subscriptions/${id}${suffix}`, body, allowed, admin, (a) => (a === 'valid' && id !== String(w.c.subscriptionId) ? 'foreign' : a)).map((c) => ({ ...c, idsWellFormed: isWellFormedId(id) })),
    );
  return fc.oneof(
    write('POST', `${ADMIN}/tokens`, nearValidToken, created),
    write('POST', `${ADMIN}/workflows`, fc.oneof(validDefinition, nearValidDefinition), created),
    write('POST', `${ADMIN}/subscriptions`, nearValidSubscription, created),
    write('POST', `${ADMIN}/digests`, nearValidDigest, created),
    onSubscription('PATCH', '', nearValidSubscription, [200, 401, 404, 413, 415, 422]),
    onSubscription('POST', '/recover', nearValidRecover, [202, 401, 404, 413, 415, 422]),
    secretName.chain((name) => write('PUT', `${ADMIN}/secrets/${name}`, nearValidSecret, [200, 401, 413, 415, 422])),
    write('POST', `${OPERATOR}/organizations`, nearValidOrganization, created, credential(operatorToken(), [w.c.adminToken, w.a.apiToken])),
    putOnWorkflow((id) => `${ADMIN}/workflows/${id}/webhook/verification`, nearValidVerification),
    putOnWorkflow((id) => `${ADMIN}/workflows/${id}`, fc.oneof(validDefinition, nearValidDefinition)),
  );
}

const isoLike = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom(
    '2024-02-30', '2024-13-01', '+275760-09-13T00:00:00.000Z', '-000001-01-01T00:00:00Z', '2024-01-01T24:00:00Z', '2024-W01-1', '2024-001', '20240101T000000Z',
    '2024-01-01T00:00:00+25:00', '9999-12-31T23:59:59.999Z', '0000-01-01', '1970-01-01T00:00:00Z', '2024-01-01T00:00:00.123456789Z', '2024-01-01T00:00:60Z', '2024',
  ),
  hostileString.filter((s) => s.length < 100),
);

/** Attribute filters: near-valid objects, and text Postgres would refuse or amplify. */
const attributeFilter = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.constantFrom(
    '{"customer_email":"seed1@example.com"}', '{"order":{"total":12.5}}', '{}', '{"a":{"b":[1,2]}}', '{"x":1e999999}', '{"x":-1e-999999}', '{"x":"\\u0000"}',
    '{"\\u0000":1}', '{"a":"\\ud800"}', '{"__proto__":{"x":1}}', '[1]', 'null', '"x"', '{', `${'{"a":'.repeat(70)}1${'}'.repeat(70)}`, `{"a":"${'x'.repeat(9000)}"}`,
  ),
);

/** The cases API's list and change feed: any query, any workflow id, any credential; a 200 shows only that workflow's cases. */
function casesListAndFeed(w: World): fc.Arbitrary<FuzzCase> {
  const owners = { a: [String(w.a.workflowId)], b: [String(w.b.workflowId)] };
  const listValue = fc.oneof(fc.constantFrom('Open', 'Open,Closed', 'Triage,', ',', 'live', 'test', '1', '200', '201', '0'), isoLike, attributeFilter, hostileString);
  const target = fc.oneof(
    queryString(['status', 'mode', 'created_after', 'created_before', 'updated_after', 'updated_before', 'attributes', 'limit', 'cursor'], listValue).map((q) => ({ path: '', q })),
    queryString(['after', 'limit'], fc.oneof(fc.constantFrom('1', '50', '200', '201', 'ZC4wLjA', 'Zi4wLjA', 'Zi4wLjAw', 'Zi4xODQ0Njc0NDA3MzcwOTU1MTYxNi4x'), hostileString)).map((q) => ({ path: '/changes', q })),
  );
  return fc.record({ cred: credential(w.a.apiToken, [w.a.org.adminToken], [w.b.apiToken]), workflowId: pathId(w.a.workflowId, w.b.workflowId), target }).map(({ cred, workflowId, target: { path, q } }): FuzzCase => ({
    probe: { method: 'GET', url: `/api/external/v1/workflows/${workflowId}/cases${path}?${q}`, authorization: cred.authorization },
    allowed: [200, 401, 404, 422],
    auth: authOn(cred.auth, ownerOf([workflowId], owners)),
    readsBody: false,
    idsWellFormed: isWellFormedId(workflowId),
    onSuccess: (res) => {
      assert.deepEqual(Object.keys(res.body), ['cases', 'next_cursor']);
      assert.ok(path === '' ? res.body.next_cursor === null || typeof res.body.next_cursor === 'string' : typeof res.body.next_cursor === 'string');
      for (const c of res.body.cases) assert.equal(c.workflow_id, Number(workflowId), `another workflow's case listed for ${q}`);
    },
  }));
}

function adminQueries(w: World): fc.Arbitrary<FuzzCase> {
  const aAdmin = credential(w.a.org.adminToken, [w.a.apiToken, operatorToken()]);
  const cAdmin = credential(w.c.adminToken, [w.c.apiToken]);
  const aWorkflows = [w.a.workflowId, w.a.webhookWorkflowId];
  const read = (cred: fc.Arbitrary<{ authorization?: string | string[]; auth: Auth }>, url: fc.Arbitrary<{ url: string; ours: boolean; ids?: string[] }>, allowed: number[], onSuccess?: (res: InjectResult, url: string) => void) =>
    fc.record({ cred, target: url }).map(({ cred: c, target }): FuzzCase => ({
      probe: { method: 'GET', url: target.url, authorization: c.authorization },
      allowed,
      auth: c.auth === 'valid' && !target.ours ? 'foreign' : c.auth,
      readsBody: false,
      idsWellFormed: (target.ids ?? []).every(isWellFormedId),
      onSuccess: onSuccess && ((res) => onSuccess(res, target.url)),
    }));
  const listQuery = queryString(['workflow_id', 'status', 'mode', 'source', 'limit', 'cursor']).map((q) => ({ url: `${ADMIN}/cases?${q}`, ours: true }));
  const usageQuery = queryString(['from', 'to'], isoLike).map((q) => ({ url: `${ADMIN}/usage?${q}`, ours: true }));
  const reportQuery = queryString(['from', 'to', 'interval', 'workflow_id'], fc.oneof(isoLike, fc.constantFrom('hour', 'day', 'week', 'month', '1', '0', '-1'))).map((q) => ({ url: `${ADMIN}/reports/cases?${q}`, ours: true }));
  const byId = (real: number, path: (id: string) => string, ...others: number[]) => pathId(real, ...others).map((id) => ({ url: path(id), ours: id === String(real), ids: [id] }));
  const anyQuery = queryString(['limit', 'token', 'cursor']);
  return fc.oneof(
    read(aAdmin, listQuery, [200, 401, 422], (res, url) => assertListMatchesFilters(res, url, aWorkflows)),
    read(aAdmin, usageQuery, [200, 401, 422], (res) => assert.deepEqual(Object.keys(res.body), ['usage'])),
    read(aAdmin, reportQuery, [200, 401, 422], (res) => assert.deepEqual(Object.keys(res.body), ['report'])),
    read(aAdmin, byId(w.a.caseIds[0]!, (id) => `${ADMIN}/cases/${id}/timeline`, w.b.caseId), [200, 401, 404]),
    read(cAdmin, fc.tuple(byId(w.c.subscriptionId, (id) => `${ADMIN}/subscriptions/${id}/deliveries`), anyQuery).map(([t, q]) => ({ ...t, url: `${t.url}?${q}` })), [200, 401, 404, 422]),
    read(cAdmin, byId(w.c.workflowId, (id) => `${ADMIN}/workflows/${id}`, w.a.workflowId), [200, 401, 404]),
    read(cAdmin, byId(w.c.workflowId, (id) => `${ADMIN}/workflows/${id}/webhook`, w.a.webhookWorkflowId), [200, 401, 404]),
    read(cAdmin, fc.tuple(fc.constantFrom('tokens', 'workflows', 'subscriptions'), anyQuery).map(([r, q]) => ({ url: `${ADMIN}/${r}?${q}`, ours: true })), [200, 401]),
    read(credential(operatorToken(), [w.c.adminToken]), anyQuery.map((q) => ({ url: `${OPERATOR}/organizations?${q}`, ours: true })), [200, 401]),
  );
}

/** A 200 from the admin case list: only the caller's cases, and only those its filters name. */
function assertListMatchesFilters(res: InjectResult, url: string, ownWorkflows: number[]): void {
  assert.deepEqual(Object.keys(res.body), ['cases', 'next_cursor']);
  let params: URLSearchParams | undefined;
  try {
    decodeURIComponent(url);
    params = new URLSearchParams(url.split('?')[1]);
  } catch {
    params = undefined; // a malformed escape: decoders may differ, only the tenancy is checked
  }
  for (const c of res.body.cases) {
    assert.ok(ownWorkflows.includes(c.workflow_id), `another organization's case ${JSON.stringify(c).slice(0, 200)} listed for ${url}`);
    for (const [filter, field] of [['status', 'status'], ['mode', 'mode'], ['source', 'source_type'], ['workflow_id', 'workflow_id']]) {
      const wanted = params?.get(filter!);
      if (wanted === null || wanted === undefined) continue;
      if (filter === 'status') assert.ok(wanted.split(',').includes(c.status), `${url}: status filter`);
      else assert.equal(String(c[field!]), wanted, `${url}: ${filter} filter`);
    }
  }
}

function adminActions(w: World): fc.Arbitrary<FuzzCase> {
  const action = (method: string, path: (id: string) => string, ids: fc.Arbitrary<string>, allowed: number[], ours: (id: string) => boolean, cred = credential(w.c.adminToken, [w.c.apiToken])) =>
    fc.record({ cred, id: ids, body: fc.option(hostileBody(fc.constant({}), 'name'), { freq: 4 }), type: contentType(true) }).map(({ cred: c, id, body, type }): FuzzCase => ({
      probe: { method, url: path(id), authorization: c.authorization, ...(body === null ? {} : { body, contentType: type }) },
      allowed: [...allowed, 413, 415],
      auth: c.auth === 'valid' && !ours(id) ? 'foreign' : c.auth,
      readsBody: false,
      idsWellFormed: isWellFormedId(id),
    }));
  const isC = (id: string) => id === String(w.c.workflowId);
  // Only ids no one can own, or another organization's: these requests must not touch the other suites' data.
  const never = () => false;
  return fc.oneof(
    action('POST', (id) => `${ADMIN}/workflows/${id}/publish`, pathId(w.c.workflowId, w.a.workflowId), [200, 401, 404, 422], isC),
    action('POST', (id) => `${ADMIN}/workflows/${id}/unpublish`, pathId(w.c.workflowId, w.a.workflowId), [200, 401, 404, 422], isC),
    action('POST', (id) => `${ADMIN}/workflows/${id}/webhook`, pathId(w.c.workflowId, w.a.webhookWorkflowId), [201, 401, 404, 422], isC),
    action('DELETE', (id) => `${ADMIN}/tokens/${id}`, pathId(w.a.apiTokenId, w.b.apiTokenId), [204, 401, 404], never),
    action('DELETE', (id) => `${ADMIN}/subscriptions/${id}`, hostileId, [204, 401, 404], never),
    action('POST', (id) => `${ADMIN}/subscriptions/${w.c.subscriptionId}/deliveries/${id}/retry`, hostileId, [202, 401, 404], never),
    action('POST', (id) => `${ADMIN}/subscriptions/${id}/enable`, hostileId, [200, 401, 404], never),
    action('POST', (id) => `${ADMIN}/subscriptions/${id}/rotate-secret`, hostileId, [200, 401, 404], never),
    action('POST', (id) => `${OPERATOR}/workflows/${id}/webhook/rotate`, hostileId, [200, 401, 404, 422], never, credential(operatorToken(), [w.c.adminToken, w.a.apiToken])),
  );
}

describe('hostile input', () => {
  let t: TestApp;
  let w: World;
  let otherWebhookToken: string;
  before(async () => {
    t = await startTestApp({ env: FUZZ_ENV });
    w = await buildWorld(t);
    const other = await givenDirectWorkflow(t, WEBHOOK_DEFINITION);
    otherWebhookToken = (await generateWebhook(t, other.org, other.workflowId)).token;
  });
  after(async () => { await t.close(); await closeDb(); });

  describe('generated requests', () => {
    it('cases API, create: 2,000 requests', async () => {
      await fuzzCreations(t, w.a.workflowId, casesCreation(w), 2_000, [201, 401, 404, 413, 415, 422]);
    });

    it('cases API, read and status change on hostile ids: 1,500 requests', async () => {
      await fuzz(t, casesReadAndUpdate(w), 1_500);
    });

    it('cases API, list and change feed: 1,000 requests', async () => {
      await fuzz(t, casesListAndFeed(w), 1_000);
    });

    it('incoming webhook: 2,000 requests', async () => {
      const before = await caseCount(w.a.workflowId);
      await fuzzCreations(t, w.a.webhookWorkflowId, webhookPosts(w, otherWebhookToken), 2_000, [201, 401, 413, 422]);
      assert.equal(await caseCount(w.a.workflowId), before, 'nothing reached the workflow without a webhook');
    });

    it('admin and operator API, bodies: 2,000 requests', async () => {
      await fuzz(t, adminBodies(w), 2_000);
    });

    it('admin and operator API, queries and path ids: 2,000 requests', async () => {
      await fuzz(t, adminQueries(w), 2_000);
    });

    it('admin and operator API, actions on hostile ids: 1,000 requests', async () => {
      await fuzz(t, adminActions(w), 1_000);
      assert.equal(await casesOfOrganization(w.b.org.id), 1, "the other organization's data is untouched");
    });

    it('sent at least 10,000 generated requests', () => {
      assert.ok(requestsSent() >= 10_000, `only ${requestsSent()} requests`);
    });
  });

  describe('hand-written', () => {
    const post = (url: string, body: string | Buffer, extra: Partial<Probe> = {}): Probe => ({ method: 'POST', url, body, ...extra });
    const hook = (body: string | Buffer, extra: Partial<Probe> = {}) => post(webhookPath(w.a.webhookWorkflowId, w.a.webhookToken), body, extra);
    const apiPost = (body: string | Buffer, extra: Partial<Probe> = {}) => post(w.a.casesPath, body, { authorization: `Bearer ${w.a.apiToken}`, ...extra });
    const adminPost = (url: string, body: string | Buffer) => post(url, body, { authorization: `Bearer ${w.c.adminToken}` });
    /** The answer has exactly this status (and, as every answer, a well-formed body). */
    const expectStatus = (probe: Probe, status: number) =>
      checkAnswer(t, { probe, allowed: [status], auth: 'valid', readsBody: false, lenient: probe.url.includes('/case_webhooks'), idsWellFormed: false });

    /** Each probe is answered `status`, and neither create endpoint gained a case. */
    async function refusedWithoutCases(status: number, probes: Probe[]): Promise<void> {
      const before = [await caseCount(w.a.workflowId), await caseCount(w.a.webhookWorkflowId)];
      for (const probe of probes) await expectStatus(probe, status);
      assert.deepEqual([await caseCount(w.a.workflowId), await caseCount(w.a.webhookWorkflowId)], before, 'no case was created');
    }

    it('bodies nested 65 to 100,000 levels deep are a 422 on every endpoint that reads a body, never a stack overflow', async () => {
      const caseUrl = `${w.a.casesPath}/${w.a.caseIds[1]}`;
      for (const depth of [65, 1_000, 100_000]) {
        for (const kind of ['array', 'object'] as const) {
          const body = nested(depth, kind);
          await refusedWithoutCases(422, [
            hook(body),
            hook(`{"event":"x","deep":${body}}`),
            apiPost(body),
            apiPost(`{"attributes":{"customer_email":"a@b.co","order":${body}}}`),
            { method: 'PATCH', url: caseUrl, body, authorization: `Bearer ${w.a.apiToken}` },
            adminPost(`${ADMIN}/workflows`, body),
            { method: 'PUT', url: `${ADMIN}/workflows/${w.c.workflowId}`, body, authorization: `Bearer ${w.c.adminToken}` },
            adminPost(`${ADMIN}/tokens`, body),
            adminPost(`${ADMIN}/subscriptions`, body),
            post(`${OPERATOR}/organizations`, body, { authorization: `Bearer ${operatorToken()}` }),
          ]);
        }
      }
    });

    it('64 levels of nesting are still accepted', async () => {
      await expectStatus(hook(`{"event":"x","deep":${nested(63, 'array')}}`), 201);
      await expectStatus(apiPost(`{"attributes":{"customer_email":"a@b.co","order":${nested(62, 'object')}}}`), 201);
    });

    it('more than 1,000 top-level keys on the webhook is a 413; 1,000 are accepted', async () => {
      await refusedWithoutCases(413, [hook(objectWithKeys(5_000, { event: 'x' })), hook(objectWithKeys(1_000, { event: 'x' })), hook(objectWithKeys(5_000))]);
      await expectStatus(hook(objectWithKeys(999, { event: 'x' })), 201);
    });

    it('5,000 keys on the cases API: top-level keys are a 422; as attributes they are kept', async () => {
      await refusedWithoutCases(422, [apiPost(objectWithKeys(5_000))]);
      const res = await expectStatus(apiPost(`{"attributes":${objectWithKeys(5_000, { customer_email: 'k@example.com' })}}`), 201);
      assert.equal(Object.keys(res.body.case.attributes).length, 5_001);
    });

    it('a body of exactly 1 MB with one long string is accepted; one byte more is a 413', async () => {
      const ofSize = (bytes: number) => `{"event":"${'x'.repeat(bytes - '{"event":""}'.length)}"}`;
      assert.equal(Buffer.byteLength(ofSize(MAX_BODY_BYTES)), MAX_BODY_BYTES);
      await refusedWithoutCases(413, [hook(ofSize(MAX_BODY_BYTES + 1)), apiPost(ofSize(MAX_BODY_BYTES + 1)), hook(ofSize(4 * MAX_BODY_BYTES))]);
      await expectStatus(hook(ofSize(MAX_BODY_BYTES)), 201);
    });

    it('very long strings in bounded fields are a 422', async () => {
      const long = 'x'.repeat(1_000_000);
      await refusedWithoutCases(422, [apiPost(JSON.stringify({ subject: long, attributes: { customer_email: 'a@b.co' } })), apiPost(JSON.stringify({ subject: 'x'.repeat(1_001), attributes: { customer_email: 'a@b.co' } }))]);
      await expectStatus(adminPost(`${ADMIN}/tokens`, JSON.stringify({ name: long, scope: 'api' })), 422);
      await expectStatus(post(`${OPERATOR}/organizations`, JSON.stringify({ name: long }), { authorization: `Bearer ${operatorToken()}` }), 422);
    });

    it('malformed JSON is a 422 and creates nothing', async () => {
      const texts = ['{"event":"x",', '{"event":"x"} trailing', '{"event":"x"}}', "{'event':'x'}", '\ufeff{"event":"x"}', '{"event":"x"', 'NaN', '{"event":"\\x41"}', '{"event":"a\nb"}'];
      await refusedWithoutCases(422, [...texts.map((text) => hook(text)), ...texts.map((text) => apiPost(text))]);
    });

    it('values Postgres cannot store (\\u0000, lone surrogates, numbers out of range) are a 422 and create nothing', async () => {
      const values = ['"\\u0000"', '"a\\u0000b"', '"\\ud800"', '"x\\udfff"', '"\\udc00\\ud800"', '1e1000000'];
      await refusedWithoutCases(422, [
        ...values.map((v) => hook(`{"event":"x","v":${v}}`)),
        ...values.map((v) => apiPost(`{"attributes":{"customer_email":"a@b.co","raw":${v}}}`)),
        hook('{"event":"x","\\u0000":1}'),
        hook('{"event":"x","\\ud800":1}'),
      ]);
    });

    it('number forms (huge and tiny exponents, long mantissas, negative zero) are a 201 or, when written out too long, a 422 at their pointer (80 runs)', async () => {
      await fc.assert(
        fc.asyncProperty(hostileNumberText, async (n) => {
          const overlong = await holdsOverlongNumber(n);
          for (const [probe, path] of [[hook(`{"event":"x","v":[${n}]}`), '/v/0'], [apiPost(`{"attributes":{"customer_email":"a@b.co","raw":{"n":${n}}}}`), '/raw/n']] as const) {
            const res = await expectStatus(probe, overlong ? 422 : 201);
            // A number Postgres cannot hold at all (0e2147483648) is refused by Postgres, without a pointer.
            if (overlong && res.body.validation_errors) assert.deepEqual(res.body.validation_errors, [{ path, error: NUMBER_TOO_LARGE }]);
          }
        }),
        { numRuns: 80 },
      );
    });

    it('invalid UTF-8 never fails: read as U+FFFD, stored and read back as valid JSON', async () => {
      const body = Buffer.concat([Buffer.from('{"event":"a'), Buffer.from([0xff, 0xfe, 0x80, 0xed, 0xa0, 0x80, 0xc3]), Buffer.from('b"}')]);
      const created = await expectStatus(hook(body), 201);
      const read = await expectStatus({ method: 'GET', url: `/api/external/v1/workflows/${w.a.webhookWorkflowId}/cases/${created.body.case.id}`, authorization: `Bearer ${w.a.apiToken}` }, 200);
      assert.match(read.body.case.attributes.event, /^a\ufffd+b$/);
      await expectStatus(apiPost(Buffer.from([0xff, 0xfe, 0x7b, 0x7d])), 422);
    });

    it('a non-JSON content type is a 415 outside the webhook and creates nothing', async () => {
      const json = JSON.stringify({ attributes: { customer_email: 'a@b.co' } });
      await refusedWithoutCases(415, [...OTHER_TYPES, ...INVALID_TYPES].map((type) => apiPost(json, { contentType: type })));
      await expectStatus({ ...adminPost(`${ADMIN}/tokens`, '{"name":"x","scope":"api"}'), contentType: 'text/plain' }, 415);
    });

    it('an empty body of a non-JSON type is a 415 before any header is judged (a blank Idempotency-Key)', async () => {
      await refusedWithoutCases(415, OTHER_TYPES.map((type) => apiPost('', { contentType: type, headers: { 'idempotency-key': ' ' } })));
    });

    it('the webhook reads a body sent with a wrong, well-formed Content-Type as JSON', async () => {
      for (const type of [...OTHER_TYPES, null]) await expectStatus(hook('{"event":"typed"}', { contentType: type }), 201);
    });

    it('the webhook reads a body sent with a Content-Type that is not a media type as JSON (never a 415)', async () => {
      const answers: string[] = [];
      for (const type of INVALID_TYPES) {
        const res = await t.request('POST', webhookPath(w.a.webhookWorkflowId, w.a.webhookToken), { rawBody: '{"event":"typed"}', headers: { 'content-type': type } });
        answers.push(`${JSON.stringify(type)} → ${res.status}`);
      }
      assert.deepEqual(answers, INVALID_TYPES.map((type) => `${JSON.stringify(type)} → 201`));
    });

    it('odd but legal Authorization headers: scheme in any case, duplicates (the first counts, as in Node), very long ones', async () => {
      const body = JSON.stringify({ attributes: { customer_email: 'a@b.co' } });
      await expectStatus(apiPost(body, { authorization: `bearer ${w.a.apiToken}` }), 201);
      await expectStatus(apiPost(body, { authorization: [`Bearer ${w.a.apiToken}`, 'Bearer garbage'] }), 201);
      await refusedWithoutCases(401, [
        apiPost(body, { authorization: ['Bearer garbage', `Bearer ${w.a.apiToken}`] }),
        apiPost(body, { authorization: `Bearer ${'a'.repeat(100_000)}` }),
        apiPost(body, { authorization: `Bearer ${w.a.apiToken}\u00e9` }),
        apiPost(body, { authorization: `Bearer\t${w.a.apiToken}` }),
        apiPost(body, { authorization: w.a.apiToken }),
        apiPost(body, { authorization: `Bearer ${w.a.org.adminToken}` }),
        apiPost(body, { authorization: undefined, headers: { 'x-api-key': w.a.apiToken, cookie: `token=${w.a.apiToken}` } }),
      ]);
    });

    it('an Idempotency-Key that is not 1 to 255 printable ASCII characters is a 422', async () => {
      const body = JSON.stringify({ attributes: { customer_email: 'a@b.co' } });
      await refusedWithoutCases(422, ['', ' ', 'é', 'a b', 'x'.repeat(256), 'k\u0000'].map((key) => apiPost(body, { headers: { 'idempotency-key': key } })));
    });

    it('query injection on the webhook token is a 401 and creates nothing', async () => {
      const token = w.a.webhookToken;
      const base = `/api/external/v1/workflows/${w.a.webhookWorkflowId}/case_webhooks`;
      const queries = [`token[]=${token}`, `token=${token}&token=${token}`, `token[]=a&token=b`, 'token=%00', `token=${token}%00`, `token[0]=${token}`, `TOKEN=${token}`, "token=' OR '1'='1", 'token=', ''];
      await refusedWithoutCases(401, queries.map((q) => post(`${base}?${q}`, '{"event":"x"}')));
    });

    it('path ids that are not positive integers below 2^53 name nothing: 404 (401 on the webhook, 400 when the URL is malformed)', async () => {
      const ids = ['0', '-1', '1e3', '0x10', '1.0', '01', '9007199254740992', '9007199254740993', '18446744073709551616', '18446744073709551617', '%D9%A1', '%EF%BC%91', '%2F', 'abc', '%00', "1'%20OR%20'1'%3D'1"];
      const asApi = { authorization: `Bearer ${w.a.apiToken}` };
      for (const id of ids) {
        await expectStatus({ method: 'GET', url: `${w.a.casesPath}/${id}`, ...asApi }, 404);
        await expectStatus({ method: 'GET', url: `/api/external/v1/workflows/${id}/cases/${w.a.caseIds[0]}`, ...asApi }, 404);
        await expectStatus({ method: 'GET', url: `${ADMIN}/cases/${id}/timeline`, authorization: `Bearer ${w.a.org.adminToken}` }, 404);
        await expectStatus({ method: 'DELETE', url: `${ADMIN}/tokens/${id}`, authorization: `Bearer ${w.c.adminToken}` }, 404);
      }
      await refusedWithoutCases(401, ids.map((id) => post(webhookPath(id, w.a.webhookToken), '{"event":"x"}')));
      await refusedWithoutCases(404, ids.map((id) => apiPost('{"attributes":{"customer_email":"a@b.co"}}', { method: 'POST', url: `/api/external/v1/workflows/${id}/cases` })));
      for (const id of ['%', '%ZZ', '%E0%A4%A', '%ED%A0%80']) await expectStatus({ method: 'GET', url: `${w.a.casesPath}/${id}`, ...asApi }, 400);
      // Beyond the router's 200-character parameters: 414, documented for every route with a path id.
      for (const id of ['1'.repeat(201), 'a'.repeat(1_000)]) {
        await expectStatus({ method: 'GET', url: `${w.a.casesPath}/${id}`, ...asApi }, 414);
        await expectStatus(post(webhookPath(id, w.a.webhookToken), '{"event":"x"}'), 414);
      }
      await expectStatus({ method: 'GET', url: `${w.a.casesPath}/${w.a.caseIds[0]}`, ...asApi }, 200);
    });

    it('SQL in the admin case filters matches nothing and never reaches another organization', async () => {
      const stored = async () => [await casesOfOrganization(w.a.org.id), await casesOfOrganization(w.b.org.id)];
      const before = await stored();
      const list = (token: string, query: string) => expectStatus({ method: 'GET', url: `${ADMIN}/cases?${query}`, authorization: `Bearer ${token}` }, 200);
      for (const status of ["x' OR '1'='1", "Open' --", "Open' OR 1=1 --", "'; DROP TABLE cases; --", 'Open%00', '%25']) {
        for (const token of [w.a.org.adminToken, w.b.org.adminToken]) {
          assert.equal((await list(token, `status=${encodeURIComponent(status)}`)).text, '{"cases":[],"next_cursor":null}');
        }
      }
      assert.equal((await list(w.a.org.adminToken, `workflow_id=${w.b.workflowId}`)).text, '{"cases":[],"next_cursor":null}');
      const own = await list(w.a.org.adminToken, 'status=Open&limit=100');
      assert.ok(own.body.cases.length > 0, 'the filter does match real statuses');
      for (const c of own.body.cases) assert.ok([w.a.workflowId, w.a.webhookWorkflowId].includes(c.workflow_id));
      for (const query of ["mode=live' OR '1'='1", "source=API' --", "limit=1; DROP TABLE cases", "cursor=1 OR 1=1", "workflow_id=1 OR 1=1"]) {
        await expectStatus({ method: 'GET', url: `${ADMIN}/cases?${encodeURI(query)}`, authorization: `Bearer ${w.a.org.adminToken}` }, 422);
      }
      assert.deepEqual(await stored(), before, 'the cases table is intact');
    });

    it('the cases API list and feed refuse malformed filters and cursors with 422, and forged cursors name nothing of another workflow', async () => {
      const asApi = { authorization: `Bearer ${w.a.apiToken}` };
      for (const query of ['status=', 'status=a,,b', `status=${'x,'.repeat(50)}x`, 'mode=LIVE', 'created_after=2024-02-30T00:00:00Z', 'updated_before=2024-01-01', 'attributes=%7B', 'attributes=%5B%5D',
        'attributes=%7B%22x%22%3A1e999999%7D', 'attributes=%7B%22x%22%3A%22%5Cu0000%22%7D', 'limit=201', 'cursor=Zi4wLjA', 'cursor=%00', 'status=a&status=b', 'workflow_id=1', 'source=API']) {
        await expectStatus({ method: 'GET', url: `${w.a.casesPath}?${query}`, ...asApi }, 422);
      }
      for (const query of ['after=', 'after=ZC4wLjA', 'after=Zi4wLjAw', 'after=Zi4xODQ0Njc0NDA3MzcwOTU1MTYxNi4x', 'after=Zi4wLjA&after=Zi4wLjA', 'limit=0', 'cursor=Zi4wLjA']) {
        await expectStatus({ method: 'GET', url: `${w.a.casesPath}/changes?${query}`, ...asApi }, 422);
      }
      const theirs = await expectStatus({ method: 'GET', url: `${w.b.casesPath}/changes`, authorization: `Bearer ${w.b.apiToken}` }, 200);
      const mine = await expectStatus({ method: 'GET', url: `${w.a.casesPath}/changes?after=${theirs.body.next_cursor}`, ...asApi }, 200);
      for (const c of mine.body.cases) assert.equal(c.workflow_id, w.a.workflowId);
    });

    it('query values the list refuses: signs, exponents, overflow, repeated keys', async () => {
      for (const query of ['cursor=-1', 'limit=1e9', 'limit=0', 'limit=101', 'workflow_id=18446744073709551617', 'status=a&status=b', 'status[]=a', 'cursor=12345678901234567']) {
        await expectStatus({ method: 'GET', url: `${ADMIN}/cases?${query}`, authorization: `Bearer ${w.a.org.adminToken}` }, 422);
      }
    });

    it('template values (CR/LF, NUL, "@", "../", "%00") in http_request urls, headers, secrets and the attributes they read: stored or refused, never a 5xx', async () => {
      const values = ['\r\nX-Injected: 1', 'a\nb', '\u0000', '%00', '@evil.example/x', '../', '../../admin', '..', '%2e%2e', '//evil.example', ':8080', '#x', '?a=1&b=2', '{{ secrets.X }}'];
      const admin = `Bearer ${w.c.adminToken}`;
      const probe = (method: string, url: string, body: unknown, allowed: number[], authorization = admin): FuzzCase => ({
        probe: { method, url, body: JSON.stringify(body), authorization },
        allowed,
        auth: 'valid',
        readsBody: true,
        idsWellFormed: true,
      });
      for (const v of values) {
        for (const url of [`https://crm.example${v}{{ attributes.raw }}`, `https://crm.example/a/${v}/{{ attributes.raw }}?q={{ secrets.CRM_KEY }}`, `https://crm.example/${v}`, v]) {
          const definition = sampleDefinition({ automations: { Open: [{ http_request: { method: 'POST', url, headers: { 'x-ref': `${v}{{ attributes.raw }}`, authorization: `Bearer {{ secrets.CRM_KEY }}${v}` }, body: { v, t: `{{ secrets.CRM_KEY }}${v}` } } }] } });
          await checkAnswer(t, probe('POST', `${ADMIN}/workflows`, definition, [201, 422]));
        }
        await checkAnswer(t, probe('PUT', `${ADMIN}/secrets/CRM_KEY`, { value: v }, [200]));
        await checkAnswer(t, probe('POST', w.a.casesPath, { attributes: { customer_email: 'tpl@example.com', raw: v } }, v.includes('\u0000') ? [422] : [201], `Bearer ${w.a.apiToken}`));
      }
    });

    it('a de-duplicated webhook takes hostile keys (1 MB, deep, escaped, of every JSON type): a case or a 422, then the same answer or the duplicate, never a 5xx', async () => {
      const workflowId = await createWorkflow(t, w.a.org, directDefinition({ name: 'Fuzzed dedup', webhook_dedup: { key: '/k/0/k', window_seconds: 60 } }));
      const { token } = await generateWebhook(t, w.a.org, workflowId);
      const dedupHook = (body: string): FuzzCase => ({
        probe: post(webhookPath(workflowId, token), body),
        allowed: [200, 201, 422],
        auth: 'valid',
        readsBody: true,
        lenient: true,
        idsWellFormed: true,
      });
      const keys = [
        `"${'x'.repeat(MAX_BODY_BYTES - 64)}"`, '"\\u0000"', '"\\ud800"', '"\\"\\\\"', '"é✓\\n"', '-0', '0', '1e400', '1e41', '99999999999999999999999999999',
        nested(58, 'array'), nested(58, 'object'), 'null', 'true', '{}', '[]', `"${'\\u0041'.repeat(1_000)}"`,
      ];
      for (const key of keys) {
        const body = `{"k":[{"k":${key}}]}`;
        const first = await checkAnswer(t, dedupHook(body));
        const again = await checkAnswer(t, dedupHook(body));
        const duplicate = first.status === 201 && (key.startsWith('"') || /^-?(0|[1-9][0-9]*)$/.test(key));
        assert.equal(again.status, duplicate ? 200 : first.status, `${key.slice(0, 40)}: ${first.status} then ${again.status} ${again.text.slice(0, 200)}`);
      }
      const stored = await db().query('SELECT octet_length(key_hash) AS bytes FROM webhook_dedup_keys WHERE workflow_id = $1', [workflowId]);
      assert.ok(stored.rows.length > 0 && stored.rows.every((row) => row.bytes === 32), 'each key is stored as its 32-byte hash, whatever its size');
    });

    it('__proto__ and constructor keys are data: stored or refused, never merged into objects', async () => {
      const polluting = '{"event":"x","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}';
      await expectStatus(hook(polluting), 201);
      await expectStatus(apiPost('{"attributes":{"customer_email":"a@b.co","__proto__":{"polluted":"yes"}}}'), 201);
      await expectStatus(apiPost('{"__proto__":{"polluted":"yes"}}'), 422);
      assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is untouched');
    });

    it("keys that name an object's own members (toString, valueOf, ...) are an unsupported key on the admin API: a 422, never a 5xx", async () => {
      const subscription = `${ADMIN}/subscriptions/${w.c.subscriptionId}`;
      for (const key of ['toString', 'valueOf', 'hasOwnProperty', '__proto__', 'constructor', 'prototype']) {
        for (const value of ['["x"]', '"x"', '{}']) {
          await expectStatus({ method: 'PATCH', url: subscription, body: `{"${key}":${value}}`, authorization: `Bearer ${w.c.adminToken}` }, 422);
        }
        await expectStatus(adminPost(`${ADMIN}/subscriptions`, `{"url":"http://127.0.0.1:9/x","events":["case.closed"],"${key}":["x"]}`), 422);
      }
    });
  });
});
