import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { createOrganization, operatorToken } from '../support/scenario.js';
import { closeDb, db, startTestApp, type InjectResult, type TestApp } from '../support/test-app.js';
import { countCases, createdCaseId, fetchCase, givenWebhook, postWebhook, type WebhookWorkflow } from '../support/webhook-helpers.js';

const REFUSAL = '{"error":"signature verification failed"}';
const stripeClient = new Stripe('sk_test_unused');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** One sender: the verification to PUT and how that sender signs a body with a secret at a time. */
interface Sender {
  scheme: string;
  secret: string;
  otherSecret: string;
  options?: Record<string, unknown>;
  timestamped: boolean;
  sign(body: string, secret: string, timestamp: number): Promise<Record<string, string>>;
  /** The same headers carrying a wrong signature first and then `valid`'s signature. */
  several(valid: Record<string, string>): Record<string, string>;
}

const hex64 = (digit: string) => digit.repeat(64);
const slackSignature = (body: string, secret: string, timestamp: number) =>
  `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;

const SENDERS: Sender[] = [
  {
    scheme: 'github',
    secret: 'gh-secret-1',
    otherSecret: 'gh-secret-2',
    timestamped: false,
    sign: async (body, secret) => ({ 'x-hub-signature-256': await githubSign(secret, body) }),
    several: (valid) => ({ 'x-hub-signature-256': `sha256=${hex64('0')}, ${valid['x-hub-signature-256']}` }),
  },
  {
    scheme: 'stripe',
    secret: 'whsec_stripe_one',
    otherSecret: 'whsec_stripe_two',
    timestamped: true,
    sign: async (body, secret, timestamp) => ({ 'stripe-signature': stripeClient.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }) }),
    several: (valid) => ({ 'stripe-signature': valid['stripe-signature']!.replace(',v1=', `,v1=${hex64('a')},v1=`) }),
  },
  {
    scheme: 'slack',
    secret: '8f742231b10e8888abcd99yyyzzz85a5',
    otherSecret: 'another-slack-signing-secret',
    timestamped: true,
    // Slack's own algorithm (its published example is checked in the unit spec; its bodies are forms, not JSON).
    sign: async (body, secret, timestamp) => ({ 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': slackSignature(body, secret, timestamp) }),
    several: (valid) => ({ ...valid, 'x-slack-signature': `v0=${hex64('b')}, ${valid['x-slack-signature']}` }),
  },
  {
    scheme: 'standard_webhooks',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    otherSecret: `whsec_${Buffer.alloc(32, 9).toString('base64')}`,
    timestamped: true,
    sign: async (body, secret, timestamp) => {
      const id = `msg_${timestamp}`;
      return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': new Webhook(secret).sign(id, new Date(timestamp * 1000), body) };
    },
    several: (valid) => ({ ...valid, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${valid['webhook-signature']}` }),
  },
  {
    scheme: 'hmac',
    secret: 'hmac-secret-1',
    otherSecret: 'hmac-secret-2',
    options: { header: 'X-Body-Signature', algorithm: 'sha512', encoding: 'base64', prefix: 'sha512=' },
    timestamped: false,
    sign: async (body, secret) => ({ 'x-body-signature': `sha512=${createHmac('sha512', secret).update(body).digest('base64')}` }),
    several: (valid) => ({ 'x-body-signature': `sha512=${Buffer.alloc(64).toString('base64')}, ${valid['x-body-signature']}` }),
  },
];

/** Header values no sender would send; each must be a 401, never a 5xx. */
const GARBAGE = ['', ' ', ',', '=', ',,,', 't=', 'v1,', 'sha256=', 'v0=', 'sha256=zz', 't=-1,v1=00', 't=99999999999999999999,v1=', 'v1,====', '\u00e9\u00ff', 'a'.repeat(8_000), '1e9', 'NaN'];
const HEADER_NAMES = ['x-hub-signature-256', 'stripe-signature', 'x-slack-request-timestamp', 'x-slack-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-body-signature'];

function assertSignatureRefused(res: InjectResult, what: string): void {
  assert.equal(res.status, 401, `${what}: ${res.status} ${res.text}`);
  assert.equal(res.text, REFUSAL, what);
}

