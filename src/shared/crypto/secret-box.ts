import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { ENCRYPTION_KEY_PATTERN } from '../config/encryption-key-format.js';

/** What a sealed secret is for; each purpose has its own key, derived from the master key. */
export type SecretPurpose = 'webhook-token' | 'subscription-signing-secret' | 'subscription-previous-signing-secret' | 'organization-secret' | 'email-address' | 'webhook-verification-secret' | 'form-secret' | 'digest-recipient-token' | 'sso-client-secret' | 'notification-unsubscribe';

/**
 * Where a sealed secret belongs: its purpose and its row (e.g. `workflow:42`). Both are the
 * GCM associated data, so a ciphertext copied to another row or column does not open.
 */
export interface SecretBinding {
  purpose: SecretPurpose;
  row: string;
}

/** A stored value that no configured key opens for this binding (the message never holds the value). */
export class SealedSecretError extends Error {}

interface MasterKey {
  id: string;
  raw: Buffer;
}

function masterKey(text: string): MasterKey {
  const raw = new RegExp(`^${ENCRYPTION_KEY_PATTERN}$`).test(text)
    ? Buffer.from(text, /^[0-9a-fA-F]{64}$/.test(text) ? 'hex' : 'base64')
    : Buffer.alloc(0);
  if (raw.length !== 32) throw new Error('an encryption key must be 32 bytes, hex (64 chars) or base64');
  // A short hash names the key in each stored value, so open() picks the right one without trying all.
  return { id: createHash('sha256').update('secret-box key id\0').update(raw).digest().subarray(0, 6).toString('base64url'), raw };
}

const encode = (part: Buffer) => part.toString('base64url');
const decode = (part: string) => Buffer.from(part, 'base64url');

/**
 * AES-256-GCM for secrets that must be used again (webhook tokens, signing secrets). The stored
 * form is `v2.<key id>.<iv>.<tag>.<ciphertext>` (base64url), sealed with a key derived by
 * HKDF-SHA256 from the master key (info = purpose) and bound to purpose and row.
 * `v1.<iv>.<tag>.<ciphertext>` values (raw master key, no binding) still open until
 * `npm run rotate-encryption-key` rewrites them.
 */
export class SecretBox {
  private readonly current: MasterKey;
  private readonly keys = new Map<string, MasterKey>();

  /** `currentKey` seals; it and every one of `oldKeys` open. */
  constructor(currentKey: string, oldKeys: readonly string[] = []) {
    this.current = masterKey(currentKey);
    for (const key of [this.current, ...oldKeys.map(masterKey)]) this.keys.set(key.id, key);
  }

  seal(plain: string, binding: SecretBinding): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', purposeKey(this.current, binding), iv).setAAD(associatedData(binding));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v2', this.current.id, encode(iv), encode(cipher.getAuthTag()), encode(body)].join('.');
  }

  open(sealed: string, binding: SecretBinding): string {
    const parts = sealed.split('.');
    if (parts[0] === 'v2' && parts.length === 5) {
      const key = this.keys.get(parts[1]!);
      if (!key) throw new SealedSecretError(`a ${binding.purpose} is sealed with a key that is not configured`);
      return decrypt(purposeKey(key, binding), parts.slice(2), associatedData(binding), binding);
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      // v1 names no key and binds nothing: GCM's tag tells which configured key is the right one.
      for (const key of this.keys.values()) {
        try {
          return decrypt(key.raw, parts.slice(1), undefined, binding);
        } catch {
          // not this key
        }
      }
      throw new SealedSecretError(`a ${binding.purpose} does not open with any configured key`);
    }
    throw new SealedSecretError(`a ${binding.purpose} has an unknown sealed format`);
  }

  /** Sealed with the current key in the current format: the rotation leaves it as it is. */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`v2.${this.current.id}.`);
  }
}

function purposeKey(key: MasterKey, binding: SecretBinding): Buffer {
  return Buffer.from(hkdfSync('sha256', key.raw, Buffer.alloc(0), binding.purpose, 32));
}

/** Purposes hold no NUL, so purpose and row cannot run into each other. */
function associatedData(binding: SecretBinding): Buffer {
  return Buffer.from(`v2\0${binding.purpose}\0${binding.row}`, 'utf8');
}

function decrypt(key: Buffer, [iv, tag, body]: string[], aad: Buffer | undefined, binding: SecretBinding): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, decode(iv!), { authTagLength: 16 });
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(decode(tag!));
    return Buffer.concat([decipher.update(decode(body!)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedSecretError(`a ${binding.purpose} does not open for its row`);
  }
}
