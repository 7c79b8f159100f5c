import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import { BUILT_IN_SCHEME_RULES, verificationSetting } from './webhook-verification.js';

const BUILT_IN = new Map(BUILT_IN_SCHEME_RULES.map((rules) => [rules.name, rules]));

/** The JSON Pointers a refused body is refused at. */
function refusedAt(body: Record<string, unknown>): string[] {
  try {
    verificationSetting(body, BUILT_IN);
  } catch (error) {
    assert.ok(error instanceof InvalidRequestError);
    return (error.details.validation_errors as { path: string }[]).map((problem) => problem.path);
  }
  assert.fail(`${JSON.stringify(body)} was accepted`);
}

describe('webhook verification settings', () => {
  it('fills in each scheme\'s defaults and keeps the secret apart from the options', () => {
    assert.deepEqual(verificationSetting({ scheme: 'github', secret: 's' }, BUILT_IN), { options: { scheme: 'github' }, secret: 's' });
    assert.deepEqual(verificationSetting({ scheme: 'slack', secret: 's' }, BUILT_IN).options, { scheme: 'slack', tolerance_seconds: 300 });
    assert.deepEqual(verificationSetting({ scheme: 'stripe', secret: 's', tolerance_seconds: 60 }, BUILT_IN).options, { scheme: 'stripe', tolerance_seconds: 60 });
    assert.deepEqual(verificationSetting({ scheme: 'hmac', secret: 's', header: 'X-Sig' }, BUILT_IN).options, { scheme: 'hmac', header: 'x-sig', algorithm: 'sha256', encoding: 'hex', prefix: '' });
  });

  it('refuses options the scheme does not take, hmac without a header and a Standard Webhooks secret not of the whsec_ form, all at once', () => {
    assert.deepEqual(refusedAt({ scheme: 'github', secret: 's', tolerance_seconds: 300, prefix: 'x' }), ['/tolerance_seconds', '/prefix']);
    assert.deepEqual(refusedAt({ scheme: 'hmac', secret: 's', tolerance_seconds: 300 }), ['/tolerance_seconds', '/header']);
    assert.deepEqual(refusedAt({ scheme: 'standard_webhooks', secret: 'c2VjcmV0' }), ['/secret']);
    assert.deepEqual(refusedAt({ scheme: 'standard_webhooks', secret: 'whsec_c2VjcmV0!' }), ['/secret']);
    assert.equal(verificationSetting({ scheme: 'standard_webhooks', secret: 'whsec_c2VjcmV0' }, BUILT_IN).secret, 'whsec_c2VjcmV0');
  });
});
