import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: 43 characters from [A-Za-z0-9_-], safe in a URL path as they are. */
export function newFormSecret(): string {
  return randomBytes(32).toString('base64url');
}

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `text` could be a form secret at all: anything else is refused without a look-up. */
export function isFormSecretShaped(text: string): boolean {
  return SECRET_SHAPE.test(text);
}

/** What is stored to find the workflow of a form URL: the secret's SHA-256. */
export function formSecretHash(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}