describe('verified senders on the incoming webhook', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); await closeDb(); });

  const verificationPath = (workflowId: number | string) => `/api/admin/v1/workflows/${workflowId}/webhook/verification`;
  const putVerification = (w: WebhookWorkflow, body: unknown) => t.request('PUT', verificationPath(w.workflowId), { token: w.org.adminToken, body });
  const usage = async (w: WebhookWorkflow) => {
    const res = await t.request('GET', '/api/admin/v1/usage?from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z', { token: w.org.adminToken });
    assert.equal(res.status, 200, res.text);
    return res.body.usage;
  };

  async function verified(sender: Sender): Promise<WebhookWorkflow> {
    const w = await givenWebhook(t);
    const res = await putVerification(w, { scheme: sender.scheme, secret: sender.secret, ...sender.options });
    assert.equal(res.status, 200, res.text);
    assert.ok(!res.text.includes(sender.secret), 'the answer holds the secret');
    return w;
  }

  for (const sender of SENDERS) {
    describe(sender.scheme, () => {
      let w: WebhookWorkflow;
      const body = JSON.stringify({ event: 'order.paid', amount: 12.5, note: 'Zoë ✓' });
      const post = (headers: Record<string, string>, text = body) => postWebhook(t, w.workflowId, w.token, text, { headers });
      before(async () => { w = await verified(sender); });

      it('takes a body the sender\'s own signing code signed: 201 and a case with its attributes', async () => {
        const id = createdCaseId(await post(await sender.sign(body, sender.secret, nowSeconds())));
        assert.equal((await fetchCase(t, w, id)).body.case.attributes.note, 'Zoë ✓');
      });

      it('takes a request where one of several signatures is valid', async () => {
        createdCaseId(await post(sender.several(await sender.sign(body, sender.secret, nowSeconds()))));
      });

      it('refuses a body changed by one byte, the wrong secret, a missing header and garbage headers (401, nothing created, nothing metered)', async () => {
        const cases = await countCases(w.workflowId);
        const metered = await usage(w);
        const signed = await sender.sign(body, sender.secret, nowSeconds());
        assertSignatureRefused(await post(signed, body.replace('12.5', '12.6')), 'one byte changed');
        assertSignatureRefused(await post(signed, `${body} `), 'one byte added');
        assertSignatureRefused(await post(await sender.sign(body, sender.otherSecret, nowSeconds())), 'wrong secret');
        assertSignatureRefused(await post({}), 'no signature header');
        for (const name of Object.keys(signed)) {
          assertSignatureRefused(await post(Object.fromEntries(Object.entries(signed).filter(([key]) => key !== name))), `without ${name}`);
        }
        for (const value of GARBAGE) {
          const headers = Object.fromEntries(HEADER_NAMES.map((name) => [name, value]));
          assertSignatureRefused(await post(headers), `garbage ${JSON.stringify(value.slice(0, 12))}`);
          assertSignatureRefused(await post({ ...signed, ...Object.fromEntries(Object.keys(signed).slice(-1).map((name) => [name, value])) }), 'a garbled signature');
        }
        assertSignatureRefused(await post({}, 'not json at all'), 'unsigned invalid JSON');
        assert.equal(await countCases(w.workflowId), cases, 'a refused request created a case');
        assert.deepEqual(await usage(w), metered, 'a refused request was metered');
      });

      if (sender.timestamped) {
        it('refuses stale and future timestamps beyond the tolerance, takes them within it', async () => {
          const now = nowSeconds();
          assertSignatureRefused(await post(await sender.sign(body, sender.secret, now - 330)), 'stale');
          assertSignatureRefused(await post(await sender.sign(body, sender.secret, now + 330)), 'future');
          createdCaseId(await post(await sender.sign(body, sender.secret, now - 240)));
          createdCaseId(await post(await sender.sign(body, sender.secret, now + 240)));
        });
      }
    });
  }

  it('checks a request without a body too: 401 unsigned, 422 (no body) when the empty body is signed', async () => {
    const w = await verified(SENDERS[0]!);
    const path = `/api/external/v1/workflows/${w.workflowId}/case_webhooks?token=${w.token}`;
    assertSignatureRefused(await t.request('POST', path), 'no body, no signature');
    // GitHub's signer refuses an empty payload; the same algorithm, over no bytes.
    const signed = `sha256=${createHmac('sha256', SENDERS[0]!.secret).digest('hex')}`;
    assert.equal((await t.request('POST', path, { headers: { 'x-hub-signature-256': signed } })).status, 422);
  });

  it('survives publishing a new version and rotating the webhook token; DELETE lets the token alone in again', async () => {
    const sender = SENDERS[4]!;
    const w = await verified(sender);
    const republished = await t.request('POST', `/api/admin/v1/workflows/${w.workflowId}/publish`, { token: w.org.adminToken });
    assert.equal(republished.status, 200, republished.text);
    const rotated = await t.request('POST', `/api/operator/v1/workflows/${w.workflowId}/webhook/rotate`, { token: operatorToken() });
    assert.equal(rotated.status, 200, rotated.text);
    const token: string = rotated.body.webhook.token;
    const body = '{"after":"rotation"}';
    assertSignatureRefused(await postWebhook(t, w.workflowId, token, body), 'unsigned after rotation');
    createdCaseId(await postWebhook(t, w.workflowId, token, body, { headers: await sender.sign(body, sender.secret, 0) }));
    assert.equal((await t.request('GET', verificationPath(w.workflowId), { token: w.org.adminToken })).body.verification.scheme, 'hmac');

    const deleted = await t.request('DELETE', verificationPath(w.workflowId), { token: w.org.adminToken });
    assert.equal(deleted.status, 204, deleted.text);
    createdCaseId(await postWebhook(t, w.workflowId, token, body));
    assert.equal((await t.request('GET', verificationPath(w.workflowId), { token: w.org.adminToken })).status, 404);
    assert.equal((await t.request('DELETE', verificationPath(w.workflowId), { token: w.org.adminToken })).status, 404);
  });

  it('a new secret replaces the old one at once', async () => {
    const sender = SENDERS[0]!;
    const w = await verified(sender);
    const body = '{"a":1}';
    const replaced = await putVerification(w, { scheme: 'github', secret: sender.otherSecret });
    assert.equal(replaced.status, 200, replaced.text);
    assert.ok(replaced.body.verification.updated_at >= replaced.body.verification.created_at);
    assertSignatureRefused(await postWebhook(t, w.workflowId, w.token, body, { headers: await sender.sign(body, sender.secret, 0) }), 'old secret');
    createdCaseId(await postWebhook(t, w.workflowId, w.token, body, { headers: await sender.sign(body, sender.otherSecret, 0) }));
  });

  describe('PUT, GET and DELETE', () => {
    let w: WebhookWorkflow;
    before(async () => { w = await givenWebhook(t); });

    it('answers the scheme with its options and defaults, never the secret, and stores the secret sealed', async () => {
      const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [{ scheme: 'github', secret: 's3cret-github' }, { scheme: 'github' }],
        [{ scheme: 'stripe', secret: 's3cret-stripe' }, { scheme: 'stripe', tolerance_seconds: 300 }],
        [{ scheme: 'slack', secret: 's3cret-slack', tolerance_seconds: 3600 }, { scheme: 'slack', tolerance_seconds: 3600 }],
        [{ scheme: 'standard_webhooks', secret: SENDERS[3]!.secret, tolerance_seconds: 1 }, { scheme: 'standard_webhooks', tolerance_seconds: 1 }],
        [{ scheme: 'hmac', secret: 's3cret-hmac', header: 'X-Sig' }, { scheme: 'hmac', header: 'x-sig', algorithm: 'sha256', encoding: 'hex', prefix: '' }],
        [{ scheme: 'hmac', secret: 's3cret-hmac', header: 'x-sig', algorithm: 'sha1', encoding: 'base64', prefix: 'sha1=' }, { scheme: 'hmac', header: 'x-sig', algorithm: 'sha1', encoding: 'base64', prefix: 'sha1=' }],
      ];
      for (const [input, shown] of cases) {
        const put = await putVerification(w, input);
        assert.equal(put.status, 200, put.text);
        const { created_at, updated_at, ...options } = put.body.verification;
        assert.deepEqual(options, shown);
        assert.match(created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.match(updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        const got = await t.request('GET', verificationPath(w.workflowId), { token: w.org.adminToken });
        assert.deepEqual(got.body, put.body);
        for (const res of [put, got]) assert.ok(!res.text.includes(input.secret as string), 'an answer holds the secret');
        const { rows } = await db().query<{ secret_ciphertext: string }>('SELECT secret_ciphertext FROM webhook_verifications WHERE workflow_id = $1', [w.workflowId]);
        assert.match(rows[0]!.secret_ciphertext, /^v2\./);
        assert.ok(!rows[0]!.secret_ciphertext.includes(input.secret as string));
      }
    });

    it('refuses every bad body with 422 and validation_errors, storing nothing', async () => {
      const fresh = await givenWebhook(t);
      const bad: Array<[unknown, string]> = [
        [{ scheme: 'gitlab', secret: 's' }, '/scheme'],
        [{ secret: 's' }, '/scheme'],
        [{ scheme: 'github' }, '/secret'],
        [{ scheme: 'github', secret: '' }, '/secret'],
        [{ scheme: 'github', secret: 42 }, '/secret'],
        [{ scheme: 'github', secret: 'x'.repeat(1025) }, '/secret'],
        [{ scheme: 'github', secret: 's', extra: true }, '/extra'],
        [{ scheme: 'github', secret: 's', tolerance_seconds: 300 }, '/tolerance_seconds'],
        [{ scheme: 'github', secret: 's', header: 'x-sig' }, '/header'],
        [{ scheme: 'stripe', secret: 's', tolerance_seconds: 0 }, '/tolerance_seconds'],
        [{ scheme: 'stripe', secret: 's', tolerance_seconds: 3601 }, '/tolerance_seconds'],
        [{ scheme: 'stripe', secret: 's', tolerance_seconds: 1.5 }, '/tolerance_seconds'],
        [{ scheme: 'stripe', secret: 's', tolerance_seconds: '300' }, '/tolerance_seconds'],
        [{ scheme: 'slack', secret: 's', tolerance_seconds: null }, '/tolerance_seconds'],
        [{ scheme: 'slack', secret: 's', prefix: 'v0=' }, '/prefix'],
        [{ scheme: 'standard_webhooks', secret: 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }, '/secret'],
        [{ scheme: 'standard_webhooks', secret: 'whsec_not base64!' }, '/secret'],
        [{ scheme: 'standard_webhooks', secret: 'whsec_' }, '/secret'],
        [{ scheme: 'hmac', secret: 's' }, '/header'],
        [{ scheme: 'hmac', secret: 's', header: 'x sig' }, '/header'],
        [{ scheme: 'hmac', secret: 's', header: 'x-sig', algorithm: 'md5' }, '/algorithm'],
        [{ scheme: 'hmac', secret: 's', header: 'x-sig', encoding: 'base32' }, '/encoding'],
        [{ scheme: 'hmac', secret: 's', header: 'x-sig', prefix: 7 }, '/prefix'],
        [{ scheme: 'hmac', secret: 's', header: 'x-sig', tolerance_seconds: 300 }, '/tolerance_seconds'],
      ];
      for (const [body, path] of bad) {
        const res = await putVerification(fresh, body);
        assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.status} ${res.text}`);
        assert.equal(typeof res.body.error, 'string');
        assert.ok(res.body.validation_errors.some((problem: { path: string }) => problem.path === path), `${JSON.stringify(body)}: ${res.text}`);
      }
      for (const raw of ['[]', '"github"', '{"scheme":', 'null']) {
        const res = await t.request('PUT', verificationPath(fresh.workflowId), { token: fresh.org.adminToken, rawBody: raw });
        assert.equal(res.status, 422, `${raw}: ${res.text}`);
      }
      assert.equal((await t.request('GET', verificationPath(fresh.workflowId), { token: fresh.org.adminToken })).status, 404);
      createdCaseId(await postWebhook(t, fresh.workflowId, fresh.token, '{}'));
    });

    it('answers 404 for another organization\'s workflow, an unknown or malformed id, and 401 without an admin token', async () => {
      const other = await createOrganization(t);
      const body = { scheme: 'github', secret: 's' };
      for (const method of ['PUT', 'GET', 'DELETE']) {
        for (const id of [String(w.workflowId), '999999999', 'abc']) {
          const res = await t.request(method, verificationPath(id), { token: id === String(w.workflowId) ? other.adminToken : w.org.adminToken, ...(method === 'PUT' ? { body } : {}) });
          assert.equal(res.status, 404, `${method} ${id}: ${res.text}`);
        }
        assert.equal((await t.request(method, verificationPath(w.workflowId), { token: w.apiToken, ...(method === 'PUT' ? { body } : {}) })).status, 401);
      }
    });
  });
});
