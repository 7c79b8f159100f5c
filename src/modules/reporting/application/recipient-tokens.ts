import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { SecretBox } from '../../../shared/crypto/secret-box.js';
import { digestRecipientBinding } from '../../../shared/crypto/stored-secrets.js';
import { newUrlSecret, urlSecretHash } from '../../../shared/crypto/url-secret.js';
import type { IssuedToken, NewRecipient, RecipientRef } from './digest.ports.js';

/** The paths of a recipient's pages, under PUBLIC_BASE_URL; the token follows. */
export const CONFIRM_PATH = 'digests/confirm';
export const UNSUBSCRIBE_PATH = 'digests/unsubscribe';

/**
 * A recipient's tokens are the secrets of its confirm URL (in its confirmation mail) and of its
 * unsubscribe URL (in its digests): each random, stored as SHA-256 to find the recipient when a
 * URL is opened, and sealed (bound to the organization and address) so a worker can put the URL
 * into each mail. They are never logged.
 */
@Injectable()
export class RecipientTokens {
  constructor(private readonly box: SecretBox, private readonly env: Env) {}

  /** A new address's confirm token. */
  issue(organizationId: number, address: string): NewRecipient {
    return { address, ...this.token(organizationId, address) };
  }

  /** An unsubscribe token, for an address that confirms. */
  issueUnsubscribe({ organizationId, address }: { organizationId: number; address: string }): IssuedToken {
    return this.token(organizationId, address);
  }

  confirmUrl(recipient: RecipientRef): string {
    return `${this.env.PUBLIC_BASE_URL}/${CONFIRM_PATH}/${this.open(recipient)}`;
  }

  unsubscribeUrl(recipient: RecipientRef): string {
    return `${this.env.PUBLIC_BASE_URL}/${UNSUBSCRIBE_PATH}/${this.open(recipient)}`;
  }

  private token(organizationId: number, address: string): IssuedToken {
    const token = newUrlSecret();
    return { tokenHash: urlSecretHash(token), tokenCiphertext: this.box.seal(token, digestRecipientBinding(organizationId, address)) };
  }

  private open({ organizationId, address, tokenCiphertext }: RecipientRef): string {
    return this.box.open(tokenCiphertext, digestRecipientBinding(organizationId, address));
  }
}
