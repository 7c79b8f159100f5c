import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOrganization, type Organization } from '../support/scenario.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

/** Attribute names whose order jsonb would change (it orders keys by length, then bytes). */
const ATTRIBUTES = {
  zeta_customer_reference: { type: 'string' },
  b: { type: 'integer', required: true },
  middle: { type: 'string', format: 'email' },
  a: { type: 'boolean' },
};

const definition = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ordered intake',
  case_source: 'direct',
  sensitive_data: false,
  statuses: ['Triage'],
  default_outcome: null,
  attributes: ATTRIBUTES,
  automations: { Open: [{ set_status: 'Triage' }] },
  ...overrides,
});

describe('admin workflows: definitions as saved, publishing only what changed', () => {
  let t: TestApp;
  /** One organization for all: each test makes workflows of its own. */
  let org: Organization;
  before(async () => { t = await startTestApp(); org = await createOrganization(t); });
  after(async () => { await t.close(); await closeDb(); });

  async function call(method: string, path: string, body?: unknown) {
    const res = await t.request(method, `/api/admin/v1/workflows${path}`, { token: org.adminToken, body });
    assert.equal(res.status, method === 'POST' && path === '' ? 201 : 200, res.text);
    return res.body.workflow;
  }

  const versionCount = async (id: number) => (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM workflow_versions WHERE workflow_id = $1', [id])).rows[0]!.n;

  it('answers a definition with its attribute keys in the order saved: created, read, listed, replaced and published', async () => {
    const created = await call('POST', '', definition());
    assert.deepEqual(Object.keys(created.attributes), Object.keys(ATTRIBUTES));
    assert.deepEqual(Object.keys((await call('GET', `/${created.id}`)).attributes), Object.keys(ATTRIBUTES));
    const listed = (await t.request('GET', '/api/admin/v1/workflows', { token: org.adminToken })).body.workflows.find((w: { id: number }) => w.id === created.id);
    assert.deepEqual(Object.keys(listed.attributes), Object.keys(ATTRIBUTES));

    const reversed = Object.fromEntries(Object.entries(ATTRIBUTES).reverse());
    assert.deepEqual(Object.keys((await call('PUT', `/${created.id}`, definition({ attributes: reversed }))).attributes), Object.keys(reversed));
    await call('POST', `/${created.id}/publish`);
    const { rows } = await db().query<{ attributes: string }>(`SELECT definition->'attributes' AS attributes FROM workflow_versions WHERE workflow_id = $1`, [created.id]);
    assert.deepEqual(Object.keys(rows[0]!.attributes), Object.keys(reversed), 'the published version keeps the order too');
  });

  it('still refuses, with a 422 and nothing stored, a definition holding \\u0000 or an unpaired surrogate, which json (unlike jsonb) would store', async () => {
    const before = (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM workflows WHERE organization_id = $1', [org.id])).rows[0]!.n;
    for (const name of ['a\\u0000b', 'a\\ud800b', 'a\\udc00b']) {
      const res = await t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, rawBody: JSON.stringify(definition()).replace('"Ordered intake"', `"${name}"`) });
      assert.equal(res.status, 422, `${name}: ${res.text}`);
      assert.match(res.body.error, /cannot be stored/);
    }
    assert.equal((await db().query<{ n: number }>('SELECT count(*)::int AS n FROM workflows WHERE organization_id = $1', [org.id])).rows[0]!.n, before);
  });

  it('publishes a draft that is the latest version as that version: no new version, again after an unpublish', async () => {
    const created = await call('POST', '', definition());
    assert.deepEqual([created.version, created.draft_changed], [null, true]);
    const first = await call('POST', `/${created.id}/publish`);
    assert.deepEqual([first.published, first.version, first.draft_changed], [true, 1, false]);

    const again = await call('POST', `/${created.id}/publish`);
    assert.deepEqual([again.published, again.version, again.draft_changed], [true, 1, false]);
    assert.equal(await versionCount(created.id), 1, 'publishing the unchanged draft made no version');

    // Saving the same definition is no change; another order of the attributes is one.
    assert.equal((await call('PUT', `/${created.id}`, definition())).draft_changed, false);
    const reordered = await call('PUT', `/${created.id}`, definition({ attributes: Object.fromEntries(Object.entries(ATTRIBUTES).reverse()) }));
    assert.deepEqual([reordered.version, reordered.draft_changed], [1, true]);
    const second = await call('POST', `/${created.id}/publish`);
    assert.deepEqual([second.version, second.draft_changed], [2, false]);

    assert.equal((await call('POST', `/${created.id}/unpublish`)).published, false);
    const republished = await call('POST', `/${created.id}/publish`);
    assert.deepEqual([republished.published, republished.version, republished.draft_changed], [true, 2, false]);
    assert.equal(await versionCount(created.id), 2);
    const listed = await t.request('GET', '/api/admin/v1/workflows', { token: org.adminToken });
    assert.equal(listed.body.workflows.find((w: { id: number }) => w.id === created.id).draft_changed, false);
  });
});
