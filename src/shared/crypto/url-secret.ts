import { randomBytes } from 'node:crypto';
import { sha256 } from './sha256.js';

/**
 * The secret of a URL that is its own credential (a request form, a digest recipient's confirm
 * and unsubscribe pages): 32 random bytes, base64url, 43 characters from [A-Za-z0-9_-], safe in a
 * URL path as they are.
 */
export function newUrlSecret(): string {
  return randomBytes(32).toString('base64url');
}

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `text` could be such a secret at all: anything else is refused without a look-up. */
export function isUrlSecretShaped(text: string): boolean {
  return SECRET_SHAPE.test(text);
}

/** What is stored to find a URL's secret: its SHA-256. */
export const urlSecretHash = sha256;
