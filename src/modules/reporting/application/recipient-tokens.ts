import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { digestRecipientBinding } from '../../../shared/crypto/stored-secrets.js';
import { newUrlSecret, urlSecretHash } from '../../../shared/crypto/url-secret.js';
import type { NewRecipient, RecipientRef } from './digest.ports.js';

/** The paths of a recipient's pages, under PUBLIC_BASE_URL; the token follows. */
export const CONFIRM_PATH = 'digests/confirm';
export const UNSUBSCRIBE_PATH = 'digests/unsubscribe';

/**
 * A recipient's token is the secret of its confirm and unsubscribe URLs: random, stored as
 * SHA-256 to find the recipient when a URL is opened, and sealed (bound to the organization and
 * address) so a worker can put the URL into each mail. It is never logged.
 */
@Injectable()
export class RecipientTokens {
  constructor(private readonly box: SecretBox, private readonly env: Env) {}

  issue(organizationId: number, address: string): NewRecipient {
    const token = newUrlSecret();
    return { address, tokenHash: urlSecretHash(token), tokenCiphertext: this.box.seal(token, digestRecipientBinding(organizationId, address)) };
  }

  confirmUrl(recipient: RecipientRef): string {
    return `${this.env.PUBLIC_BASE_URL}/${CONFIRM_PATH}/${this.token(recipient)}`;
  }

  unsubscribeUrl(recipient: RecipientRef): string {
    return `${this.env.PUBLIC_BASE_URL}/${UNSUBSCRIBE_PATH}/${this.token(recipient)}`;
  }

  private token({ organizationId, address, tokenCiphertext }: RecipientRef): string {
    return this.box.open(tokenCiphertext, digestRecipientBinding(organizationId, address));
  }
}
