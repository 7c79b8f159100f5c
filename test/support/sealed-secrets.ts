import { createCipheriv, randomBytes } from 'node:crypto';

/** A secret as the code before v2 stored it (`v1.`): the raw 32-byte hex key, no associated data. */
export function sealV1(hexKey: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(hexKey, 'hex'), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}
