import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { eventually, type IsolatedDatabase, isolatedDatabase, isolatedRedisPrefix } from '../support/automation-helpers.js';
import { createOrganization, createToken, createWorkflow, generateWebhook, operatorToken, type Organization } from '../support/scenario.js';
import { type ServiceProcess, spawnService } from '../support/service-process.js';
import { startTcpProxy, type TcpProxy, throughProxy } from '../support/tcp-proxy.js';
import type { TestApp } from '../support/test-app.js';
import { directDefinition, webhookPath } from '../support/webhook-helpers.js';

/** What docs/security.md and the operations spec promise: refused by every instance within this long. */
const WITHIN_MS = 1_000;
/** How long a test keeps polling before it reports how long the refusal really took. */
const GIVE_UP_MS = 3_000;

/**
 * Two API processes, A and B, on one database and one Redis channel. B reaches Postgres and
 * Redis through proxies the tests control: they hold back B's database answers (a slow look-up)
 * or everything B's subscription would hear (a silent subscriber), without closing anything.
 */
describe('credentials across instances', () => {
  let database: IsolatedDatabase;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let channel: Redis;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let org: Organization;
  const invalidations: string[] = [];

  before(async () => {
    database = await isolatedDatabase();
    const prefix = isolatedRedisPrefix();
    const redisUrl = process.env.REDIS_URL!;
    const pgTarget = new URL(database.url);
    const redisTarget = new URL(redisUrl);
    pgProxy = await startTcpProxy({ host: pgTarget.hostname, port: Number(pgTarget.port || 5432) });
    redisProxy = await startTcpProxy({ host: redisTarget.hostname, port: Number(redisTarget.port || 6379) });
    channel = new Redis(redisUrl);
    await channel.subscribe(`${prefix}:cache-invalidation`);
    channel.on('message', (_channel: string, raw: string) => { if (!raw.startsWith('heartbeat ')) invalidations.push(raw); });
    a = await spawnService('api', { DATABASE_URL: database.url, REDIS_PREFIX: prefix });
    b = await spawnService('api', { DATABASE_URL: throughProxy(database.url, pgProxy), REDIS_URL: throughProxy(redisUrl, redisProxy), REDIS_PREFIX: prefix });
    org = await createOrganization(a as unknown as TestApp);
  });
  after(async () => {
    pgProxy?.release();
    redisProxy?.release();
    await a?.kill();
    await b?.kill();
    channel?.disconnect();
    await pgProxy?.close();
    await redisProxy?.close();
    await database?.drop();
  });

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
      const sent = pgProxy.sentBytes();
      assert.equal(await tokenStatus(b, token.secret, token.workflowId), 422);
      return pgProxy.sentBytes() === sent ? true : undefined;
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

  /**
   * Runs `lookUp` on B with B's database answers held back, so its look-up reads the database
   * before `change` commits on A and returns only after B heard the invalidation.
   */
  async function raceOnB<T>(lookUp: () => Promise<T>, change: () => Promise<number>): Promise<{ raced: T; changedAt: number }> {
    pgProxy.hold();
    const racing = lookUp();
    await eventually('B\'s look-up to be answered by Postgres (and held back)', async () => (pgProxy.heldBytes() > 0 ? true : undefined), { timeoutMs: 5_000 });
    invalidations.length = 0;
    const changedAt = await change();
    await eventually('the invalidation on the channel', async () => (invalidations.length > 0 ? true : undefined), { timeoutMs: 5_000 });
    pgProxy.release();
    return { raced: await racing, changedAt };
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

  it('B\'s subscription goes silent (connection open, nothing arrives): a token deleted on A is refused on B within 1 s, and B caches again once it hears', async () => {
    const token = await givenToken();
    await cachedOnB(token);
    redisProxy.hold((link) => /subscribe/i.test(link.sent));
    try {
      const deletedAt = await deleteToken(token.id);
      const ms = await msUntilRefusedOnB(deletedAt, async () => (await tokenStatus(b, token.secret, token.workflowId)) === 401);
      assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
      assert.ok(redisProxy.heldBytes() > 0, 'the invalidation reached the proxy but not B');
    } finally {
      redisProxy.release();
    }
    await cachedOnB(await givenToken());
  });

  it('B cannot reach Redis: a token deleted on B answers 503 (not a silent 204), and A refuses it once B reaches Redis again', { timeout: 60_000 }, async () => {
    const token = await givenToken();
    await eventually('A to serve the token', async () => ((await tokenStatus(a, token.secret, token.workflowId)) === 422 ? true : undefined));
    redisProxy.cut();
    try {
      const res = await b.request('DELETE', `/api/admin/v1/tokens/${token.id}`, { token: org.adminToken });
      assert.equal(res.status, 503, res.text);
      assert.equal(typeof res.body.error, 'string');
      assert.equal(await tokenStatus(b, token.secret, token.workflowId), 401, 'B itself refuses it at once');
    } finally {
      redisProxy.restore();
    }
    await eventually('A to refuse the token deleted on B', async () => ((await tokenStatus(a, token.secret, token.workflowId)) === 401 ? true : undefined), { timeoutMs: 10_000 });
  });

  it('B\'s subscriber connection is killed (CLIENT KILL): a token deleted on A while B reconnects is refused on B within 1 s', async () => {
    const token = await givenToken();
    await cachedOnB(token);
    const subscriber = redisProxy.links().find((link) => /subscribe/i.test(link.sent));
    assert.ok(subscriber, 'B has a subscriber connection');
    const admin = new Redis(process.env.REDIS_URL!);
    try {
      assert.equal(await admin.client('KILL', 'ADDR', subscriber.upstreamAddress()), 1);
    } finally {
      admin.disconnect();
    }
    const deletedAt = await deleteToken(token.id);
    const ms = await msUntilRefusedOnB(deletedAt, async () => (await tokenStatus(b, token.secret, token.workflowId)) === 401);
    assert.ok(ms < WITHIN_MS, `refused on B after ${ms} ms`);
    await cachedOnB(await givenToken());
  });
});
