import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256 } from '../../../shared/crypto/sha256.js';

/** 32 random bytes, base64url, behind a prefix that says what the secret is for (and lets secret scanners spot it). */
export function generateSecret(prefix: 'adm_' | 'api_' | 'whk_'): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Constant-time comparison of two secrets, whatever their lengths. */
export function secretsEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}
