/**
 * What a caller without a valid credential can make the service do: no body read or parsed
 * (the credential, a form's secret included, is checked in an onRequest hook, before Fastify's
 * parser), no body over a form route's 64 KB read at all, no share of the large-body budget for
 * a form post, a readiness check at most once a second however many probes arrive, and no
 * metrics when METRICS_TOKEN is set.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { assertJsonError } from '../support/foundation-assertions.js';
import { givenDirectWorkflow, operatorToken } from '../support/scenario.js';
import { closeDb, startTestApp, type TestApp } from '../support/test-app.js';
import { givenFormWorkflow } from '../support/form-helpers.js';
import { alteredToken, givenWebhook, objectOfBytes, webhookPath } from '../support/webhook-helpers.js';

const MAX_BODY_BYTES = 1_048_576;
const OVER_LIMIT = objectOfBytes(MAX_BODY_BYTES + 1024);

/**
 * A socket to the app, listening on a port of its own; destroyed when the test ends by its
 * timeout, so a service that waits for the body fails the test instead of holding the app open.
 */
async function connectTo(t: TestApp, ended: AbortSignal): Promise<Socket> {
  if (!t.app.getHttpServer().listening) await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  ended.addEventListener('abort', () => socket.destroy(), { once: true });
  return socket;
}

/** The status line the app answers to `head` and `firstBytes` of a body that never finishes arriving. */
async function statusLineOfUnfinishedBody(t: TestApp, ended: AbortSignal, head: string, firstBytes: string): Promise<string> {
  const socket = await connectTo(t, ended);
  try {
    const statusLine = new Promise<string>((resolve, reject) => {
      let received = '';
      socket.on('data', (chunk) => {
        received += String(chunk);
        if (received.includes('\r\n')) resolve(received.split('\r\n')[0]!);
      });
      socket.on('error', reject);
      socket.on('close', () => reject(new Error('closed without an answer')));
    });
    socket.write(`${head}\r\n\r\n${firstBytes}`);
    return await statusLine;
  } finally {
    socket.destroy();
  }
}

