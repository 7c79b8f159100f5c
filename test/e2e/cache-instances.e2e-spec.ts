import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { eventually, type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { createOrganization, createToken, createWorkflow, generateWebhook, operatorToken, type Organization } from '../support/scenario.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';
import { type ProxyLink, startTcpProxy, type TcpProxy, throughProxy } from '../support/tcp-proxy.js';
import type { TestApp } from '../support/test-app.js';
import { directDefinition, webhookPath } from '../support/webhook-helpers.js';
import { freePort } from '../../scripts/local-infra.js';
import { emailDefinition } from '../support/email-helpers.js';
import { deliver } from '../support/smtp-client.js';

/** What docs/security.md and the operations spec promise: refused by every instance within this long. */
const WITHIN_MS = 1_000;
/** How long a test keeps polling before it reports how long the refusal really took. */
const GIVE_UP_MS = 3_000;

/** B's connection that polls cache_generation (it names itself so in its startup message). */
const isPollLink = (link: ProxyLink) => link.sent.includes('case-intake cache-generation');

/**
 * Two API processes, A and B, on one database and one Redis. B reaches Postgres through a proxy
 * the tests control: it holds back B's database answers (a slow look-up) or what B's poll of
 * cache_generation would hear (a silent poll), without closing anything. A reaches Redis
 * through another one, to cut or silence the writer's Redis alone.
 */
describe('credentials across instances', () => {
  let database: IsolatedDatabase;
  let pgProxy: TcpProxy;
  let aRedisProxy: TcpProxy;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let org: Organization;
  let bSmtpPort: number;

  before(async () => {
    database = await isolatedDatabase();
    const prefix = isolatedRedisPrefix();
    const redisUrl = process.env.REDIS_URL!;
    const pgTarget = new URL(database.url);
    const redisTarget = new URL(redisUrl);
    pgProxy = await startTcpProxy({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) });
    aRedisProxy = await startTcpProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
    a = await spawnService('api', { DATABASE_URL: database.url, REDIS_URL: throughProxy(redisUrl, aRedisProxy), REDIS_PREFIX: prefix });
    bSmtpPort = await freePort();
    b = await spawnService('api', { DATABASE_URL: throughProxy(database.url, pgProxy), REDIS_PREFIX: prefix, SMTP_PORT: String(bSmtpPort) });
    org = await createOrganization(a as unknown as TestApp);
  });
  after(async () => {
    pgProxy?.release();
    aRedisProxy?.release();
    aRedisProxy?.restore();
    await a?.kill();
    await b?.kill();
    await pgProxy?.close();
    await aRedisProxy?.close();
    await database?.drop();
  });

  /** What B sent to Postgres for requests (its polls left out). */
  const requestBytesFromB = () => pgProxy.links().filter((link) => !isPollLink(link)).reduce((sum, link) => sum + link.sentCount, 0);

  /** 422 (the token was accepted, then the bad Idempotency-Key refused before any database work) or 401. */
  async function tokenStatus(service: ServiceProcess, token: string, workflowId: number): Promise<number> {
    const res = await service.request('POST', `/api/external/v1/workflows/${workflowId}/cases`, {
      token,
      body: { subject: 'probe', attributes: {} },
      headers: { 'idempotency-key': 'not allowed' },
    });
    assert.ok(res.status === 422 || res.status === 401, `${res.status} ${res.text}`);
    return res.status;
  }

  async function givenToken(): Promise<{ id: number; secret: string; workflowId: number }> {
    const workflowId = await createWorkflow(a as unknown as TestApp, org, directDefinition());
    return { ...(await createToken(a as unknown as TestApp, org, 'api')), workflowId };
  }

  /** B answers for this token from its cache: accepted with no byte sent to Postgres. */
  async function cachedOnB(token: { secret: string; workflowId: number }): Promise<void> {
    await eventually('B to serve the token from its cache', async () => {
      const sent = requestBytesFromB();
      assert.equal(await tokenStatus(b, token.secret, token.workflowId), 422);
      return requestBytesFromB() === sent ? true : undefined;
    }, { timeoutMs: 5_000 });
  }

  /** Polls `refused` on B and answers how long after `since` it first held. */
  async function msUntilRefusedOnB(since: number, refused: () => Promise<boolean>): Promise<number> {
    for (;;) {
      if (await refused()) return Date.now() - since;
      if (Date.now() - since > GIVE_UP_MS) return Infinity;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function deleteToken(id: number): Promise<number> {
    const res = await a.request('DELETE', `/api/admin/v1/tokens/${id}`, { token: org.adminToken });
    assert.equal(res.status, 204, res.text);
    return Date.now();
  }

  /** Waits until B sent another poll (one poll at a time: the one before it was answered). */
  async function nextPollOfB(): Promise<void> {
    const sent = () => pgProxy.links().filter(isPollLink).reduce((sum, link) => sum + link.sentCount, 0);
    const before = sent();
    await eventually('B to poll cache_generation again', async () => (sent() > before ? true : undefined), { timeoutMs: 5_000 });
  }

  /**
   * Runs `lookUp` on B with B's database answers (not its polls) held back, so its look-up
   * reads the database before `change` commits on A and returns only after B's poll saw it.
   */
  async function raceOnB<T>(lookUp: () => Promise<T>, change: () => Promise<number>): Promise<{ raced: T; changedAt: number }> {
    pgProxy.hold((link) => !isPollLink(link));
    const racing = lookUp();
    try {
      await eventually('B\'s look-up to be answered by Postgres (and held back)', async () => (pgProxy.heldBytes() > 0 ? true : undefined), { timeoutMs: 5_000 });
      const changedAt = await change();
      await nextPollOfB(); // started after the commit...
      await nextPollOfB(); // ...and answered
      pgProxy.release();
      return { raced: await racing, changedAt };
    } finally {
      // Never leave B's database held for the next test, nor its look-up unawaited.
      pgProxy.release();
      await racing.catch(() => undefined);
    }
  }

  it('a token deleted on A is refused on B within 1 s', async () => {
    const token = await givenToken();
    await cachedOnB(token);
    const deletedAt = await deleteToken(token.id);
    const ms = await msUntilRefusedOnB(deletedAt, async () => (await tokenStatus(b, token.secret, token.workflowId)) === 401);
    assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
  });

  it('a token look-up on B that raced its deletion on A is not kept: refused on B within 1 s', async () => {
    const token = await givenToken();
    const { raced, changedAt } = await raceOnB(() => tokenStatus(b, token.secret, token.workflowId), () => deleteToken(token.id));
    assert.equal(raced, 422, 'the racing request started before the delete, so it may still pass');
    const ms = await msUntilRefusedOnB(changedAt, async () => (await tokenStatus(b, token.secret, token.workflowId)) === 401);
    assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
  });

  it('another organization\'s token deletions and publishes on A, heard by B, leave this organization\'s token in B\'s cache', async () => {
    const token = await givenToken();
    const other = await createOrganization(a as unknown as TestApp);
    const otherTokens = [await createToken(a as unknown as TestApp, other, 'api'), await createToken(a as unknown as TestApp, other, 'admin')];
    await cachedOnB(token);
    const generation = async () => BigInt((await database.pool.query('SELECT generation FROM cache_generation')).rows[0].generation);
    const before = await generation();
    for (const { id } of otherTokens) assert.equal((await a.request('DELETE', `/api/admin/v1/tokens/${id}`, { token: other.adminToken })).status, 204);
    await createWorkflow(a as unknown as TestApp, other, directDefinition());
    assert.equal(await generation(), before + 3n, 'each change was one an instance must hear of');
    await nextPollOfB(); // started after the changes...
    await nextPollOfB(); // ...and answered
    const sent = requestBytesFromB();
    assert.equal(await tokenStatus(b, token.secret, token.workflowId), 422);
    assert.equal(requestBytesFromB(), sent, 'B answered from its cache, with no look-up');
  });

  it('a webhook rotated on A: the old URL is refused on B within 1 s, also when B\'s look-up raced the rotation', async () => {
    const workflowId = await createWorkflow(a as unknown as TestApp, org, directDefinition());
    const { token } = await generateWebhook(a as unknown as TestApp, org, workflowId);
    const post = async (service: ServiceProcess, webhookToken: string) => (await service.request('POST', webhookPath(workflowId, webhookToken), { body: {} })).status;
    const rotate = async () => {
      const res = await a.request('POST', `/api/operator/v1/workflows/${workflowId}/webhook/rotate`, { token: operatorToken() });
      assert.equal(res.status, 200, res.text);
      return Date.now();
    };
    const { raced, changedAt } = await raceOnB(() => post(b, token), rotate);
    assert.equal(raced, 201);
    const ms = await msUntilRefusedOnB(changedAt, async () => (await post(b, token)) === 401);
    assert.ok(ms < WITHIN_MS, `old URL refused on B after ${ms} ms`);
    const shown = await a.request('GET', `/api/admin/v1/workflows/${workflowId}/webhook`, { token: org.adminToken });
    assert.equal(await post(b, shown.body.webhook.token), 201, 'the new URL works on B');
  });

  it('an inbound email address rotated on A: refused at RCPT TO on B within 1 s, also when B\'s look-up raced the rotation', async () => {
    const workflowId = await createWorkflow(a as unknown as TestApp, org, emailDefinition());
    const generated = await a.request('POST', `/api/admin/v1/workflows/${workflowId}/email_address`, { token: org.adminToken });
    assert.equal(generated.status, 201, generated.text);
    const rcptOnB = async (address: string) =>
      (await deliver({ port: bSmtpPort, to: [address], message: 'Subject: probe\r\n\r\nprobe\r\n' })).rcpt[0]!.code;
    const rotate = async () => {
      const res = await a.request('POST', `/api/operator/v1/workflows/${workflowId}/email_address/rotate`, { token: operatorToken() });
      assert.equal(res.status, 200, res.text);
      return Date.now();
    };
    const old: string = generated.body.email_address.address;
    const { raced, changedAt } = await raceOnB(() => rcptOnB(old), rotate);
    assert.equal(raced, 250);
    const ms = await msUntilRefusedOnB(changedAt, async () => (await rcptOnB(old)) === 550);
    assert.ok(ms < WITHIN_MS, `old address refused on B after ${ms} ms`);
    const shown = await a.request('GET', `/api/admin/v1/workflows/${workflowId}/email_address`, { token: org.adminToken });
    assert.equal(await rcptOnB(shown.body.email_address.address), 250, 'the new address works on B');
  });

  it('a webhook verification set, replaced or deleted on A holds on B within 1 s, also when B\'s look-up raced the setting', async () => {
    const workflowId = await createWorkflow(a as unknown as TestApp, org, directDefinition());
    const { token } = await generateWebhook(a as unknown as TestApp, org, workflowId);
    const body = '{"probe":true}';
    const signedWith = (secret: string) => ({ 'x-signature': createHmac('sha256', secret).update(body).digest('hex') });
    const post = async (headers: Record<string, string> = {}) => (await b.request('POST', webhookPath(workflowId, token), { rawBody: body, headers })).status;
    const change = async (method: 'PUT' | 'DELETE', secret = '') => {
      const res = await a.request(method, `/api/admin/v1/workflows/${workflowId}/webhook/verification`, {
        token: org.adminToken,
        ...(method === 'PUT' ? { body: { scheme: 'hmac', header: 'X-Signature', secret } } : {}),
      });
      assert.equal(res.status, method === 'PUT' ? 200 : 204, res.text);
      return Date.now();
    };
    const { raced, changedAt } = await raceOnB(() => post(), () => change('PUT', 'first-secret'));
    // B's look-up reads the verification after the workflow row, so the racing request may already see it.
    assert.ok(raced === 201 || raced === 401, `racing request: ${raced}`);
    const setMs = await msUntilRefusedOnB(changedAt, async () => (await post()) === 401);
    assert.ok(setMs < WITHIN_MS, `unsigned request refused on B after ${setMs} ms`);
    assert.equal(await post(signedWith('first-secret')), 201);
    const replacedAt = await change('PUT', 'second-secret');
    const replacedMs = await msUntilRefusedOnB(replacedAt, async () => (await post(signedWith('first-secret'))) === 401);
    assert.ok(replacedMs < WITHIN_MS, `the old secret refused on B after ${replacedMs} ms`);
    assert.equal(await post(signedWith('second-secret')), 201);
    const deletedAt = await change('DELETE');
    const deletedMs = await msUntilRefusedOnB(deletedAt, async () => (await post()) === 201);
    assert.ok(deletedMs < WITHIN_MS, `unsigned request taken on B after ${deletedMs} ms`);
  });

  it('a request form rotated on A: the old URL answers 404 on B within 1 s, also when B\'s look-up raced the rotation', async () => {
    const workflowId = await createWorkflow(a as unknown as TestApp, org, { name: 'Requests', case_source: 'ticketing', sensitive_data: false, attributes: {}, automations: {} });
    const generated = await a.request('POST', `/api/admin/v1/workflows/${workflowId}/form`, { token: org.adminToken });
    assert.equal(generated.status, 201, generated.text);
    const openOnB = async (url: string) => (await b.request('GET', new URL(url).pathname)).status;
    const rotate = async () => {
      const res = await a.request('POST', `/api/operator/v1/workflows/${workflowId}/form/rotate`, { token: operatorToken() });
      assert.equal(res.status, 200, res.text);
      return Date.now();
    };
    const old: string = generated.body.form.url;
    const { raced, changedAt } = await raceOnB(() => openOnB(old), rotate);
    assert.equal(raced, 200);
    const ms = await msUntilRefusedOnB(changedAt, async () => (await openOnB(old)) === 404);
    assert.ok(ms < WITHIN_MS, `old form URL answers 404 on B after ${ms} ms`);
    const shown = await a.request('GET', `/api/admin/v1/workflows/${workflowId}/form`, { token: org.adminToken });
    assert.equal(await openOnB(shown.body.form.url), 200, 'the new URL works on B');
  });

  it('a workflow unpublished on A stops intake on B within 1 s; republished, B takes cases again within 1 s', async () => {
    const workflowId = await createWorkflow(a as unknown as TestApp, org, directDefinition());
    const { token } = await generateWebhook(a as unknown as TestApp, org, workflowId);
    const post = async () => (await b.request('POST', webhookPath(workflowId, token), { body: {} })).status;
    const flip = async (action: 'unpublish' | 'publish') => {
      const res = await a.request('POST', `/api/admin/v1/workflows/${workflowId}/${action}`, { token: org.adminToken });
      assert.equal(res.status, 200, res.text);
      return Date.now();
    };
    // The racing request itself may pass or be refused by the case insert: either is fine.
    const { changedAt } = await raceOnB(post, () => flip('unpublish'));
    const refusedMs = await msUntilRefusedOnB(changedAt, async () => (await post()) === 401);
    assert.ok(refusedMs < WITHIN_MS, `unpublished workflow refused on B after ${refusedMs} ms`);
    const republishedAt = await flip('publish');
    const acceptedMs = await msUntilRefusedOnB(republishedAt, async () => (await post()) === 201);
    assert.ok(acceptedMs < WITHIN_MS, `republished workflow accepted on B after ${acceptedMs} ms`);
  });

  it('B\'s poll of cache_generation goes silent (connection open, nothing arrives): a token deleted on A is refused on B within 1 s, and B caches again once it hears', async () => {
    const token = await givenToken();
    await cachedOnB(token);
    pgProxy.hold(isPollLink);
    try {
      const deletedAt = await deleteToken(token.id);
      const ms = await msUntilRefusedOnB(deletedAt, async () => (await tokenStatus(b, token.secret, token.workflowId)) === 401);
      assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
      assert.ok(pgProxy.heldBytes() > 0, 'B polled, but heard nothing');
    } finally {
      pgProxy.release();
    }
    await cachedOnB(await givenToken());
  });

  it('B\'s polling connection is killed (pg_terminate_backend): a token deleted on A while B reconnects is refused on B within 1 s', async () => {
    const token = await givenToken();
    await cachedOnB(token);
    const poll = pgProxy.links().find(isPollLink);
    assert.ok(poll, 'B has a polling connection');
    const port = Number(poll.upstreamAddress().split(':').pop());
    const killed = await database.pool.query('SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE client_port = $1', [port]);
    assert.deepEqual(killed.rows, [{ killed: true }]);
    const deletedAt = await deleteToken(token.id);
    const ms = await msUntilRefusedOnB(deletedAt, async () => (await tokenStatus(b, token.secret, token.workflowId)) === 401);
    assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
    await cachedOnB(await givenToken());
  });

  it('writer-only partition: A loses Redis while B keeps it; a token B serves from its cache, deleted on A, answers 204 and is refused on B within 1 s', async () => {
    const token = await givenToken();
    await cachedOnB(token);
    aRedisProxy.cut();
    try {
      const deletedAt = await deleteToken(token.id);
      const ms = await msUntilRefusedOnB(deletedAt, async () => (await tokenStatus(b, token.secret, token.workflowId)) === 401);
      assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
    } finally {
      aRedisProxy.restore();
    }
  });

  it('A\'s Redis goes silent (connection open, nothing answers): a workflow unpublished on A answers 200 and stops intake on B within 1 s', async () => {
    const workflowId = await createWorkflow(a as unknown as TestApp, org, directDefinition());
    const { token } = await generateWebhook(a as unknown as TestApp, org, workflowId);
    const post = async () => (await b.request('POST', webhookPath(workflowId, token), { body: {} })).status;
    await eventually('B to take a case', async () => ((await post()) === 201 ? true : undefined), { timeoutMs: 5_000 });
    aRedisProxy.hold();
    try {
      const res = await a.request('POST', `/api/admin/v1/workflows/${workflowId}/unpublish`, { token: org.adminToken });
      assert.equal(res.status, 200, res.text);
      const unpublishedAt = Date.now();
      const ms = await msUntilRefusedOnB(unpublishedAt, async () => (await post()) === 401);
      assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
    } finally {
      aRedisProxy.release();
    }
  });
});
