/**
 * The operator and admin API of admin-api.md: success statuses and exact shapes, credentials
 * of the wrong kind (401), other organizations and malformed ids (404), bad bodies (422),
 * the token lifecycle, workflow drafts and versions, and webhook generation and rotation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertIsoUtc,
  assertJsonError,
  assertKeys,
  assertPositiveInteger,
  assertValidationError,
  secretPattern,
} from '../support/foundation-assertions.js';
import {
  createOrganization,
  createToken,
  createWorkflow,
  generateWebhook,
  givenDirectWorkflow,
  operatorToken,
  sampleDefinition,
  type Organization,
} from '../support/scenario.js';
import { closeDb, db, startTestApp, type InjectResult, type TestApp } from '../support/test-app.js';

const OPERATOR = '/api/operator/v1';
const ADMIN = '/api/admin/v1';
const NOT_IDS = ['abc', '0', '-1', '1.5', '1e3', '99999999999999999999'];
// The contract's fields, and `webhook_dedup` (workflows-and-automation.md, added later): null unless set.
const WORKFLOW_KEYS = ['id', 'name', 'case_source', 'sensitive_data', 'statuses', 'attributes', 'automations', 'default_outcome', 'webhook_dedup', 'published', 'version', 'draft_changed', 'created_at', 'updated_at'];
const TOKEN_KEYS = ['id', 'name', 'scope', 'created_at', 'last_used_at'];
const VALID_ATTRIBUTES = { customer_email: 'a@b.co' };

type Route = [method: string, path: string, body?: unknown];

/** Every admin route that takes a workflow id. */
function workflowRoutes(id: number | string): Route[] {
  return [
    ['GET', `${ADMIN}/workflows/${id}`],
    ['PUT', `${ADMIN}/workflows/${id}`, sampleDefinition({ name: 'Hijacked' })],
    ['POST', `${ADMIN}/workflows/${id}/publish`],
    ['POST', `${ADMIN}/workflows/${id}/unpublish`],
    ['POST', `${ADMIN}/workflows/${id}/webhook`],
    ['GET', `${ADMIN}/workflows/${id}/webhook`],
  ];
}

function adminRoutes(workflowId: number, tokenId: number): Route[] {
  return [
    ['POST', `${ADMIN}/tokens`, { name: 'intruder', scope: 'admin' }],
    ['GET', `${ADMIN}/tokens`],
    ['DELETE', `${ADMIN}/tokens/${tokenId}`],
    ['POST', `${ADMIN}/workflows`, sampleDefinition({ name: 'Intruder workflow' })],
    ['GET', `${ADMIN}/workflows`],
    ...workflowRoutes(workflowId),
  ];
}

function operatorRoutes(workflowId: number): Route[] {
  return [
    ['POST', `${OPERATOR}/organizations`, { name: 'Intruder org' }],
    ['GET', `${OPERATOR}/organizations`],
    ['POST', `${OPERATOR}/workflows/${workflowId}/webhook/rotate`],
  ];
}

/** Each route answered with this status and a JSON error body, for each token (undefined: none). */
async function expectEach(t: TestApp, routes: Route[], tokens: (string | undefined)[], status: number): Promise<void> {
  for (const [method, path, body] of routes) {
    for (const token of tokens) {
      const res = await t.request(method, path, { token, body });
      assert.equal(res.status, status, `${method} ${path} with ${token?.slice(0, 4) ?? 'no token'}: ${res.status} ${res.text}`);
      assertJsonError(res, status);
    }
  }
}

function assertWorkflow(workflow: any, definition: Record<string, any>, state: { published: boolean; version: number | null }): void {
  assertKeys(workflow, WORKFLOW_KEYS, 'workflow');
  assertPositiveInteger(workflow.id, 'workflow id');
  assert.equal(workflow.name, definition.name);
  assert.equal(workflow.case_source, definition.case_source);
  assert.equal(workflow.sensitive_data, definition.sensitive_data ?? false);
  assert.deepEqual([...workflow.statuses].sort(), ['Open', 'Closed', 'Error', ...(definition.statuses ?? [])].sort());
  assert.deepEqual(workflow.attributes, definition.attributes ?? {});
  assert.deepEqual(workflow.automations, definition.automations ?? {});
  assert.equal(workflow.default_outcome, definition.default_outcome ?? null);
  assert.deepEqual(workflow.webhook_dedup, definition.webhook_dedup ?? null);
  assert.equal(workflow.published, state.published);
  assert.equal(workflow.version, state.version);
  assertIsoUtc(workflow.created_at, 'created_at');
  assertIsoUtc(workflow.updated_at, 'updated_at');
}

