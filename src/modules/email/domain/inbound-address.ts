import { createHash, randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const PREFIX = 'case-';

/**
 * A new secret local part: `case-` and 32 random bytes in lower-case base32 (57 characters,
 * within the 64 a local part may have). Lower case only, so a relay that changes the case of
 * an address still reaches the workflow: recipients are compared without case.
 */
export function newLocalPart(): string {
  const bytes = randomBytes(32);
  let bits = 0;
  let value = 0;
  let out = PREFIX;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** What is stored to find the workflow of a recipient: the SHA-256 of its lower-cased local part. */
export function localPartHash(localPart: string): Buffer {
  return createHash('sha256').update(localPart.toLowerCase()).digest();
}

/**
 * The local part of `recipient` when its domain is `domain` (compared without case), else null.
 * The local part is the text before the last `@`: SMTP has already checked the address syntax.
 */
export function localPartFor(recipient: string, domain: string): string | null {
  const at = recipient.lastIndexOf('@');
  if (at <= 0) return null;
  if (recipient.slice(at + 1).toLowerCase() !== domain.toLowerCase()) return null;
  return recipient.slice(0, at).toLowerCase();
}
