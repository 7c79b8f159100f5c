import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url, behind a prefix that says what the secret is for (and lets secret scanners spot it). */
export function generateSecret(prefix: 'adm_' | 'api_' | 'whk_'): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Constant-time comparison of two secrets, whatever their lengths. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/**
 * AES-256-GCM for secrets that must be shown again (webhook tokens). The stored form is
 * `v1.<iv>.<tag>.<ciphertext>` in base64url, so the key or algorithm can change later.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: string) {
    this.key = /^[0-9a-fA-F]{64}$/.test(key) ? Buffer.from(key, 'hex') : Buffer.from(key, 'base64');
    if (this.key.length !== 32) throw new Error('TOKEN_ENCRYPTION_KEY must be 32 bytes');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown sealed secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