describe('unauthenticated work', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_CREDENTIAL: '0' } });
  });
  after(async () => {
    await t.close();
    await closeDb();
  });

  describe('a bad credential is answered 401 before the body is read', () => {
    // 413 (too large) and 415 (wrong media type) come from reading the body: a 401 instead
    // shows the request was turned away before that.
    it('a bad webhook token with a body over the limit gets 401, not 413', async () => {
      const w = await givenWebhook(t);
      assertJsonError(await t.request('POST', webhookPath(w.workflowId, alteredToken(w.token)), { rawBody: OVER_LIMIT }), 401);
      assertJsonError(await t.request('POST', webhookPath(w.workflowId), { rawBody: OVER_LIMIT }), 401);
      assertJsonError(await t.request('POST', webhookPath(w.workflowId, w.token), { rawBody: OVER_LIMIT }), 413);
    });

    it('a bad or missing bearer token with a body over the limit, or of the wrong media type, gets 401', async () => {
      const w = await givenDirectWorkflow(t);
      for (const token of [undefined, alteredToken(w.apiToken), w.org.adminToken]) {
        assertJsonError(await t.request('POST', w.casesPath, { token, rawBody: OVER_LIMIT }), 401);
        assertJsonError(await t.request('POST', w.casesPath, { token, rawBody: 'attributes=1', headers: { 'content-type': 'text/plain' } }), 401);
      }
      assertJsonError(await t.request('POST', '/api/admin/v1/workflows', { token: w.apiToken, rawBody: OVER_LIMIT }), 401);
      assertJsonError(await t.request('POST', w.casesPath, { token: w.apiToken, rawBody: OVER_LIMIT }), 413);
      assertJsonError(await t.request('POST', w.casesPath, { token: w.apiToken, rawBody: '{}', headers: { 'content-type': 'text/plain' } }), 415);
    });

    it('a bad operator token with a body over the limit gets 401', async () => {
      assertJsonError(await t.request('POST', '/api/operator/v1/organizations', { token: alteredToken(operatorToken()), rawBody: OVER_LIMIT }), 401);
      assertJsonError(await t.request('POST', '/api/operator/v1/organizations', { token: operatorToken(), rawBody: OVER_LIMIT }), 413);
    });

    it('a bad webhook token whose body never finishes arriving gets its 401 without the service waiting for the body', { timeout: 15_000 }, async ({ signal }) => {
      const w = await givenWebhook(t);
      // The headers promise a full megabyte; only its first bytes are ever sent.
      const head = `POST ${webhookPath(w.workflowId, alteredToken(w.token))} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${MAX_BODY_BYTES}`;
      assert.equal(await statusLineOfUnfinishedBody(t, signal, head, '{"a":"'), 'HTTP/1.1 401 Unauthorized');
    });

    it('a post to an unknown form whose body never finishes arriving gets its 404 page without the service waiting for the body', { timeout: 15_000 }, async ({ signal }) => {
      const w = await givenFormWorkflow(t);
      const head = (path: string) => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000`;
      for (const path of [`/forms/${alteredToken(w.path.split('/').pop()!)}`, '/forms/not-a-secret']) {
        assert.equal(await statusLineOfUnfinishedBody(t, signal, head(path), 'subject='), 'HTTP/1.1 404 Not Found', path);
      }
    });
  });

  describe('a public page reads no more than it takes, and no form post holds the large-body budget', () => {
    it('a body declared over 64 KB to a form or a digest recipient page gets its 413 page before any of it is read', { timeout: 15_000 }, async ({ signal }) => {
      const w = await givenFormWorkflow(t);
      for (const path of [w.path, `/digests/unsubscribe/${'A'.repeat(43)}`, `/digests/confirm/${'A'.repeat(43)}`]) {
        const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${MAX_BODY_BYTES}`;
        assert.equal(await statusLineOfUnfinishedBody(t, signal, head, 'subject='), 'HTTP/1.1 413 Payload Too Large', path);
      }
    });

    it('form posts whose chunked bodies trickle in hold no share of the large-body budget: a 1 MB webhook body is taken meanwhile', { timeout: 20_000 }, async ({ signal }) => {
      const form = await givenFormWorkflow(t);
      const w = await givenWebhook(t);
      // More trickling posts than the budget's 1 MiB holds if each were charged the 1 MB any body may have.
      const tricklers = await Promise.all(Array.from({ length: 4 }, () => connectTo(t, signal)));
      const answered: string[] = [];
      const server = t.app.getHttpServer();
      let arrived = 0;
      const allArrived = new Promise<void>((resolve) => {
        const count = () => {
          if (++arrived < tricklers.length) return;
          server.off('request', count);
          resolve();
        };
        server.on('request', count);
      });
      try {
        for (const socket of tricklers) {
          socket.on('data', (chunk) => answered.push(String(chunk)));
          socket.on('error', () => undefined);
          socket.write(`POST ${form.path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n8\r\nsubject=\r\n`);
        }
        // Their heads are in; a moment more for the form look-up, so that they ask the budget first.
        await allArrived;
        await new Promise((resolve) => setTimeout(resolve, 300));
        const large = await t.request('POST', webhookPath(w.workflowId, w.token), { rawBody: objectOfBytes(MAX_BODY_BYTES - 1024) });
        assert.equal(large.status, 201, large.text);
        assert.deepEqual(answered, [], 'the form posts are still arriving, unanswered');
      } finally {
        for (const socket of tricklers) socket.destroy();
      }
    });
  });

  describe('/readyz', () => {
    const redis = () => new Redis(t.env.REDIS_URL);
    /** PING commands Redis has served (the readiness check is the only PING this app sends). */
    async function pings(client: Redis): Promise<number> {
      const stats = await client.info('commandstats');
      return Number(/cmdstat_ping:calls=([0-9]+)/.exec(stats)?.[1] ?? 0);
    }

    it('200 concurrent probes share one check instead of running 200 (counted by the PINGs Redis served)', async () => {
      const client = redis();
      try {
        const before = await pings(client);
        const answers = await Promise.all(Array.from({ length: 200 }, () => t.request('GET', '/readyz')));
        const checks = (await pings(client)) - before;
        assert.deepEqual(new Set(answers.map((res) => res.status)), new Set([200]));
        // One check, perhaps two if the probes straddle a second; the margin is for other test
        // runs sharing this Redis. One check per probe would be 200.
        assert.ok(checks >= 1 && checks <= 10, `${checks} PINGs for 200 probes`);
      } finally {
        client.disconnect();
      }
    });

    it('a probe after the second has passed runs a fresh check', async () => {
      const client = redis();
      try {
        await t.request('GET', '/readyz');
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const before = await pings(client);
        assert.equal((await t.request('GET', '/readyz')).status, 200);
        assert.ok((await pings(client)) - before >= 1, 'the check ran again');
      } finally {
        client.disconnect();
      }
    });
  });

  describe('/metrics', () => {
    it('is open without METRICS_TOKEN', async () => {
      const res = await t.request('GET', '/metrics');
      assert.equal(res.status, 200);
      assert.match(res.text, /http_request_duration_seconds/);
    });

    it('with METRICS_TOKEN set, needs Authorization: Bearer <METRICS_TOKEN>; anything else is a 401 JSON error', async () => {
      const metricsToken = 'metrics-token-of-32-characters!!';
      const guarded = await startTestApp({ env: { METRICS_TOKEN: metricsToken } });
      try {
        const refused: Record<string, string>[] = [{}, { authorization: `Bearer ${metricsToken.slice(0, -1)}` }, { authorization: `Bearer ${metricsToken}x` }, { authorization: metricsToken }, { authorization: `Bearer ${operatorToken()}` }];
        for (const headers of refused) {
          const res = await guarded.request('GET', '/metrics', { headers });
          assertJsonError(res, 401);
          assert.ok(!res.text.includes(metricsToken.slice(0, 16)), 'the 401 does not echo the token');
        }
        const res = await guarded.request('GET', '/metrics', { token: metricsToken });
        assert.equal(res.status, 200);
        assert.match(res.text, /http_request_duration_seconds/);
      } finally {
        await guarded.close();
      }
    });
  });
});
