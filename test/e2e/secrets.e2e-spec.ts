/**
 * Secrets stay secret: no credential (operator token, admin and API tokens, webhook tokens)
 * is ever written to the logs, whatever the request's outcome, and none is stored in plain
 * text: access tokens as a hash, webhook tokens as a hash plus a `v2.` ciphertext bound to their row.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SecretBox } from '../../src/shared/crypto/secret-box.js';
import { webhookTokenBinding } from '../../src/shared/crypto/stored-secrets.js';
import { createOrganization, createToken, createWorkflow, generateWebhook, operatorToken, type Organization } from '../support/scenario.js';
import { closeDb, db, startTestApp, type TestApp } from '../support/test-app.js';

const WEBHOOK_ROUTE = '/api/external/v1/workflows/:workflowId/case_webhooks';
const CASE_ROUTE = '/api/external/v1/workflows/:workflowId/cases/:caseId';
const ATTRIBUTES = { customer_email: 'a@b.co' };
/** Tables holding an organization's data, and how to find its rows. */
const ORGANIZATION_ROWS = [
  'organizations t WHERE t.id = $1',
  'access_tokens t WHERE t.organization_id = $1',
  'workflows t WHERE t.organization_id = $1',
  'workflow_versions t JOIN workflows w ON w.id = t.workflow_id WHERE w.organization_id = $1',
  'cases t WHERE t.organization_id = $1',
  'case_events t JOIN cases c ON c.id = t.case_id WHERE c.organization_id = $1',
];

