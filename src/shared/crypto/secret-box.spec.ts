import assert from 'node:assert/strict';
import { createDecipheriv, hkdfSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { SealedSecretError, SecretBox } from './secret-box.js';
import { organizationSecretBinding, subscriptionSecretBinding, webhookTokenBinding } from './stored-secrets.js';

const KEY_A = 'a1'.repeat(32);
const KEY_B = Buffer.alloc(32, 7).toString('base64');
const TOKEN = 'whk_the-webhook-token';
/** TOKEN as the code before v2 stored it under KEY_A (raw key, no associated data). */
const V1_UNDER_KEY_A = 'v1.dFxyS2OKI68B3qqD.TIW8_dvsry5KZ9rrnYXvSA.qp2f1tGgFQgDfo8thVAC7oBuD9T5';

function assertDoesNotOpen(open: () => string, why: string): void {
  assert.throws(open, (err: unknown) => {
    assert.ok(err instanceof SealedSecretError, `a SealedSecretError (${why}), got ${String(err)}`);
    assert.ok(!err.message.includes(TOKEN), 'the message never holds the value');
    return true;
  });
}

describe('SecretBox', () => {
  const box = new SecretBox(KEY_A);

  it('opens what it sealed for the same purpose and row, in the v2.<key id>. form', () => {
    const sealed = box.seal(TOKEN, webhookTokenBinding(42));
    assert.match(sealed, /^v2\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.ok(!sealed.includes(TOKEN));
    assert.equal(box.open(sealed, webhookTokenBinding(42)), TOKEN);
    assert.equal(box.open(box.seal('', webhookTokenBinding(42)), webhookTokenBinding(42)), '');
  });

  it('a ciphertext copied to another row does not open', () => {
    const sealed = box.seal(TOKEN, webhookTokenBinding(42));
    assertDoesNotOpen(() => box.open(sealed, webhookTokenBinding(43)), 'other workflow');
    const secret = box.seal(TOKEN, organizationSecretBinding(1, 'CRM_KEY'));
    assertDoesNotOpen(() => box.open(secret, organizationSecretBinding(2, 'CRM_KEY')), 'other organization');
    assertDoesNotOpen(() => box.open(secret, organizationSecretBinding(1, 'OTHER_KEY')), 'other name');
  });

  it('a ciphertext copied to another purpose does not open, even for the same row text', () => {
    const sealed = box.seal(TOKEN, subscriptionSecretBinding(7));
    assertDoesNotOpen(() => box.open(sealed, { purpose: 'webhook-token', row: 'subscription:7' }), 'other purpose');
  });

  it('seals with a key derived from the master key by HKDF-SHA256 (info = purpose), not with the master key', () => {
    const [, , iv, tag, body] = box.seal(TOKEN, webhookTokenBinding(42)).split('.') as string[];
    const openWith = (key: Buffer) => {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv!, 'base64url'));
      decipher.setAAD(Buffer.from('v2\0webhook-token\0workflow:42'));
      decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body!, 'base64url')), decipher.final()]).toString('utf8');
    };
    assert.equal(openWith(Buffer.from(hkdfSync('sha256', Buffer.from(KEY_A, 'hex'), Buffer.alloc(0), 'webhook-token', 32))), TOKEN);
    assert.throws(() => openWith(Buffer.from(KEY_A, 'hex')));
    assert.throws(() => openWith(Buffer.from(hkdfSync('sha256', Buffer.from(KEY_A, 'hex'), Buffer.alloc(0), 'organization-secret', 32))));
  });

  it('a tampered iv, tag or body, or a shortened tag, does not open', () => {
    const parts = box.seal(TOKEN, webhookTokenBinding(42)).split('.');
    for (const index of [2, 3, 4]) {
      const bytes = Buffer.from(parts[index]!, 'base64url');
      bytes[0] ^= 1;
      const tampered = parts.with(index, bytes.toString('base64url')).join('.');
      assertDoesNotOpen(() => box.open(tampered, webhookTokenBinding(42)), `part ${index} changed`);
    }
    const shortTag = parts.with(3, Buffer.from(parts[3]!, 'base64url').subarray(0, 4).toString('base64url')).join('.');
    assertDoesNotOpen(() => box.open(shortTag, webhookTokenBinding(42)), 'tag cut to 4 bytes');
    assertDoesNotOpen(() => box.open(`v3.${parts.slice(1).join('.')}`, webhookTokenBinding(42)), 'unknown version');
    assertDoesNotOpen(() => box.open('not sealed at all', webhookTokenBinding(42)), 'no format');
  });

  it('an old key opens what it sealed; the current key seals', () => {
    const sealedWithA = box.seal(TOKEN, webhookTokenBinding(42));
    const rotated = new SecretBox(KEY_B, [KEY_A]);
    assert.equal(rotated.open(sealedWithA, webhookTokenBinding(42)), TOKEN);
    assert.equal(rotated.isCurrent(sealedWithA), false);
    const sealedWithB = rotated.seal(TOKEN, webhookTokenBinding(42));
    assert.equal(rotated.isCurrent(sealedWithB), true);
    assert.equal(new SecretBox(KEY_B).open(sealedWithB, webhookTokenBinding(42)), TOKEN);
    assertDoesNotOpen(() => new SecretBox(KEY_B).open(sealedWithA, webhookTokenBinding(42)), 'old key no longer configured');
    assertDoesNotOpen(() => box.open(sealedWithB, webhookTokenBinding(42)), 'sealed with a newer key');
  });

  it('v1 values (raw key, no binding) still open, with the current or an old key', () => {
    const v1 = V1_UNDER_KEY_A;
    assert.equal(box.open(v1, webhookTokenBinding(42)), TOKEN);
    assert.equal(box.isCurrent(v1), false, 'the rotation rewrites it');
    assert.equal(new SecretBox(KEY_B, [KEY_A]).open(v1, webhookTokenBinding(42)), TOKEN);
    assertDoesNotOpen(() => new SecretBox(KEY_B).open(v1, webhookTokenBinding(42)), 'v1 with a key not configured');
  });

  it('refuses a key that is not 32 bytes, without repeating it', () => {
    for (const bad of ['too-short-hunter2', 'zz'.repeat(32), 'a1'.repeat(31)]) {
      assert.throws(() => new SecretBox(bad), (err: unknown) => err instanceof Error && !err.message.includes(bad));
      assert.throws(() => new SecretBox(KEY_A, [bad]), (err: unknown) => err instanceof Error && !err.message.includes(bad));
    }
  });
});
