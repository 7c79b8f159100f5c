/**
 * Rate limits per credential and per source address: a 429 with Retry-After and a JSON error,
 * counted in Redis so the limits hold across instances, never on the health probes, and no
 * limit at all (rather than failures) while Redis is unreachable.
 *
 * Windows last a minute, so every test uses its own tokens and its own source address (inject's
 * `remoteAddress`, which is what `request.ip` is: without TRUST_PROXY the app trusts no proxy header).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { caseCount } from '../support/cases-api.js';
import { assertJsonError } from '../support/foundation-assertions.js';
import { createToken, givenDirectWorkflow, type DirectWorkflow } from '../support/scenario.js';
import { randomBytes } from 'node:crypto';
import { closeDb, startTestApp, type InjectResult, type TestApp } from '../support/test-app.js';
import { directDefinition, givenWebhook, webhookPath } from '../support/webhook-helpers.js';

const LIMITED = { RATE_LIMIT_PER_ADDRESS: '20', RATE_LIMIT_PER_CREDENTIAL: '10', ROLE: 'api' };
const UNLIMITED = { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0', ROLE: 'api' };

let addresses = 0;
/** A source address no other test used, so each test starts with an empty address window. */
const freshAddress = () => `10.77.${Math.floor(++addresses / 200)}.${(addresses % 200) + 1}`;

