/**
 * The HTTP layer's own answers: every error is JSON `{"error": "..."}` with the right status and
 * nothing internal (no stack frames, no dependency paths), the 1 MB body limit is exact, deep
 * nesting is refused, and the health endpoints report their dependencies.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertJsonError, assertValidationError } from '../support/foundation-assertions.js';
import { createOrganization, operatorToken, type Organization } from '../support/scenario.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const WORKFLOWS = '/api/admin/v1/workflows';
const TOKENS = '/api/admin/v1/tokens';
const MAX_BODY_BYTES = 1_048_576;
const VALID_DEFINITION = { name: 'Intake', case_source: 'direct' };

/** A valid definition padded with trailing whitespace to exactly `bytes` bytes. */
function definitionOfSize(bytes: number): string {
  const text = JSON.stringify(VALID_DEFINITION);
  return text + ' '.repeat(bytes - Buffer.byteLength(text));
}

/** `{"name":..., "case_source":..., "extra": {"a": {"a": ... }}}` with `depth` levels of nesting in all. */
function definitionNested(depth: number): string {
  const inner = depth - 1;
  return `{"name":"Intake","case_source":"direct","extra":${'{"a":'.repeat(inner - 1)}{}${'}'.repeat(inner - 1)}}`;
}

describe('HTTP errors', () => {
  let t: TestApp;
  let org: Organization;
  before(async () => {
    t = await startTestApp();
    org = await createOrganization(t);
  });
  after(async () => { await t.close(); await closeDb(); });

  const workflowNames = async () =>
    (await db().query("SELECT draft->>'name' AS name FROM workflows WHERE organization_id = $1", [org.id])).rows.map((r) => r.name as string);
  const postWorkflow = (rawBody: string, headers: Record<string, string> = {}) => t.request('POST', WORKFLOWS, { token: org.adminToken, rawBody, headers });

  describe('routing', () => {
    it('an unknown route is a JSON 404, with or without a credential', async () => {
      for (const path of ['/nope', '/api/admin/v1/nope', '/api/external/v2/workflows/1/cases']) {
        assertJsonError(await t.request('GET', path), 404);
        assertJsonError(await t.request('POST', path, { token: org.adminToken, body: {} }), 404);
      }
    });

    it('a wrong method on a known path is a JSON 404', async () => {
      const routes: [string, string][] = [
        ['DELETE', WORKFLOWS],
        ['PATCH', TOKENS],
        ['DELETE', `${WORKFLOWS}/1`],
        ['GET', `${WORKFLOWS}/1/publish`],
        ['PUT', '/api/operator/v1/organizations'],
        ['GET', '/api/external/v1/workflows/1/case_webhooks'],
        ['POST', '/healthz'],
      ];
      for (const [method, path] of routes) assertJsonError(await t.request(method, path, { token: org.adminToken }), 404);
    });

    it('a malformed percent-encoding in the URL is a JSON 400 that does not echo the URL', async () => {
      const webhookUrl = '/api/external/v1/workflows/%ZZ/case_webhooks?token=whk_not-to-be-echoed';
      for (const [method, url] of [['GET', `${WORKFLOWS}/%E0%A4%A`], ['POST', webhookUrl]] as const) {
        const res = await t.request(method, url, { token: org.adminToken, body: {} });
        assertJsonError(res, 400);
        assert.ok(!res.text.includes('whk_not-to-be-echoed') && !res.text.includes('%'), 'the URL is not echoed');
      }
    });
  });

  describe('request bodies', () => {
    it('malformed JSON is a 422 and stores nothing', async () => {
      for (const rawBody of ['{"name": "Intake",', '{name: "Intake"}', "{'name':'x'}", '{"a":1}}', 'NaN', '{"name":"Intake","case_source":"direct"} trailing']) {
        const body = assertJsonError(await postWorkflow(rawBody), 422);
        assert.notEqual(body.error, 'workflow_definition_invalid', rawBody);
      }
      assert.deepEqual(await workflowNames(), []);
    });

    it('malformed JSON without a credential is a 401: credentials are checked before the body', async () => {
      assertJsonError(await t.request('POST', WORKFLOWS, { rawBody: '{"name":' }), 401);
    });

    it('an empty JSON body is a 422', async () => {
      for (const rawBody of ['', '   ', '\n']) {
        assertJsonError(await postWorkflow(rawBody), 422);
        assertJsonError(await t.request('POST', TOKENS, { token: org.adminToken, rawBody }), 422);
      }
      assert.deepEqual(await workflowNames(), []);
    });

    it('a NUL character in a text field is a 422, never a 500, and creates nothing', async () => {
      const name = 'before\u0000after';
      assert.deepEqual(assertValidationError(await t.request('POST', TOKENS, { token: org.adminToken, body: { name, scope: 'api' } })), ['/name']);
      assert.deepEqual(assertValidationError(await t.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), body: { name } })), ['/name']);
      assertJsonError(await postWorkflow(JSON.stringify({ ...VALID_DEFINITION, name })), 422);
      const tokens = await db().query('SELECT count(*)::int AS n FROM access_tokens WHERE organization_id = $1', [org.id]);
      assert.equal(tokens.rows[0].n, 1, 'only the initial admin token');
      assert.deepEqual(await workflowNames(), []);
    });

    it('an empty object where fields are required is a 422 naming them', async () => {
      const res = await t.request('POST', TOKENS, { token: org.adminToken, body: {} });
      assert.deepEqual([...new Set(assertValidationError(res))].sort(), ['/name', '/scope']);
    });

    it('a non-JSON content type on an admin POST is a 415', async () => {
      const json = JSON.stringify(VALID_DEFINITION);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'text/json']) {
        assertJsonError(await postWorkflow(json, { 'content-type': type }), 415);
      }
      assertJsonError(await t.request('POST', TOKENS, { token: org.adminToken, rawBody: '{"name":"x","scope":"api"}', headers: { 'content-type': 'text/plain' } }), 415);
      assert.deepEqual(await workflowNames(), []);
    });

    it('JSON content types with parameters or a +json suffix are accepted', async () => {
      const json = JSON.stringify({ ...VALID_DEFINITION, name: 'Charset' });
      assert.equal((await postWorkflow(json, { 'content-type': 'application/json; charset=utf-8' })).status, 201);
      assert.equal((await postWorkflow(json, { 'content-type': 'application/vnd.api+json' })).status, 201);
      assert.deepEqual(await workflowNames(), ['Charset', 'Charset']);
      await db().query('DELETE FROM workflows WHERE organization_id = $1', [org.id]);
    });

    it('a body over 1,048,576 bytes is a 413; exactly 1,048,576 bytes is accepted', async () => {
      assertJsonError(await postWorkflow(definitionOfSize(MAX_BODY_BYTES + 1)), 413);
      assertJsonError(await postWorkflow(definitionOfSize(4 * MAX_BODY_BYTES)), 413);
      assert.deepEqual(await workflowNames(), []);

      const atLimit = definitionOfSize(MAX_BODY_BYTES);
      assert.equal(Buffer.byteLength(atLimit), MAX_BODY_BYTES);
      const res = await postWorkflow(atLimit);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(await workflowNames(), ['Intake']);
      await db().query('DELETE FROM workflows WHERE organization_id = $1', [org.id]);
    });

    it('a body nested 100 levels deep is a 422 before it is read as a definition', async () => {
      const deep = await postWorkflow(definitionNested(100));
      const body = assertJsonError(deep, 422);
      assert.notEqual(body.error, 'workflow_definition_invalid');
      assert.deepEqual(await workflowNames(), []);

      // 64 levels still parse: the definition itself is then judged (its unknown key).
      const shallow = await postWorkflow(definitionNested(64));
      assert.deepEqual(assertValidationError(shallow, 'workflow_definition_invalid'), ['/extra']);
    });
  });

  describe('health', () => {
    it('/healthz answers 200', async () => {
      const res = await t.request('GET', '/healthz');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { status: 'ok' });
    });

    it('/readyz answers 200 with postgres and redis ok', async () => {
      const res = await t.request('GET', '/readyz');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.postgres, 'ok');
      assert.equal(res.body.redis, 'ok');
    });
  });
});
