/**
 * Secrets at rest: every stored secret is bound to its row, and the encryption key can be
 * rotated while keeping every secret usable. Real processes on a database of this file's own,
 * so no other app of the test run (with the run's key) opens these rows.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before, describe, it } from 'node:test';
import { DataSource } from 'typeorm';
import { rotateEncryptionKey } from '../../src/shared/crypto/rotate-encryption-key.js';
import { SecretBox } from '../../src/shared/crypto/secret-box.js';
import { organizationSecretBinding, ssoClientSecretBinding } from '../../src/shared/crypto/stored-secrets.js';
import { SEALED_COLUMNS } from '../../src/rotate-encryption-key.js';
import { dataSourceOptions } from '../../src/shared/database/data-source-options.js';
import { type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix, type Requester } from '../support/automation-helpers.js';
import { createOrganization, createWorkflow, generateWebhook } from '../support/scenario.js';
import { sealV1 } from '../support/sealed-secrets.js';
import { tableOwners } from '../support/module-persistences.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';
import { REPO_ROOT, sourceFiles } from '../support/source-files.js';
import { Receiver, subscribe, type Subscription, verifySignature, waitFor } from '../support/subscription-helpers.js';
import type { TestApp } from '../support/test-app.js';
import { readUrlFor } from '../support/test-infra.js';
import { createdCaseId, directDefinition, givenWebhook, postWebhook, type WebhookWorkflow } from '../support/webhook-helpers.js';

const ROTATE = fileURLToPath(new URL('../../src/rotate-encryption-key.js', import.meta.url));
const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('base64');
const CRM_KEY = `crm-${randomBytes(8).toString('hex')}`;
const SIGNING_SECRET = `gh-${randomBytes(8).toString('hex')}`;
const SSO_CLIENT_SECRET = `sso-${randomBytes(8).toString('hex')}`;

/** The source files under src/modules that publish sealed columns, with the tables they name. */
function sealedColumnSources(): { path: string; tables: string[] }[] {
  return sourceFiles(join(REPO_ROOT, 'src', 'modules')).flatMap((path) => {
    const tables = [...readFileSync(path, 'utf8').matchAll(/sealedColumn\(\{\s*table: '(\w+)'/g)].map((m) => m[1]!);
    return tables.length ? [{ path: relative(REPO_ROOT, path), tables }] : [];
  });
}

/** The scenario helpers only ever call request(), which a service process has. */
const app = (r: Requester) => r as TestApp;

interface ScriptResult {
  code: number | null;
  output: string;
}

describe('secrets at rest: bound to their row, and the key rotates', () => {
  let database: IsolatedDatabase;
  let receiver: Receiver;
  const prefix = isolatedRedisPrefix();
  const processes: ServiceProcess[] = [];

  before(async () => {
    database = await isolatedDatabase();
    receiver = await Receiver.start();
  });
  afterEach(async () => {
    for (const service of processes.splice(0)) await service.kill('SIGTERM');
  });
  after(async () => {
    await receiver?.stop();
    await database?.drop();
  });

  /** An API and a worker process with these keys; returns the API. */
  async function startService(keys: { TOKEN_ENCRYPTION_KEY: string; TOKEN_ENCRYPTION_OLD_KEYS?: string }): Promise<ServiceProcess> {
    const env = { DATABASE_URL: database.url, REDIS_PREFIX: prefix, TOKEN_ENCRYPTION_OLD_KEYS: '', ...keys };
    const api = await spawnService('api', env);
    processes.push(api, await spawnService('worker', env));
    return api;
  }

  async function stopService(): Promise<void> {
    for (const service of processes.splice(0)) await service.kill('SIGTERM');
  }

  function rotate(keys: { TOKEN_ENCRYPTION_KEY: string; TOKEN_ENCRYPTION_OLD_KEYS?: string }): Promise<ScriptResult> {
    const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
    const child = spawn(process.execPath, [ROTATE], {
      env: { ...inherited, DATABASE_URL: database.url, DATABASE_READ_URL: readUrlFor({ DATABASE_URL: database.url }), TOKEN_ENCRYPTION_OLD_KEYS: '', ...keys },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
  }

  async function shownWebhook(api: Requester, w: WebhookWorkflow) {
    return api.request('GET', `/api/admin/v1/workflows/${w.workflowId}/webhook`, { token: w.org.adminToken });
  }

  async function ciphertextOf(table: 'workflows' | 'subscriptions', id: number): Promise<string> {
    const column = table === 'workflows' ? 'webhook_token_ciphertext' : 'secret_ciphertext';
    const { rows } = await database.pool.query(`SELECT ${column} AS sealed FROM ${table} WHERE id = $1`, [id]);
    return rows[0].sealed;
  }

  /** Creates a case through the webhook and checks its case.created delivery at `path` verifies with `secret`; returns the case id. */
  /** Signed with each of `secrets` (a subscription whose signing secret was rotated signs with both for a day). */
  async function assertSignedDelivery(api: Requester, w: WebhookWorkflow, path: string, ...secrets: string[]): Promise<number> {
    const caseId = createdCaseId(await postWebhook(app(api), w.workflowId, w.token, { after: 'rotation' }));
    const request = await waitFor(`case.created of case ${caseId} at ${path}`, () =>
      receiver.at(path).find((r) => r.answered < 300 && JSON.parse(r.rawBody).data.case.id === caseId),
    );
    for (const secret of secrets) verifySignature(secret, request);
    return caseId;
  }

  it('rotated to a new key, the service restarted without the old key still shows, accepts, signs and sends every secret (v2 and v1 alike)', async () => {
    let api = await startService({ TOKEN_ENCRYPTION_KEY: KEY_A });
    // Every new case calls the CRM with the organization secret in a header.
    const crmCall = { http_request: { method: 'POST', url: `${receiver.url}/crm/{{ case.id }}`, headers: { authorization: 'Bearer {{ secrets.CRM_KEY }}' }, retries: 0 } };
    const sealedNow = await givenWebhook(app(api), directDefinition({ automations: { Open: [crmCall] } }));
    const put = await api.request('PUT', '/api/admin/v1/secrets/CRM_KEY', { token: sealedNow.org.adminToken, body: { value: CRM_KEY } });
    assert.equal(put.status, 200, put.text);
    const storedV1 = await givenWebhook(app(api));
    // A webhook verification's secret is sealed too (its workflow gets its token only after the restart).
    const verifiedId = await createWorkflow(app(api), sealedNow.org, directDefinition());
    const verification = await api.request('PUT', `/api/admin/v1/workflows/${verifiedId}/webhook/verification`, { token: sealedNow.org.adminToken, body: { scheme: 'github', secret: SIGNING_SECRET } });
    assert.equal(verification.status, 200, verification.text);
    const subscriptions: Subscription[] = [];
    for (const [w, path] of [[sealedNow, '/v2'], [storedV1, '/v1']] as const) {
      subscriptions.push(await subscribe(app(api), w.org, { url: `${receiver.url}${path}`, events: ['case.created'], workflow_ids: [w.workflowId] }));
    }
    const [sealedNowSubscription, storedV1Subscription] = subscriptions as [Subscription, Subscription];
    // A rotated signing secret: the replaced one is sealed too, in its own column.
    const rotatedSecret = await api.request('POST', `/api/admin/v1/subscriptions/${sealedNowSubscription.id}/rotate-secret`, { token: sealedNow.org.adminToken });
    assert.equal(rotatedSecret.status, 200, rotatedSecret.text);
    const newSigningSecret: string = rotatedSecret.body.signing_secret;
    // As the code before v2 stored them: raw key A, no binding.
    await database.pool.query('UPDATE workflows SET webhook_token_ciphertext = $1 WHERE id = $2', [sealV1(KEY_A, storedV1.token), storedV1.workflowId]);
    await database.pool.query('UPDATE subscriptions SET secret_ciphertext = $1 WHERE id = $2', [sealV1(KEY_A, storedV1Subscription.secret), storedV1Subscription.id]);
    const before = [await ciphertextOf('workflows', sealedNow.workflowId), await ciphertextOf('subscriptions', sealedNowSubscription.id)];
    // Single sign-on's client secret, as PUT /api/admin/v1/sso (an owner's) seals it.
    await database.pool.query(
      `INSERT INTO sso_configurations (organization_id, issuer, client_id, client_secret_ciphertext, email_domains, default_role, required)
       VALUES ($1, 'https://idp.example', 'case-intake', $2, '{example.com}', 'viewer', false)`,
      [sealedNow.org.id, new SecretBox(KEY_A).seal(SSO_CLIENT_SECRET, ssoClientSecretBinding(sealedNow.org.id))],
    );
    await stopService();

    const rotated = await rotate({ TOKEN_ENCRYPTION_KEY: KEY_B, TOKEN_ENCRYPTION_OLD_KEYS: KEY_A });
    assert.equal(rotated.code, 0, rotated.output);
    assert.match(rotated.output, /^workflows: 2 re-encrypted, 0 already current, 0 not opened$/m);
    assert.match(rotated.output, /^subscriptions: 2 re-encrypted, 0 already current, 0 not opened$/m);
    assert.match(rotated.output, /^subscriptions \(replaced signing secrets\): 1 re-encrypted, 0 already current, 0 not opened$/m);
    assert.match(rotated.output, /^organization_secrets: 1 re-encrypted, 0 already current, 0 not opened$/m);
    assert.match(rotated.output, /^webhook_verifications: 1 re-encrypted, 0 already current, 0 not opened$/m);
    assert.match(rotated.output, /^sso_configurations: 1 re-encrypted, 0 already current, 0 not opened$/m);
    const { rows: [sso] } = await database.pool.query('SELECT client_secret_ciphertext AS sealed FROM sso_configurations WHERE organization_id = $1', [sealedNow.org.id]);
    assert.equal(new SecretBox(KEY_B).open(sso.sealed, ssoClientSecretBinding(sealedNow.org.id)), SSO_CLIENT_SECRET, 'the new key alone opens it');
    const secrets = [CRM_KEY, SIGNING_SECRET, SSO_CLIENT_SECRET, sealedNow.token, storedV1.token, sealedNowSubscription.secret, newSigningSecret, storedV1Subscription.secret, KEY_A, KEY_B];
    for (const secret of secrets) assert.ok(!rotated.output.includes(secret), 'the script prints counts, never a secret or key');

    const again = await rotate({ TOKEN_ENCRYPTION_KEY: KEY_B, TOKEN_ENCRYPTION_OLD_KEYS: KEY_A });
    assert.equal(again.code, 0, again.output);
    assert.match(again.output, /^workflows: 0 re-encrypted, 2 already current, 0 not opened$/m, 'running it again changes nothing');
    assert.match(again.output, /^subscriptions: 0 re-encrypted, 2 already current, 0 not opened$/m);
    assert.match(again.output, /^subscriptions \(replaced signing secrets\): 0 re-encrypted, 1 already current, 0 not opened$/m);
    assert.match(again.output, /^organization_secrets: 0 re-encrypted, 1 already current, 0 not opened$/m);
    assert.match(again.output, /^webhook_verifications: 0 re-encrypted, 1 already current, 0 not opened$/m);
    const after = [await ciphertextOf('workflows', sealedNow.workflowId), await ciphertextOf('subscriptions', sealedNowSubscription.id)];
    for (const [i, sealed] of after.entries()) assert.ok(sealed.startsWith('v2.') && sealed !== before[i], 'sealed anew');
    assert.ok((await ciphertextOf('workflows', storedV1.workflowId)).startsWith('v2.'), 'v1 rewritten');
    assert.ok((await ciphertextOf('subscriptions', storedV1Subscription.id)).startsWith('v2.'), 'v1 rewritten');

    api = await startService({ TOKEN_ENCRYPTION_KEY: KEY_B });
    for (const w of [sealedNow, storedV1]) {
      const shown = await shownWebhook(api, w);
      assert.equal(shown.status, 200, shown.text);
      assert.equal(shown.body.webhook.token, w.token, 'the webhook URL shown is the one senders have');
    }
    const caseId = await assertSignedDelivery(api, sealedNow, '/v2', newSigningSecret, sealedNowSubscription.secret);
    const crmRequest = await waitFor(`the CRM call of case ${caseId}`, () => receiver.at(`/crm/${caseId}`)[0]);
    assert.equal(crmRequest.headers.authorization, `Bearer ${CRM_KEY}`, 'the organization secret still opens');
    await assertSignedDelivery(api, storedV1, '/v1', storedV1Subscription.secret);
    const { token } = await generateWebhook(app(api), sealedNow.org, verifiedId);
    const body = '{"verified":"after rotation"}';
    const signature = `sha256=${createHmac('sha256', SIGNING_SECRET).update(body).digest('hex')}`;
    createdCaseId(await postWebhook(app(api), verifiedId, token, body, { headers: { 'x-hub-signature-256': signature } }));
    assert.equal((await postWebhook(app(api), verifiedId, token, body)).status, 401, 'the verification still holds');
  });

  it('a ciphertext copied to another row does not open there, and the rotation refuses it (non-zero, naming the row, not the value)', async () => {
    const api = await startService({ TOKEN_ENCRYPTION_KEY: KEY_B });
    const victim = await givenWebhook(app(api));
    const attacker = await givenWebhook(app(api));
    await database.pool.query('UPDATE workflows SET webhook_token_ciphertext = $1 WHERE id = $2', [await ciphertextOf('workflows', victim.workflowId), attacker.workflowId]);

    const shown = await shownWebhook(api, attacker);
    assert.notEqual(shown.status, 200, 'the other row\'s token is not shown');
    assert.ok(!shown.text.includes(victim.token), shown.text);
    assert.equal(typeof shown.body.error, 'string', shown.text);

    await stopService();
    const rotated = await rotate({ TOKEN_ENCRYPTION_KEY: KEY_B });
    assert.equal(rotated.code, 1, rotated.output);
    assert.match(rotated.output, new RegExp(`^workflows: no configured key opens the value of row\\(s\\) ${attacker.workflowId}$`, 'm'));
    for (const secret of [victim.token, attacker.token, KEY_B]) assert.ok(!rotated.output.includes(secret), 'never a secret or key');
  });

  it('covers every sealed column of the migrated schema, each published by the module that owns its table', async () => {
    const { rows } = await database.pool.query<{ sealed: string }>(
      `SELECT table_name || '.' || column_name AS sealed FROM information_schema.columns
       WHERE table_schema = 'public' AND column_name LIKE '%\\_ciphertext' ORDER BY 1`,
    );
    assert.ok(rows.length >= 10, `only ${rows.length} sealed columns found`);
    assert.deepEqual(SEALED_COLUMNS.map((c) => `${c.table}.${c.ciphertext}`).sort(), rows.map((r) => r.sealed));
    const owners = await tableOwners();
    const sources = sealedColumnSources();
    assert.deepEqual(sources.flatMap((f) => f.tables).sort(), SEALED_COLUMNS.map((c) => c.table).sort(), 'every published column comes from a module');
    for (const { path, tables } of sources) {
      const owned = owners[path.split('/').slice(0, 3).join('/')] ?? [];
      for (const table of tables) assert.ok(owned.includes(table), `${path} publishes ${table}, which its module does not own`);
    }
  });

  it('pages through a table in batches, by a composite key too, and re-seals each of its rows', async () => {
    const org = await createOrganization(app(await startService({ TOKEN_ENCRYPTION_KEY: KEY_B })));
    await stopService();
    const values = new Map(['A', 'B', 'C', 'D', 'E'].map((name) => [name, `${name}-${randomBytes(8).toString('hex')}`]));
    for (const [name, value] of values) {
      await database.pool.query('INSERT INTO organization_secrets (organization_id, name, value_ciphertext) VALUES ($1, $2, $3)', [org.id, name, sealV1(KEY_A, value)]);
    }
    const source = new DataSource(dataSourceOptions({ DATABASE_URL: database.url }));
    await source.initialize();
    try {
      const columns = SEALED_COLUMNS.filter((c) => c.table === 'organization_secrets');
      const [counts] = await rotateEncryptionKey(source, new SecretBox(KEY_B, [KEY_A]), columns, { batchSize: 2 });
      assert.equal(counts?.rewritten, 5, JSON.stringify(counts));
      assert.deepEqual(counts?.unopenable, []);
    } finally {
      await source.destroy();
    }
    const { rows } = await database.pool.query('SELECT name, value_ciphertext FROM organization_secrets WHERE organization_id = $1 ORDER BY name', [org.id]);
    assert.deepEqual(rows.map((r) => r.name), [...values.keys()]);
    for (const { name, value_ciphertext: sealed } of rows) {
      assert.equal(new SecretBox(KEY_B).open(sealed, organizationSecretBinding(org.id, name)), values.get(name), `${name} re-sealed with the new key`);
    }
  });
});