function assertTokenView(token: any, name: string, scope: 'api' | 'admin'): void {
  assertKeys(token, TOKEN_KEYS, 'token');
  assertPositiveInteger(token.id, 'token id');
  assert.equal(token.name, name);
  assert.equal(token.scope, scope);
  assertIsoUtc(token.created_at, 'created_at');
  assert.ok(token.last_used_at === null || typeof token.last_used_at === 'string');
  if (token.last_used_at !== null) assertIsoUtc(token.last_used_at, 'last_used_at');
}

function assertWebhook(res: { status: number; body: any; text: string }, status: number, t: TestApp, workflowId: number): { url: string; token: string } {
  assert.equal(res.status, status, res.text);
  assertKeys(res.body, ['webhook'], 'webhook response');
  assertKeys(res.body.webhook, ['url', 'token'], 'webhook');
  const { url, token } = res.body.webhook;
  assert.match(token, /^[A-Za-z0-9_-]{32,}$/, 'webhook token is opaque and URL-safe');
  assert.equal(url, `${t.env.PUBLIC_BASE_URL}/api/external/v1/workflows/${workflowId}/case_webhooks?token=${token}`);
  return { url, token };
}

function webhookPath(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** A request body may fail several rules at one path (missing and too short): each path once. */
const uniquePaths = (res: InjectResult) => [...new Set(assertValidationError(res, 'invalid request body'))];

const postWebhook = (t: TestApp, url: string, body: unknown = VALID_ATTRIBUTES) => t.request('POST', webhookPath(url), { body });

async function workflowRow(workflowId: number): Promise<{ published: boolean; version: number | null; webhook_token_hash: Buffer | null; name: string }> {
  const { rows } = await db().query('SELECT published, version, webhook_token_hash, draft->>\'name\' AS name FROM workflows WHERE id = $1', [workflowId]);
  return rows[0];
}

async function countRows(sql: string, params: unknown[]): Promise<number> {
  const { rows } = await db().query(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return rows[0].n;
}

describe('admin and operator API', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  describe('operator: organizations', () => {
    it('POST creates an organization and its first admin token, shown once', async () => {
      const name = `Acme ${Date.now()}`;
      const res = await t.request('POST', `${OPERATOR}/organizations`, { token: operatorToken(), body: { name } });
      assert.equal(res.status, 201, res.text);
      assertKeys(res.body, ['organization', 'admin_token'], 'response');
      assertKeys(res.body.organization, ['id', 'name', 'created_at'], 'organization');
      assertPositiveInteger(res.body.organization.id);
      assert.equal(res.body.organization.name, name);
      assertIsoUtc(res.body.organization.created_at);
      assert.match(res.body.admin_token, secretPattern('adm_'));

      const tokens = await t.request('GET', `${ADMIN}/tokens`, { token: res.body.admin_token });
      assert.equal(tokens.status, 200, 'the admin token works on the admin API');
      assert.equal(tokens.body.tokens.length, 1);
      assert.equal(tokens.body.tokens[0].scope, 'admin');
      assert.ok(!tokens.text.includes(res.body.admin_token), 'the secret is not shown again');
    });

    it('GET lists organizations in the same shape', async () => {
      const org = await createOrganization(t, 'Listed org');
      const res = await t.request('GET', `${OPERATOR}/organizations`, { token: operatorToken() });
      assert.equal(res.status, 200, res.text);
      assertKeys(res.body, ['organizations'], 'response');
      for (const o of res.body.organizations) {
        assertKeys(o, ['id', 'name', 'created_at'], 'organization');
        assertPositiveInteger(o.id);
        assertIsoUtc(o.created_at);
      }
      assert.deepEqual(res.body.organizations.filter((o: { id: number }) => o.id === org.id).map((o: { name: string }) => o.name), ['Listed org']);
      assert.ok(!res.text.includes(org.adminToken), 'no admin token in the list');
    });

    it('POST with a bad body is a 422 and creates nothing', async () => {
      const name = `Never created ${Date.now()}`;
      const cases: [unknown, string][] = [
        [{}, '/name'],
        [{ name: '' }, '/name'],
        [{ name: 42 }, '/name'],
        [{ name, plan: 'gold' }, '/plan'],
      ];
      for (const [body, path] of cases) {
        const res = await t.request('POST', `${OPERATOR}/organizations`, { token: operatorToken(), body });
        assert.deepEqual(uniquePaths(res), [path], JSON.stringify(body));
      }
      assert.equal(await countRows('organizations WHERE name = $1', [name]), 0);
    });

    it('refuses a missing credential and every other kind of token with 401', async () => {
      const w = await givenDirectWorkflow(t);
      const hook = await generateWebhook(t, w.org, w.workflowId);
      await expectEach(t, operatorRoutes(w.workflowId), [undefined, w.org.adminToken, w.apiToken, hook.token, `${operatorToken()}x`], 401);
      assert.equal(await countRows('organizations WHERE name = $1', ['Intruder org']), 0);
      assert.equal((await postWebhook(t, hook.url)).status, 201, 'the webhook token was not rotated');
      const basic = await t.request('GET', `${OPERATOR}/organizations`, { headers: { authorization: `Basic ${operatorToken()}` } });
      assertJsonError(basic, 401);
    });
  });

  describe('operator: webhook rotation', () => {
    it('rotate answers a new URL and token; the old token is refused at once, the new one works', async () => {
      const w = await givenDirectWorkflow(t);
      const old = await generateWebhook(t, w.org, w.workflowId);
      assert.equal((await postWebhook(t, old.url)).status, 201, 'old token works before rotation');

      const res = await t.request('POST', `${OPERATOR}/workflows/${w.workflowId}/webhook/rotate`, { token: operatorToken() });
      const rotated = assertWebhook(res, 200, t, w.workflowId);
      assert.notEqual(rotated.token, old.token);
      assert.notEqual(rotated.url, old.url);

      assertJsonError(await postWebhook(t, old.url), 401);
      const created = await postWebhook(t, rotated.url);
      assert.equal(created.status, 201, created.text);
      const shown = await t.request('GET', `${ADMIN}/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken });
      assert.deepEqual(assertWebhook(shown, 200, t, w.workflowId), rotated, 'admins see the rotated token');
    });

    it('rotate is a 404 for a workflow without a webhook, an unknown workflow and a non-integer id', async () => {
      const org = await createOrganization(t);
      const workflowId = await createWorkflow(t, org);
      const paths = [workflowId, 999_999_999, ...NOT_IDS].map((id) => `${OPERATOR}/workflows/${id}/webhook/rotate`);
      await expectEach(t, paths.map((p): Route => ['POST', p]), [operatorToken()], 404);
      assert.equal((await workflowRow(workflowId)).webhook_token_hash, null, 'no token was created');
    });
  });

  describe('admin: tokens', () => {
    it('POST creates an API or admin token; the secret is shown once, with its prefix', async () => {
      const org = await createOrganization(t);
      for (const [scope, prefix] of [['api', 'api_'], ['admin', 'adm_']] as const) {
        const res = await t.request('POST', `${ADMIN}/tokens`, { token: org.adminToken, body: { name: `CRM sync ${scope}`, scope } });
        assert.equal(res.status, 201, res.text);
        assertKeys(res.body, ['token', 'secret'], 'response');
        assertTokenView(res.body.token, `CRM sync ${scope}`, scope);
        assert.equal(res.body.token.last_used_at, null, 'a new token was never used');
        assert.match(res.body.secret, secretPattern(prefix));
      }
    });

    it('GET lists the organization\'s tokens without any secret', async () => {
      const org = await createOrganization(t);
      const other = await createOrganization(t);
      const api = await createToken(t, org, 'api');
      const admin = await createToken(t, org, 'admin');
      await createToken(t, other, 'api');

      const res = await t.request('GET', `${ADMIN}/tokens`, { token: org.adminToken });
      assert.equal(res.status, 200, res.text);
      assertKeys(res.body, ['tokens'], 'response');
      assert.equal(res.body.tokens.length, 3, 'the initial admin token and the two created here, nothing of the other organization');
      for (const token of res.body.tokens) assertKeys(token, TOKEN_KEYS, 'listed token');
      assert.deepEqual(res.body.tokens.slice(1).map((x: { id: number; scope: string }) => [x.id, x.scope]), [[api.id, 'api'], [admin.id, 'admin']]);
      for (const secret of [org.adminToken, api.secret, admin.secret]) assert.ok(!res.text.includes(secret), 'no secret in the list');
      assert.ok(!/(adm|api)_[A-Za-z0-9_-]{20,}/.test(res.text), 'nothing shaped like a secret');
    });

    it('DELETE answers 204 and the very next request with that token is a 401', async () => {
      const w = await givenDirectWorkflow(t);
      const created = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: VALID_ATTRIBUTES } });
      assert.equal(created.status, 201, 'the API token works (and is cached)');
      const apiTokenId = (await t.request('GET', `${ADMIN}/tokens`, { token: w.org.adminToken })).body.tokens.find((x: { scope: string }) => x.scope === 'api').id;

      const deleted = await t.request('DELETE', `${ADMIN}/tokens/${apiTokenId}`, { token: w.org.adminToken });
      assert.equal(deleted.status, 204);
      assert.equal(deleted.text, '');
      assertJsonError(await t.request('GET', `${w.casesPath}/${created.body.case.id}`, { token: w.apiToken }), 401);

      const list = await t.request('GET', `${ADMIN}/tokens`, { token: w.org.adminToken });
      assert.ok(!list.body.tokens.some((x: { id: number }) => x.id === apiTokenId), 'a deleted token is not listed');
      assertJsonError(await t.request('DELETE', `${ADMIN}/tokens/${apiTokenId}`, { token: w.org.adminToken }), 404);
    });

    it('a deleted admin token, even one that deleted itself, is refused at once', async () => {
      const org = await createOrganization(t);
      const second = await createToken(t, org, 'admin');
      assert.equal((await t.request('GET', `${ADMIN}/tokens`, { token: second.secret })).status, 200);
      assert.equal((await t.request('DELETE', `${ADMIN}/tokens/${second.id}`, { token: org.adminToken })).status, 204);
      assertJsonError(await t.request('GET', `${ADMIN}/tokens`, { token: second.secret }), 401);

      const self = await createToken(t, org, 'admin');
      assert.equal((await t.request('DELETE', `${ADMIN}/tokens/${self.id}`, { token: self.secret })).status, 204);
      assertJsonError(await t.request('GET', `${ADMIN}/workflows`, { token: self.secret }), 401);
      assert.equal((await t.request('GET', `${ADMIN}/tokens`, { token: org.adminToken })).status, 200, 'other admin tokens still work');
    });

    it('DELETE of another organization\'s token or a non-integer id is a 404 and deletes nothing', async () => {
      const org = await createOrganization(t);
      const other = await createOrganization(t);
      const victim = await createToken(t, other, 'admin');
      const paths = [victim.id, 999_999_999, ...NOT_IDS].map((id): Route => ['DELETE', `${ADMIN}/tokens/${id}`]);
      await expectEach(t, paths, [org.adminToken], 404);
      assert.equal((await t.request('GET', `${ADMIN}/tokens`, { token: victim.secret })).status, 200, 'the other organization\'s token still works');
    });

    it('POST with a bad body (unknown scope, missing or extra keys) is a 422 and creates nothing', async () => {
      const org = await createOrganization(t);
      const cases: [unknown, string[]][] = [
        [{ name: 'x', scope: 'operator' }, ['/scope']],
        [{ name: 'x', scope: 'API' }, ['/scope']],
        [{ name: 'x' }, ['/scope']],
        [{ scope: 'api' }, ['/name']],
        [{ name: '', scope: 'api' }, ['/name']],
        [{ name: 'x', scope: 'api', secret: 'api_mine' }, ['/secret']],
      ];
      for (const [body, paths] of cases) {
        const res = await t.request('POST', `${ADMIN}/tokens`, { token: org.adminToken, body });
        assert.deepEqual(uniquePaths(res), paths, JSON.stringify(body));
      }
      assert.equal(await countRows('access_tokens WHERE organization_id = $1', [org.id]), 1, 'only the initial admin token');
    });
  });

  describe('admin: workflows', () => {
    it('POST creates an unpublished workflow; GET returns it with every status', async () => {
      const org = await createOrganization(t);
      const definition = sampleDefinition();
      const res = await t.request('POST', `${ADMIN}/workflows`, { token: org.adminToken, body: definition });
      assert.equal(res.status, 201, res.text);
      assertKeys(res.body, ['workflow'], 'response');
      assertWorkflow(res.body.workflow, definition, { published: false, version: null });
      assert.ok(res.body.workflow.statuses.includes('Triage') && res.body.workflow.statuses.includes('Error'));

      const read = await t.request('GET', `${ADMIN}/workflows/${res.body.workflow.id}`, { token: org.adminToken });
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body, res.body);
    });

    it('a minimal definition gets the defaults', async () => {
      const org = await createOrganization(t);
      const definition = { name: 'Minimal', case_source: 'email' };
      const res = await t.request('POST', `${ADMIN}/workflows`, { token: org.adminToken, body: definition });
      assert.equal(res.status, 201, res.text);
      assertWorkflow(res.body.workflow, definition, { published: false, version: null });
      assert.deepEqual(res.body.workflow.statuses, ['Open', 'Closed', 'Error']);
    });

    it('GET lists only the organization\'s workflows', async () => {
      const org = await createOrganization(t);
      const other = await createOrganization(t);
      const first = await createWorkflow(t, org, sampleDefinition({ name: 'First' }), false);
      const second = await createWorkflow(t, org, sampleDefinition({ name: 'Second' }), true);
      await createWorkflow(t, other);

      const res = await t.request('GET', `${ADMIN}/workflows`, { token: org.adminToken });
      assert.equal(res.status, 200, res.text);
      assertKeys(res.body, ['workflows'], 'response');
      assert.deepEqual(res.body.workflows.map((w: { id: number }) => w.id), [first, second]);
      assertWorkflow(res.body.workflows[0], sampleDefinition({ name: 'First' }), { published: false, version: null });
      assertWorkflow(res.body.workflows[1], sampleDefinition({ name: 'Second' }), { published: true, version: 1 });
    });

    it('publish freezes the draft as version 1, then the changed draft as 2', async () => {
      const org = await createOrganization(t);
      const id = await createWorkflow(t, org, sampleDefinition(), false);
      for (const [i, definition] of [sampleDefinition(), sampleDefinition({ name: 'Renamed' })].entries()) {
        assert.equal((await t.request('PUT', `${ADMIN}/workflows/${id}`, { token: org.adminToken, body: definition })).status, 200);
        const res = await t.request('POST', `${ADMIN}/workflows/${id}/publish`, { token: org.adminToken });
        assert.equal(res.status, 200, res.text);
        assertKeys(res.body, ['workflow'], 'response');
        assertWorkflow(res.body.workflow, definition, { published: true, version: i + 1 });
      }
      const { rows } = await db().query('SELECT version FROM workflow_versions WHERE workflow_id = $1 ORDER BY version', [id]);
      assert.deepEqual(rows.map((r) => r.version), [1, 2]);
    });

    it('PUT changes the draft only: the version stays, new cases use the published version until the next publish', async () => {
      const w = await givenDirectWorkflow(t);
      const draft = sampleDefinition({
        name: 'Escalations v2',
        statuses: ['Triage', 'Escalated'],
        attributes: { customer_email: { type: 'string', required: true }, ticket: { type: 'string', required: true } },
        automations: {},
      });
      const put = await t.request('PUT', `${ADMIN}/workflows/${w.workflowId}`, { token: w.org.adminToken, body: draft });
      assert.equal(put.status, 200, put.text);
      assertWorkflow(put.body.workflow, draft, { published: true, version: 1 });
      const read = await t.request('GET', `${ADMIN}/workflows/${w.workflowId}`, { token: w.org.adminToken });
      assert.deepEqual(read.body, put.body);
      assert.ok(Date.parse(read.body.workflow.updated_at) >= Date.parse(read.body.workflow.created_at));

      const onVersion1 = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: VALID_ATTRIBUTES } });
      assert.equal(onVersion1.status, 201, `the draft's new required attribute is not enforced yet: ${onVersion1.text}`);

      const published = await t.request('POST', `${ADMIN}/workflows/${w.workflowId}/publish`, { token: w.org.adminToken });
      assertWorkflow(published.body.workflow, draft, { published: true, version: 2 });
      const onVersion2 = await t.request('POST', w.casesPath, { token: w.apiToken, body: { attributes: VALID_ATTRIBUTES } });
      assert.deepEqual(assertValidationError(onVersion2, 'attributes_validation_failed'), ['']);
    });

    it('PUT or POST with an invalid definition is a 422 and changes nothing', async () => {
      const org = await createOrganization(t);
      const id = await createWorkflow(t, org, sampleDefinition(), false);
      const invalid = sampleDefinition({ name: 'Broken', statuses: ['Triage', 'Open'] });
      const put = await t.request('PUT', `${ADMIN}/workflows/${id}`, { token: org.adminToken, body: invalid });
      assert.deepEqual(assertValidationError(put, 'workflow_definition_invalid'), ['/statuses/1']);
      assert.equal((await workflowRow(id)).name, 'Customer escalations', 'the draft is unchanged');

      const post = await t.request('POST', `${ADMIN}/workflows`, { token: org.adminToken, body: invalid });
      assert.deepEqual(assertValidationError(post, 'workflow_definition_invalid'), ['/statuses/1']);
      assert.equal(await countRows('workflows WHERE organization_id = $1', [org.id]), 1);
    });

    it('unpublish answers published: false and keeps the version', async () => {
      const org = await createOrganization(t);
      const id = await createWorkflow(t, org);
      const res = await t.request('POST', `${ADMIN}/workflows/${id}/unpublish`, { token: org.adminToken });
      assert.equal(res.status, 200, res.text);
      assertWorkflow(res.body.workflow, sampleDefinition(), { published: false, version: 1 });
    });

    it('another organization\'s workflow, an unknown one and non-integer ids are 404 on every route, and nothing changes', async () => {
      const owner = await createOrganization(t);
      const intruder = await createOrganization(t);
      const id = await createWorkflow(t, owner, sampleDefinition(), false);
      const routes = [id, 999_999_999, ...NOT_IDS].flatMap((x) => workflowRoutes(x));
      await expectEach(t, routes, [intruder.adminToken], 404);
      await expectEach(t, NOT_IDS.flatMap((x) => workflowRoutes(x)), [owner.adminToken], 404);
      assert.deepEqual(await workflowRow(id), { published: false, version: null, webhook_token_hash: null, name: 'Customer escalations' });
    });
  });

  describe('admin: webhooks', () => {
    it('generate answers 201 with url and token; again and GET return the same URL', async () => {
      const w = await givenDirectWorkflow(t);
      assertJsonError(await t.request('GET', `${ADMIN}/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken }), 404);

      const first = assertWebhook(await t.request('POST', `${ADMIN}/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken }), 201, t, w.workflowId);
      const again = assertWebhook(await t.request('POST', `${ADMIN}/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken }), 201, t, w.workflowId);
      assert.deepEqual(again, first);
      const read = assertWebhook(await t.request('GET', `${ADMIN}/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken }), 200, t, w.workflowId);
      assert.deepEqual(read, first);

      const created = await postWebhook(t, first.url);
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.body.case).sort(), ['id', 'source_type']);
    });

    it('generate is a 422 on an unpublished workflow and on a workflow whose source is not direct', async () => {
      const org = await createOrganization(t);
      const unpublished = await createWorkflow(t, org, sampleDefinition(), false);
      const ticketing = await createWorkflow(t, org, sampleDefinition({ case_source: 'ticketing' }), true);
      const email = await createWorkflow(t, org, sampleDefinition({ case_source: 'email' }), true);
      for (const id of [unpublished, ticketing, email]) {
        assertJsonError(await t.request('POST', `${ADMIN}/workflows/${id}/webhook`, { token: org.adminToken }), 422);
        assert.equal((await workflowRow(id)).webhook_token_hash, null, 'no token was stored');
        assertJsonError(await t.request('GET', `${ADMIN}/workflows/${id}/webhook`, { token: org.adminToken }), 404);
      }
    });

    it('unpublish makes the webhook URL answer 401; publishing again restores the same URL', async () => {
      const w = await givenDirectWorkflow(t);
      const hook = await generateWebhook(t, w.org, w.workflowId);
      assert.equal((await postWebhook(t, hook.url)).status, 201);

      const unpublished = await t.request('POST', `${ADMIN}/workflows/${w.workflowId}/unpublish`, { token: w.org.adminToken });
      assert.equal(unpublished.body.workflow.published, false);
      assertJsonError(await postWebhook(t, hook.url), 401);
      assertJsonError(await t.request('POST', `${ADMIN}/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken }), 422);
      const stillShown = await t.request('GET', `${ADMIN}/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken });
      assert.equal(assertWebhook(stillShown, 200, t, w.workflowId).url, hook.url);

      const republished = await t.request('POST', `${ADMIN}/workflows/${w.workflowId}/publish`, { token: w.org.adminToken });
      assert.deepEqual([republished.body.workflow.published, republished.body.workflow.version], [true, 1], 'the unchanged draft is published again as the version it is');
      assert.equal((await postWebhook(t, hook.url)).status, 201, 'the webhook URL stays the same across versions');
    });
  });

  describe('admin: credentials', () => {
    it('refuses a missing credential, an API token, the operator token and unknown tokens with 401 on every route', async () => {
      const w = await givenDirectWorkflow(t);
      const tokenId = (await t.request('GET', `${ADMIN}/tokens`, { token: w.org.adminToken })).body.tokens[0].id;
      const wrong = [undefined, w.apiToken, operatorToken(), 'adm_not-a-real-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', w.org.adminToken.slice(0, -1)];
      await expectEach(t, adminRoutes(w.workflowId, tokenId), wrong, 401);

      assert.equal(await countRows('workflows WHERE organization_id = $1', [w.org.id]), 1, 'no workflow was created');
      assert.equal(await countRows('access_tokens WHERE organization_id = $1 AND deleted_at IS NULL', [w.org.id]), 2, 'no token created or deleted');
      assert.deepEqual(await workflowRow(w.workflowId), { published: true, version: 1, webhook_token_hash: null, name: 'Customer escalations' });
    });

    it('an admin token is refused on the cases API', async () => {
      const w = await givenDirectWorkflow(t);
      assertJsonError(await t.request('POST', w.casesPath, { token: w.org.adminToken, body: { attributes: VALID_ATTRIBUTES } }), 401);
    });
  });
});

describe('operator API without OPERATOR_TOKEN', () => {
  let t: TestApp;
  let org: Organization;
  let workflowId: number;
  before(async () => {
    t = await startTestApp({ env: { OPERATOR_TOKEN: '' } });
    const main = await startTestApp();
    try {
      org = await createOrganization(main);
      workflowId = await createWorkflow(main, org);
      await generateWebhook(main, org, workflowId);
    } finally {
      await main.close();
    }
  });
  after(async () => { await t.close(); await closeDb(); });

  it('answers 404 on every operator route, whatever the credential', async () => {
    assert.equal(t.env.OPERATOR_TOKEN, undefined, 'an empty OPERATOR_TOKEN counts as unset');
    await expectEach(t, operatorRoutes(workflowId), [undefined, operatorToken(), org.adminToken, 'operator-guess-0123456789'], 404);
  });

  it('still serves the admin API', async () => {
    const res = await t.request('GET', `${ADMIN}/workflows/${workflowId}/webhook`, { token: org.adminToken });
    assertWebhook(res, 200, t, workflowId);
  });
});
