import { createHash } from 'node:crypto';

/** The SHA-256 of a secret, which is what is stored to find it (tokens, webhook URLs, URL secrets). */
export function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
