/**
 * Per-organization caps (settings, organization-caps.ts): an organization can create only so
 * many subscriptions, workflows, secrets, tokens and digests; one more is a 422 naming the cap
 * and its limit, whatever other organizations hold, and creations racing at the cap are counted
 * one after the other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createOrganization, type Organization, sampleDefinition } from '../support/scenario.js';
import { closeDb, db, type InjectResult, startTestApp, type TestApp } from '../support/test-app.js';

const LIMITS = {
  MAX_SUBSCRIPTIONS_PER_ORGANIZATION: 2,
  MAX_WORKFLOWS_PER_ORGANIZATION: 2,
  MAX_SECRETS_PER_ORGANIZATION: 2,
  // The organization's initial admin token is one of them.
  MAX_TOKENS_PER_ORGANIZATION: 3,
  MAX_DIGESTS_PER_ORGANIZATION: 2,
};

interface Capped {
  setting: keyof typeof LIMITS;
  /** How many the organization holds before the test creates any. */
  held: number;
  create(t: TestApp, org: Organization, n: number): Promise<InjectResult>;
}

const CAPPED: Capped[] = [
  { setting: 'MAX_SUBSCRIPTIONS_PER_ORGANIZATION', held: 0, create: (t, org) => t.request('POST', '/api/admin/v1/subscriptions', { token: org.adminToken, body: { url: 'https://hooks.example.com/in', events: ['case.created'] } }) },
  { setting: 'MAX_WORKFLOWS_PER_ORGANIZATION', held: 0, create: (t, org) => t.request('POST', '/api/admin/v1/workflows', { token: org.adminToken, body: sampleDefinition() }) },
  { setting: 'MAX_SECRETS_PER_ORGANIZATION', held: 0, create: (t, org, n) => t.request('PUT', `/api/admin/v1/secrets/KEY_${n}`, { token: org.adminToken, body: { value: 'v' } }) },
  { setting: 'MAX_TOKENS_PER_ORGANIZATION', held: 1, create: (t, org, n) => t.request('POST', '/api/admin/v1/tokens', { token: org.adminToken, body: { name: `token ${n}`, scope: 'api' } }) },
  { setting: 'MAX_DIGESTS_PER_ORGANIZATION', held: 0, create: (t, org) => t.request('POST', '/api/admin/v1/digests', { token: org.adminToken, body: { schedule: 'daily', hour_utc: 7, recipients: ['ops@acme.example'] } }) },
];

const statuses = (answers: InjectResult[]) => answers.map((res) => res.status);

describe('per-organization caps', () => {
  let t: TestApp;
  before(async () => {
    const env = Object.fromEntries(Object.entries(LIMITS).map(([name, limit]) => [name, String(limit)]));
    // Configured, never reached: creating a digest sends nothing.
    t = await startTestApp({ env: { ...env, ROLE: 'api', SMTP_RELAY_URL: 'smtp://127.0.0.1:9' } });
  });
  after(async () => {
    await t.close();
    await closeDb();
  });

  for (const capped of CAPPED) {
    it(`refuses one more than ${capped.setting} with a 422 naming the cap and its limit, and holds back no other organization`, async () => {
      const [org, other] = [await createOrganization(t), await createOrganization(t)];
      const limit = LIMITS[capped.setting];
      const allowed: InjectResult[] = [];
      for (let n = capped.held; n < limit; n++) allowed.push(await capped.create(t, org, n));
      assert.ok(statuses(allowed).every((status) => status === 200 || status === 201), allowed.map((res) => res.text).join('; '));
      const refused = await capped.create(t, org, limit);
      assert.equal(refused.status, 422, refused.text);
      assert.deepEqual(refused.body, { error: refused.body.error, cap: capped.setting, limit });
      assert.match(refused.body.error, new RegExp(`at most ${limit} `));
      const elsewhere = await capped.create(t, other, limit);
      assert.ok([200, 201].includes(elsewhere.status), elsewhere.text);
    });
  }

  it('counts creations racing at the cap one after the other: exactly the limit is stored', async () => {
    const org = await createOrganization(t);
    const workflows = CAPPED.find((c) => c.setting === 'MAX_WORKFLOWS_PER_ORGANIZATION')!;
    const answers = await Promise.all([0, 1, 2, 3, 4].map((n) => workflows.create(t, org, n)));
    assert.deepEqual(statuses(answers).sort(), [201, 201, 422, 422, 422]);
    const stored = await db().query('SELECT count(*)::int AS n FROM workflows WHERE organization_id = $1', [org.id]);
    assert.equal(stored.rows[0].n, LIMITS.MAX_WORKFLOWS_PER_ORGANIZATION);
  });

  it('lets a deleted subscription or token free its place, and a secret be replaced at the cap', async () => {
    const org = await createOrganization(t);
    const [subscriptions, secrets, tokens] = ['MAX_SUBSCRIPTIONS_PER_ORGANIZATION', 'MAX_SECRETS_PER_ORGANIZATION', 'MAX_TOKENS_PER_ORGANIZATION'].map((setting) => CAPPED.find((c) => c.setting === setting)!);
    const created = [await subscriptions!.create(t, org, 0), await subscriptions!.create(t, org, 1)];
    assert.equal((await subscriptions!.create(t, org, 2)).status, 422);
    assert.equal((await t.request('DELETE', `/api/admin/v1/subscriptions/${created[0]!.body.subscription.id}`, { token: org.adminToken })).status, 204);
    assert.equal((await subscriptions!.create(t, org, 3)).status, 201);

    const token = await tokens!.create(t, org, 1);
    await tokens!.create(t, org, 2);
    assert.equal((await tokens!.create(t, org, 3)).status, 422);
    assert.equal((await t.request('DELETE', `/api/admin/v1/tokens/${token.body.token.id}`, { token: org.adminToken })).status, 204);
    assert.equal((await tokens!.create(t, org, 4)).status, 201);

    await secrets!.create(t, org, 0);
    await secrets!.create(t, org, 1);
    assert.equal((await secrets!.create(t, org, 2)).status, 422);
    assert.equal((await secrets!.create(t, org, 1)).status, 200, 'replacing a secret adds none');
  });
});
