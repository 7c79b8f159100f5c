import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { type HeaderReader, signatureCheck, type VerificationOptions } from './signature-schemes.js';

const headers = (values: Record<string, string>): HeaderReader => (name) => values[name];
const NOW = 1_700_000_000;
const BODY = Buffer.from('{"event":"ping","amount":12.50,"name":"Zoë"}');
/** The same body with its last byte changed. */
const TAMPERED = Buffer.concat([BODY.subarray(0, -1), Buffer.from(']')]);
const stripeClient = new Stripe('sk_test_unused');

function check(options: VerificationOptions, secret: string, values: Record<string, string>, body: Buffer = BODY, now = NOW): boolean {
  return signatureCheck(options, secret)(headers(values), body, now);
}

/** Header values a sender might garble; none may throw, none may pass. */
const GARBAGE = ['', ' ', ',', '=', 'sha256=', 'v1=', 'v0=', 't=', 'v1,', 'v1,===', 'sha256=zz', 'sha256=' + 'a'.repeat(63), 't=abc,v1=00', '\u00ff\u00fe', 'x'.repeat(10_000), 'v1,' + '+'.repeat(44)];

describe('webhook signature schemes', () => {
  describe('github', () => {
    const options: VerificationOptions = { scheme: 'github' };

    it('passes GitHub\'s published example and what @octokit/webhooks-methods signs, over the exact bytes', async () => {
      // docs.github.com, "Validating webhook deliveries": the test values to check an implementation with.
      const example = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
      assert.ok(check(options, "It's a Secret to Everybody", { 'x-hub-signature-256': example }, Buffer.from('Hello, World!')));
      const signature = await githubSign('gh-secret', BODY.toString('utf8'));
      assert.ok(check(options, 'gh-secret', { 'x-hub-signature-256': signature }));
      assert.ok(!check(options, 'gh-secret', { 'x-hub-signature-256': signature }, TAMPERED));
      assert.ok(!check(options, 'another-secret', { 'x-hub-signature-256': signature }));
      assert.ok(!check(options, 'gh-secret', {}));
    });

    it('passes when one of several signatures (a repeated header) is valid', async () => {
      const signature = await githubSign('gh-secret', BODY.toString('utf8'));
      assert.ok(check(options, 'gh-secret', { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}, ${signature}` }));
    });
  });

  describe('stripe', () => {
    const options: VerificationOptions = { scheme: 'stripe', tolerance_seconds: 300 };
    const header = (timestamp: number, secret = 'whsec_stripe') =>
      stripeClient.webhooks.generateTestHeaderString({ payload: BODY.toString('utf8'), secret, timestamp });

    it('passes what stripe\'s generateTestHeaderString signs, within the tolerance either way', () => {
      assert.ok(check(options, 'whsec_stripe', { 'stripe-signature': header(NOW) }));
      assert.ok(check(options, 'whsec_stripe', { 'stripe-signature': header(NOW - 300) }));
      assert.ok(check(options, 'whsec_stripe', { 'stripe-signature': header(NOW + 300) }));
    });

    it('refuses a stale or future timestamp, a tampered body, another secret, a missing header', () => {
      assert.ok(!check(options, 'whsec_stripe', { 'stripe-signature': header(NOW - 301) }));
      assert.ok(!check(options, 'whsec_stripe', { 'stripe-signature': header(NOW + 301) }));
      assert.ok(!check(options, 'whsec_stripe', { 'stripe-signature': header(NOW) }, TAMPERED));
      assert.ok(!check(options, 'whsec_stripe', { 'stripe-signature': header(NOW, 'whsec_other') }));
      assert.ok(!check(options, 'whsec_stripe', {}));
    });

    it('passes when any one v1 signature of several matches (a secret being rolled)', () => {
      const valid = header(NOW).split(',').find((part) => part.startsWith('v1='))!;
      assert.ok(check(options, 'whsec_stripe', { 'stripe-signature': `t=${NOW},v1=${'ab'.repeat(32)},${valid},v0=${'cd'.repeat(32)}` }));
      assert.ok(!check(options, 'whsec_stripe', { 'stripe-signature': `t=${NOW},v0=${valid.slice(3)}` }));
    });
  });

  describe('slack', () => {
    it('passes Slack\'s published example (a form-encoded body) and refuses it changed or stale', () => {
      // api.slack.com, "Verifying requests from Slack": the documented secret, timestamp, body and signature.
      const body = Buffer.from('token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c');
      const values = { 'x-slack-request-timestamp': '1531420618', 'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503' };
      const options: VerificationOptions = { scheme: 'slack', tolerance_seconds: 300 };
      const secret = '8f742231b10e8888abcd99yyyzzz85a5';
      assert.ok(check(options, secret, values, body, 1531420618 + 60));
      assert.ok(!check(options, secret, values, Buffer.concat([body, Buffer.from('&')]), 1531420618));
      assert.ok(!check(options, secret, values, body, 1531420618 + 301));
      assert.ok(!check(options, secret, values, body, 1531420618 - 301));
      assert.ok(!check(options, 'another-secret', values, body, 1531420618));
      assert.ok(!check(options, secret, { 'x-slack-signature': values['x-slack-signature'] }, body, 1531420618));
    });
  });

  describe('standard_webhooks', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const options: VerificationOptions = { scheme: 'standard_webhooks', tolerance_seconds: 300 };
    const signed = (timestamp: number, key = secret) => ({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': new Webhook(key).sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(timestamp * 1000), BODY),
    });

    it('passes what the standardwebhooks package signs, also among several signatures', () => {
      assert.ok(check(options, secret, signed(NOW)));
      const values = signed(NOW);
      assert.ok(check(options, secret, { ...values, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} v2,abc ${values['webhook-signature']}` }));
    });

    it('refuses a tampered body, another secret, another id, a timestamp out of tolerance, a missing header', () => {
      assert.ok(!check(options, secret, signed(NOW), TAMPERED));
      assert.ok(!check(options, secret, signed(NOW, 'whsec_' + Buffer.alloc(24, 7).toString('base64'))));
      assert.ok(!check(options, secret, { ...signed(NOW), 'webhook-id': 'msg_other' }));
      assert.ok(!check(options, secret, signed(NOW - 301)));
      assert.ok(!check(options, secret, signed(NOW + 301)));
      assert.ok(!check(options, secret, { ...signed(NOW), 'webhook-id': undefined! }));
    });
  });

  describe('hmac', () => {
    const mac = (algorithm: string, encoding: 'hex' | 'base64', secret = 'hm-secret') => createHmac(algorithm, secret).update(BODY).digest(encoding);

    it('passes each algorithm and encoding after the configured prefix, in the configured header', () => {
      for (const algorithm of ['sha256', 'sha512', 'sha1'] as const) {
        for (const encoding of ['hex', 'base64'] as const) {
          const options: VerificationOptions = { scheme: 'hmac', header: 'x-signature', algorithm, encoding, prefix: 'sig=' };
          assert.ok(check(options, 'hm-secret', { 'x-signature': `sig=${mac(algorithm, encoding)}` }), `${algorithm} ${encoding}`);
          assert.ok(!check(options, 'hm-secret', { 'x-signature': mac(algorithm, encoding) }), `${algorithm} ${encoding} without its prefix`);
          assert.ok(!check(options, 'hm-secret', { 'x-signature': `sig=${mac(algorithm, encoding)}` }, TAMPERED), `${algorithm} ${encoding} tampered`);
          assert.ok(!check(options, 'hm-secret', { 'x-signature': `sig=${mac(algorithm, encoding, 'other')}` }), `${algorithm} ${encoding} other secret`);
          assert.ok(!check(options, 'hm-secret', { 'x-other': `sig=${mac(algorithm, encoding)}` }), `${algorithm} ${encoding} other header`);
        }
      }
    });

    it('refuses a MAC of another algorithm of the same encoding', () => {
      const options: VerificationOptions = { scheme: 'hmac', header: 'x-signature', algorithm: 'sha512', encoding: 'hex', prefix: '' };
      assert.ok(!check(options, 'hm-secret', { 'x-signature': mac('sha256', 'hex') }));
    });
  });

  it('never throws and never passes on garbage headers, whatever the scheme', () => {
    const schemes: Array<[VerificationOptions, string]> = [
      [{ scheme: 'github' }, 's'],
      [{ scheme: 'stripe', tolerance_seconds: 300 }, 's'],
      [{ scheme: 'slack', tolerance_seconds: 300 }, 's'],
      [{ scheme: 'standard_webhooks', tolerance_seconds: 300 }, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      [{ scheme: 'hmac', header: 'x-signature', algorithm: 'sha256', encoding: 'base64', prefix: '' }, 's'],
    ];
    const names = ['x-hub-signature-256', 'stripe-signature', 'x-slack-request-timestamp', 'x-slack-signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'x-signature'];
    for (const [options, secret] of schemes) {
      for (const value of GARBAGE) {
        const values = Object.fromEntries(names.map((name) => [name, value]));
        assert.equal(check(options, secret, values), false, `${options.scheme} with ${JSON.stringify(value.slice(0, 20))}`);
      }
    }
  });
});