interface Call {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request from `address` (TestApp.request always comes from 127.0.0.1). */
async function call(t: TestApp, address: string, method: string, url: string, { token, body, headers = {} }: Call = {}): Promise<InjectResult> {
  const res = await t.app.getHttpAdapter().getInstance().inject({
    method: method as 'GET',
    url,
    remoteAddress: address,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, headers: res.headers, text: res.body, body: parseJson(res.body) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The statuses of `count` calls made one after the other. */
async function statuses(count: number, send: (i: number) => Promise<InjectResult>): Promise<number[]> {
  const answers: number[] = [];
  for (let i = 0; i < count; i++) answers.push((await send(i)).status);
  return answers;
}

const times = (n: number, status: number) => Array<number>(n).fill(status);

/** A 429: `Retry-After` in whole seconds within the one-minute window, a JSON error, no secret echoed. */
function assertLimited(res: InjectResult, secrets: string[] = []): void {
  assertJsonError(res, 429);
  const retryAfter = String(res.headers['retry-after']);
  assert.match(retryAfter, /^[0-9]+$/, `Retry-After is whole seconds: ${retryAfter}`);
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, `Retry-After within the window: ${retryAfter}`);
  for (const secret of secrets) assert.ok(!res.text.includes(secret), 'the 429 body does not echo the credential');
}

describe('rate limits', () => {
  /** Limits off: creates organizations, tokens and workflows without spending any window. */
  let setup: TestApp;
  /** Two instances with the same limits and the same Redis prefix. */
  let api: TestApp;
  let peer: TestApp;
  /** The credential limit alone (address limit off). */
  let credentialOnly: TestApp;
  before(async () => {
    [setup, api, peer, credentialOnly] = await Promise.all([
      startTestApp({ env: UNLIMITED }),
      startTestApp({ env: LIMITED }),
      startTestApp({ env: LIMITED }),
      startTestApp({ env: { ...LIMITED, RATE_LIMIT_PER_ADDRESS: '0' } }),
    ]);
  });
  after(async () => {
    await Promise.all([setup.close(), api.close(), peer.close(), credentialOnly.close()]);
    await closeDb();
  });

  /** A workflow with one case, and the URL that reads it. */
  async function givenCase(): Promise<DirectWorkflow & { caseUrl: string }> {
    const w = await givenDirectWorkflow(setup, directDefinition());
    const created = await setup.request('POST', w.casesPath, { token: w.apiToken, body: {} });
    assert.equal(created.status, 201, created.text);
    return { ...w, caseUrl: `${w.casesPath}/${created.body.case.id}` };
  }

  it('an API token gets 429 after 10 requests in the window, with Retry-After and a JSON error that does not echo the token', async () => {
    const w = await givenCase();
    const address = freshAddress();
    assert.deepEqual(await statuses(10, () => call(api, address, 'GET', w.caseUrl, { token: w.apiToken })), times(10, 200));
    for (let i = 0; i < 2; i++) assertLimited(await call(api, address, 'GET', w.caseUrl, { token: w.apiToken }), [w.apiToken]);
  });

  it("another token is not limited by the first one's window", async () => {
    const w = await givenCase();
    const other = await createToken(setup, w.org, 'api');
    const address = freshAddress();
    assert.deepEqual(await statuses(11, () => call(api, address, 'GET', w.caseUrl, { token: w.apiToken })), [...times(10, 200), 429]);
    assert.deepEqual(await statuses(5, () => call(api, address, 'GET', w.caseUrl, { token: other.secret })), times(5, 200));
  });

  /** With the address limit off, 10 posts to one webhook URL create cases and the 11th is a 429 that creates nothing. */
  async function assertWebhookLimitedAfter10(extra: () => Call): Promise<void> {
    const w = await givenWebhook(setup);
    const url = webhookPath(w.workflowId, w.token);
    const address = freshAddress();
    const post = (i: number) => call(credentialOnly, address, 'POST', url, { ...extra(), body: { n: i } });
    assert.deepEqual(await statuses(10, post), times(10, 201));
    assertLimited(await post(10), [w.token]);
    assert.equal(await caseCount(w.workflowId), 10, 'the limited post created nothing');
  }

  it('with the address limit off, the credential limit alone holds: the 11th webhook post is a 429 and creates no case', async () => {
    await assertWebhookLimitedAfter10(() => ({}));
  });

  it('requests without credentials from one address get 429 after 20, whatever they carry next; another address is not limited', async () => {
    const w = await givenWebhook(setup);
    const address = freshAddress();
    assert.deepEqual(await statuses(20, () => call(api, address, 'GET', '/api/admin/v1/tokens')), times(20, 401));
    assertLimited(await call(api, address, 'GET', '/api/admin/v1/tokens'));
    assertLimited(await call(api, address, 'POST', webhookPath(w.workflowId, w.token), { body: { n: 1 } }), [w.token]);
    assertLimited(await call(api, address, 'GET', '/api/admin/v1/tokens', { token: w.org.adminToken }), [w.org.adminToken]);
    // No proxy is trusted: a forwarded-for header does not make another address of the same sender.
    assertLimited(await call(api, address, 'GET', '/api/admin/v1/tokens', { headers: { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9', forwarded: 'for=203.0.113.9' } }));
    assert.equal(await caseCount(w.workflowId), 0, 'the limited webhook post created nothing');
    assert.equal((await call(api, freshAddress(), 'GET', '/api/admin/v1/tokens')).status, 401);
  });

  it('a webhook sender adding a random Authorization header to every post is still limited by its webhook token', async () => {
    await assertWebhookLimitedAfter10(() => ({ token: `api_${randomBytes(12).toString('hex')}` }));
  });

  it('a bearer route counts the bearer token, whatever `?token=` the caller adds', async () => {
    const w = await givenCase();
    const address = freshAddress();
    const read = () => call(credentialOnly, address, 'GET', `${w.caseUrl}?token=whk_${randomBytes(12).toString('hex')}`, { token: w.apiToken });
    assert.deepEqual(await statuses(10, read), times(10, 200));
    assertLimited(await read(), [w.apiToken]);
  });

  it('behind a trusted proxy (TRUST_PROXY), each client has its own address window; forged X-Forwarded-For entries and untrusted peers change nothing', async () => {
    const proxied = await startTestApp({ env: { ...LIMITED, TRUST_PROXY: '10.99.0.0/16, fd00:99::/64' }, captureLogs: true });
    try {
      const viaProxy = (client: string, forged = '') => (proxy = '10.99.0.5') =>
        call(proxied, proxy, 'GET', '/api/admin/v1/tokens', { headers: { 'x-forwarded-for': `${forged}${client}` } });
      // Client A, its requests sometimes through a second trusted proxy, and with a forged
      // left-most entry that changes on every request: one window, A's.
      const clientA = '203.0.113.10';
      const fromA = (i: number) => (i % 2 ? viaProxy(`${clientA}, 10.99.7.7`, `198.51.100.${i}, `) : viaProxy(clientA, `198.51.100.${i}, `))();
      assert.deepEqual(await statuses(20, fromA), times(20, 401));
      assertLimited(await fromA(20));
      // Client B behind the same proxy is not limited by A's window, over IPv4 or IPv6.
      assert.equal((await viaProxy('203.0.113.11')()).status, 401);
      assert.equal((await viaProxy('2001:db8::11')('fd00:99::1')).status, 401);
      // The request log names the client, not the proxy.
      assert.ok(proxied.logs.some((line) => line.includes('"address":"203.0.113.11"')), 'the request log names client B');
      // A peer that is not a trusted proxy is its own client whatever X-Forwarded-For it sends.
      const untrusted = freshAddress();
      const spoofing = (i: number) => call(proxied, untrusted, 'GET', '/api/admin/v1/tokens', { headers: { 'x-forwarded-for': `203.0.114.${i}` } });
      assert.deepEqual(await statuses(20, spoofing), times(20, 401));
      assertLimited(await spoofing(20));
    } finally {
      await proxied.close();
    }
  });

  it('all addresses of one IPv6 /64 share one address window; the next /64 has its own', async () => {
    const subnet = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const fromSubnet = (i: number) => call(api, `${subnet}:${randomBytes(2).toString('hex')}:${i.toString(16)}::1`, 'GET', '/api/admin/v1/tokens');
    assert.deepEqual(await statuses(20, fromSubnet), times(20, 401));
    assertLimited(await fromSubnet(20));
    assertLimited(await call(api, `${subnet}::ffff`, 'GET', '/api/admin/v1/tokens'));
    assert.equal((await call(api, `${subnet.replace(/[0-9a-f]+$/, (last) => ((parseInt(last, 16) + 1) % 0x10000).toString(16))}::1`, 'GET', '/api/admin/v1/tokens')).status, 401);
  });

  it('/healthz and /readyz are never limited and do not count', async () => {
    const address = freshAddress();
    const probes = (n: number) => statuses(n, (i) => call(api, address, 'GET', i % 2 ? '/readyz' : '/healthz'));
    assert.deepEqual(await probes(30), times(30, 200));
    assert.deepEqual(await statuses(20, () => call(api, address, 'GET', '/api/admin/v1/tokens')), times(20, 401), 'the probes did not count');
    assertLimited(await call(api, address, 'GET', '/api/admin/v1/tokens'));
    assert.deepEqual(await probes(10), times(10, 200), 'probes pass while the address is limited');
  });

  /** Alternates between the two instances. */
  const eitherInstance = (i: number) => [api, peer][i % 2]!;

  /**
   * Each instance counts in memory and settles with Redis every RATE_LIMIT_SETTLE_MS
   * (WindowCounters), so across two instances what a limit lets in lies between the limit and
   * twice it, whatever the timing: no instance answers above the true count, and each stops at
   * the limit by its own count. Sends alternately until both instances answer 429 and checks
   * those bounds, and that an instance that limited the caller keeps doing so.
   */
  async function assertSharedLimit(limit: number, send: (i: number) => Promise<InjectResult>, admitted: number, secrets: string[] = []): Promise<void> {
    const answers: number[] = [];
    const limitedFrom = new Map<number, number>();
    for (let i = 0; limitedFrom.size < 2 && i < 4 * limit; i++) {
      const res = await send(i);
      answers.push(res.status);
      if (res.status === 429) {
        assertLimited(res, secrets);
        if (!limitedFrom.has(i % 2)) limitedFrom.set(i % 2, i);
      }
    }
    assert.equal(limitedFrom.size, 2, `both instances limit the caller within ${4 * limit} requests: ${answers.join(' ')}`);
    assert.deepEqual(answers.slice(0, limit), times(limit, admitted), 'the first requests up to the limit all pass');
    const passed = answers.filter((status) => status === admitted).length;
    assert.ok(passed <= 2 * limit, `at most twice the limit passes across two instances, ${passed} did`);
    for (const [instance, first] of limitedFrom) {
      assert.ok(answers.every((status, i) => i < first || i % 2 !== instance || status === 429), `instance ${instance} keeps limiting: ${answers.join(' ')}`);
    }
  }

  it('the credential limit holds across two instances sharing Redis: between 10 and 20 requests pass', async () => {
    const w = await givenCase();
    const address = freshAddress();
    await assertSharedLimit(10, (i) => call(eitherInstance(i), address, 'GET', w.caseUrl, { token: w.apiToken }), 200, [w.apiToken]);
  });

  it('the address limit holds across two instances sharing Redis: between 20 and 40 requests pass', async () => {
    const address = freshAddress();
    await assertSharedLimit(20, (i) => call(eitherInstance(i), address, 'GET', '/api/admin/v1/workflows'), 401);
  });

  it('never blocks for longer than the one-minute window: every counter in Redis expires within 60 s', async () => {
    const address = freshAddress();
    await statuses(21, () => call(api, address, 'GET', '/api/admin/v1/tokens'));
    const redis = new Redis(api.env.REDIS_URL);
    try {
      const keys = await redis.keys(`${api.env.REDIS_PREFIX}:rate-limit:*`);
      assert.ok(keys.some((k) => k.endsWith(`address:${address}`)), `a counter for ${address} among ${keys.length} keys`);
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        assert.ok(ttl > 0 && ttl <= 60_000, `${key} expires within the window (PTTL ${ttl})`);
        assert.doesNotMatch(key, /(api|adm|whk)_/, 'keys hold no secret');
      }
    } finally {
      redis.disconnect();
    }
  });

  it('with Redis unreachable, requests are not limited and do not fail', { timeout: 60_000 }, async () => {
    const w = await givenWebhook(setup);
    const down = await startTestApp({ env: { ...LIMITED, RATE_LIMIT_PER_ADDRESS: '2', RATE_LIMIT_PER_CREDENTIAL: '1', REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const address = freshAddress();
      assert.deepEqual(await statuses(5, (i) => call(down, address, 'POST', webhookPath(w.workflowId, w.token), { body: { n: i } })), times(5, 201));
      assert.equal(await caseCount(w.workflowId), 5);
      assert.deepEqual(await statuses(5, () => call(down, address, 'GET', '/api/admin/v1/tokens', { token: w.org.adminToken })), times(5, 200));
    } finally {
      await down.close();
    }
  });
});
