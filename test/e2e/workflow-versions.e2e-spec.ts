/**
 * builder.md section 1: a workflow's published versions listed (newest first, with who
 * published them), read with their definitions as published, and restored into the draft
 * without publishing anything.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertIsoUtc, assertJsonError, assertKeys, assertValidationError } from '../support/foundation-assertions.js';
import { createOrganization, createToken, createWorkflow, sampleDefinition, type Organization } from '../support/scenario.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const ADMIN = '/api/admin/v1';

describe('workflow versions', () => {
  let t: TestApp;
  let org: Organization;
  let workflowId: number;
  let releaseBot: string;

  const put = (definition: unknown) => t.request('PUT', `${ADMIN}/workflows/${workflowId}`, { token: org.adminToken, body: definition });
  const publish = (token: string) => t.request('POST', `${ADMIN}/workflows/${workflowId}/publish`, { token });
  const versions = () => t.request('GET', `${ADMIN}/workflows/${workflowId}/versions`, { token: org.adminToken });

  before(async () => {
    t = await startTestApp();
    org = await createOrganization(t);
    workflowId = await createWorkflow(t, org, sampleDefinition({ name: 'First' }));
    assert.equal((await put(sampleDefinition({ name: 'Second', statuses: ['Triage', 'Escalated'] }))).status, 200);
    assert.equal((await publish(org.adminToken)).status, 200);
    const bot = await t.request('POST', `${ADMIN}/tokens`, { token: org.adminToken, body: { name: 'release bot', scope: 'admin' } });
    releaseBot = bot.body.secret;
    assert.equal((await put(sampleDefinition({ name: 'Third' }))).status, 200);
    assert.equal((await publish(releaseBot)).status, 200);
  });
  after(async () => {
    await t.close();
    await closeDb();
  });

  it('lists every version newest first, with when and by which token it was published', async () => {
    const res = await versions();
    assert.equal(res.status, 200, res.text);
    assertKeys(res.body, ['versions']);
    assert.deepEqual(res.body.versions.map((v: { version: number }) => v.version), [3, 2, 1]);
    for (const v of res.body.versions) {
      assertKeys(v, ['version', 'published_at', 'published_by'], 'version summary');
      assertIsoUtc(v.published_at, 'published_at');
    }
    assert.deepEqual(res.body.versions.map((v: { published_by: string }) => v.published_by), ['release bot', 'Initial admin token', 'Initial admin token']);
  });

  it('reads a version with its definition exactly as it was published, keys in the order saved', async () => {
    const res = await t.request('GET', `${ADMIN}/workflows/${workflowId}/versions/2`, { token: org.adminToken });
    assert.equal(res.status, 200, res.text);
    assertKeys(res.body.version, ['version', 'published_at', 'published_by', 'definition'], 'version');
    assert.equal(res.body.version.version, 2);
    assert.equal(res.body.version.definition.name, 'Second');
    assert.deepEqual(res.body.version.definition.statuses, ['Triage', 'Escalated']);
    assert.deepEqual(Object.keys(res.body.version.definition.attributes), Object.keys(sampleDefinition().attributes as object));
  });

  it('restores a version into the draft and publishes nothing: the workflow stays on its latest version', async () => {
    const res = await t.request('POST', `${ADMIN}/workflows/${workflowId}/versions/2/restore`, { token: org.adminToken });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.workflow.name, 'Second');
    assert.deepEqual(res.body.workflow.statuses, ['Open', 'Closed', 'Error', 'Triage', 'Escalated']);
    assert.equal(res.body.workflow.version, 3, 'still on the latest published version');
    assert.equal(res.body.workflow.published, true);
    assert.equal(res.body.workflow.draft_changed, true);
    assert.deepEqual((await versions()).body.versions.map((v: { version: number }) => v.version), [3, 2, 1], 'no version was made');
    const published = await t.request('GET', `${ADMIN}/workflows/${workflowId}/versions/3`, { token: org.adminToken });
    assert.equal(published.body.version.definition.name, 'Third');
  });

  it('refuses to restore a version that no longer passes the definition rules, leaving the draft as it was', async () => {
    const before = await t.request('GET', `${ADMIN}/workflows/${workflowId}`, { token: org.adminToken });
    // A version published under older, looser rules: written as such a version was stored.
    await db().query('INSERT INTO workflow_versions (workflow_id, version, definition) VALUES ($1, 4, $2::json)', [workflowId, JSON.stringify({ ...sampleDefinition(), statuses: ['Open'] })]);
    try {
      const res = await t.request('POST', `${ADMIN}/workflows/${workflowId}/versions/4/restore`, { token: org.adminToken });
      const problems = assertValidationError(res, 'workflow_definition_invalid');
      assert.ok(problems.length > 0);
      const afterwards = await t.request('GET', `${ADMIN}/workflows/${workflowId}`, { token: org.adminToken });
      assert.deepEqual(afterwards.body, before.body);
    } finally {
      await db().query('DELETE FROM workflow_versions WHERE workflow_id = $1 AND version = 4', [workflowId]);
    }
  });

  it('answers 404 for a version never published, ids that name nothing and another organization\'s workflow', async () => {
    const other = await createOrganization(t);
    const unpublished = await createWorkflow(t, org, sampleDefinition(), false);
    const empty = await t.request('GET', `${ADMIN}/workflows/${unpublished}/versions`, { token: org.adminToken });
    assert.deepEqual([empty.status, empty.body], [200, { versions: [] }]);
    const paths = [
      `${ADMIN}/workflows/${workflowId}/versions/9`,
      `${ADMIN}/workflows/${workflowId}/versions/0`,
      `${ADMIN}/workflows/${workflowId}/versions/abc`,
      `${ADMIN}/workflows/${workflowId}/versions/2147483648`,
      `${ADMIN}/workflows/${unpublished}/versions/1`,
    ];
    for (const path of paths) {
      assertJsonError(await t.request('GET', path, { token: org.adminToken }), 404);
      assertJsonError(await t.request('POST', `${path}/restore`, { token: org.adminToken }), 404);
    }
    for (const path of [`${ADMIN}/workflows/${workflowId}/versions`, `${ADMIN}/workflows/${workflowId}/versions/1`]) {
      assertJsonError(await t.request('GET', path, { token: other.adminToken }), 404);
    }
    assertJsonError(await t.request('POST', `${ADMIN}/workflows/${workflowId}/versions/1/restore`, { token: other.adminToken }), 404);
  });

  it('takes only admin tokens', async () => {
    const api = await createToken(t, org, 'api');
    for (const [method, path] of [['GET', 'versions'], ['GET', 'versions/1'], ['POST', 'versions/1/restore']] as const) {
      assertJsonError(await t.request(method, `${ADMIN}/workflows/${workflowId}/${path}`, { token: api.secret }), 401);
      assertJsonError(await t.request(method, `${ADMIN}/workflows/${workflowId}/${path}`), 401);
    }
  });
});