interface RequestLine {
  msg: string;
  method: string;
  route: string | null;
  status: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** Each secret, and the forms it could leak in: without its prefix, and as the hex of its bytes. */
function leakForms(secrets: string[]): string[] {
  return secrets.flatMap((s) => [s, s.replace(/^(adm|api|whk)_/, ''), Buffer.from(s).toString('hex')]);
}

function assertNoSecretIn(text: string, secrets: string[], where: string): void {
  for (const form of leakForms(secrets)) assert.ok(!text.includes(form), `${where} holds a secret (${form.slice(0, 6)}...)`);
}

describe('secrets', () => {
  let t: TestApp;
  let org: Organization;
  let apiToken: string;
  let adminToken: string;
  let workflowId: number;
  let firstWebhook: { url: string; path: string; token: string };
  let rotatedWebhookToken: string;
  const secrets = () => [operatorToken(), org.adminToken, adminToken, apiToken, firstWebhook.token, rotatedWebhookToken];

  /** Every kind of credential in use, with successes and failures. */
  before(async () => {
    t = await startTestApp({ captureLogs: true });
    org = await createOrganization(t);
    adminToken = (await createToken(t, org, 'admin')).secret;
    apiToken = (await createToken(t, org, 'api')).secret;
    workflowId = await createWorkflow(t, org);
    firstWebhook = await generateWebhook(t, org, workflowId);
    const casesPath = `/api/external/v1/workflows/${workflowId}/cases`;
    const expect = async (status: number, method: string, url: string, options: Parameters<TestApp['request']>[2] = {}) => {
      const res = await t.request(method, url, options);
      assert.equal(res.status, status, `${method} ${url.replace(/token=.*/, 'token=…')}: ${res.text}`);
      return res;
    };

    const created = await expect(201, 'POST', casesPath, { token: apiToken, body: { attributes: ATTRIBUTES } });
    const casePath = `${casesPath}/${created.body.case.id}`;
    await expect(200, 'GET', casePath, { token: apiToken });
    await expect(422, 'PATCH', casePath, { token: apiToken, body: { status: 'Nope' } });
    await expect(422, 'PATCH', casePath, { token: apiToken, body: { status: 'Open', token: apiToken } });
    await expect(401, 'GET', casePath, { token: adminToken });

    await expect(200, 'GET', '/api/admin/v1/tokens', { token: adminToken });
    await expect(200, 'GET', `/api/admin/v1/workflows/${workflowId}/webhook`, { token: org.adminToken });
    await expect(422, 'POST', '/api/admin/v1/tokens', { token: adminToken, body: { name: adminToken, scope: 'root' } });
    await expect(401, 'GET', '/api/admin/v1/tokens', { token: apiToken });

    const tokenQuery = `?token=${firstWebhook.token}`;
    await expect(201, 'POST', firstWebhook.path, { body: ATTRIBUTES });
    await expect(401, 'POST', `/api/external/v1/workflows/${workflowId + 1_000_000}/case_webhooks${tokenQuery}`, { body: ATTRIBUTES });
    await expect(422, 'POST', firstWebhook.path, { body: [ATTRIBUTES] });
    await expect(413, 'POST', firstWebhook.path, { rawBody: JSON.stringify({ ...ATTRIBUTES, pad: 'x'.repeat(1_048_576) }) });
    await expect(401, 'POST', `/api/external/v1/workflows/${workflowId}/case_webhooks?token=${apiToken}`, { headers: { authorization: `Bearer ${apiToken}` }, body: ATTRIBUTES });

    const rotated = await expect(200, 'POST', `/api/operator/v1/workflows/${workflowId}/webhook/rotate`, { token: operatorToken() });
    rotatedWebhookToken = rotated.body.webhook.token;
    await expect(401, 'POST', firstWebhook.path, { body: ATTRIBUTES });
    await expect(201, 'POST', `/api/external/v1/workflows/${workflowId}/case_webhooks?token=${rotatedWebhookToken}`, { body: ATTRIBUTES });
    await expect(401, 'GET', '/api/operator/v1/organizations', { token: `${operatorToken()}-wrong` });
  });
  after(async () => { await t.close(); await closeDb(); });

  describe('logs', () => {
    const requestLines = () =>
      t.logs.flatMap((line) => line.split('\n')).filter(Boolean).map((line) => JSON.parse(line)).filter((l): l is RequestLine => l.msg === 'request');

    it('no log line holds a secret', () => {
      assert.ok(t.logs.length > 0, 'the app wrote logs');
      assertNoSecretIn(t.logs.join(''), secrets(), 'the log');
      assert.ok(!/Bearer /i.test(t.logs.join('')), 'no Authorization header in the log');
    });

    it('every request is logged with its method, route pattern and status', () => {
      const lines = requestLines();
      const seen = new Set(lines.map((l) => `${l.method} ${l.route} ${l.status}`));
      for (const expected of [
        `GET ${CASE_ROUTE} 200`,
        `PATCH ${CASE_ROUTE} 422`,
        `GET ${CASE_ROUTE} 401`,
        'POST /api/admin/v1/tokens 422',
        `POST ${WEBHOOK_ROUTE} 201`,
        `POST ${WEBHOOK_ROUTE} 401`,
        `POST ${WEBHOOK_ROUTE} 422`,
        `POST ${WEBHOOK_ROUTE} 413`,
        'POST /api/operator/v1/workflows/:workflowId/webhook/rotate 200',
      ]) {
        assert.ok(seen.has(expected), `a request line "${expected}" among ${[...seen].join(' | ')}`);
      }
    });

    it('the webhook route is logged as its pattern, never with its token', () => {
      assert.ok(!t.logs.some((line) => line.includes('token=')), 'no query string in the log');
      for (const line of requestLines()) assert.ok(!line.route?.includes('?'), `route "${line.route}" is a pattern`);
    });
  });

  describe('storage', () => {
    it('access tokens are stored as 32-byte hashes, never as the secret', async () => {
      const { rows } = await db().query('SELECT token_hash FROM access_tokens WHERE organization_id = $1', [org.id]);
      assert.equal(rows.length, 3);
      for (const { token_hash: hash } of rows as { token_hash: Buffer }[]) {
        assert.equal(hash.length, 32);
        for (const secret of secrets()) assert.ok(!hash.equals(Buffer.from(secret)), 'the hash is not the secret');
      }
      assert.equal(new Set(rows.map((r) => r.token_hash.toString('hex'))).size, 3, 'one hash per token');
    });

    it('no stored row of the organization holds a secret in any column', async () => {
      for (const rows of ORGANIZATION_ROWS) {
        const result = await db().query(`SELECT row_to_json(t)::text AS json FROM ${rows}`, [org.id]);
        assert.ok(result.rows.length > 0, `rows in ${rows}`);
        assertNoSecretIn(result.rows.map((r) => r.json).join('\n'), secrets(), rows.split(' ')[0]!);
      }
    });

    it('the webhook token is stored as its SHA-256 and a v2. ciphertext that opens with the configured key for its row', async () => {
      const { rows } = await db().query('SELECT webhook_token_hash, webhook_token_ciphertext FROM workflows WHERE id = $1', [workflowId]);
      const { webhook_token_hash: hash, webhook_token_ciphertext: sealed } = rows[0] as { webhook_token_hash: Buffer; webhook_token_ciphertext: string };
      assert.ok(hash.equals(sha256(rotatedWebhookToken)), 'hash = sha256(current token)');
      assert.ok(sealed.startsWith('v2.'), 'versioned ciphertext');
      assertNoSecretIn(sealed, [rotatedWebhookToken, firstWebhook.token], 'the ciphertext');
      assert.equal(new SecretBox(t.env.TOKEN_ENCRYPTION_KEY).open(sealed, webhookTokenBinding(workflowId)), rotatedWebhookToken);
    });
  });
});
