import { Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { SecretBox, type SecretBinding } from '../../../shared/crypto/secret-box.js';
import { PREFERENCES, type Preference } from '../domain/notification.js';

export const UNSUBSCRIBE_PATH = 'notifications/unsubscribe';
const BINDING: SecretBinding = { purpose: 'notification-unsubscribe', row: 'notification-preferences' };
/** What `seal` makes (`v2.<key>.<iv>.<tag>.<text>`); anything else is refused before any decryption. */
const TOKEN_SHAPE = /^v2(\.[A-Za-z0-9_-]{1,100}){4}$/;

/** Whom and what a link turns off. */
export interface UnsubscribeTarget {
  organizationId: number;
  userId: number;
  preference: Preference;
}

/**
 * The one-click unsubscribe of a notification mail (RFC 8058): its URL holds the person and the
 * kind sealed with the service's key (AES-GCM: nobody can make or alter one), so nothing is
 * stored per mail. A link turns one switch off and nothing else; it never turns one on.
 */
@Injectable()
export class UnsubscribeLinks {
  constructor(private readonly box: SecretBox, private readonly env: Env) {}

  url(target: UnsubscribeTarget): string {
    return `${this.env.PUBLIC_BASE_URL}/${UNSUBSCRIBE_PATH}/${this.box.seal(`${target.organizationId}:${target.userId}:${target.preference}`, BINDING)}`;
  }

  /** The target of a token, or null for one the service did not make. */
  read(token: string): UnsubscribeTarget | null {
    if (!TOKEN_SHAPE.test(token)) return null;
    let text: string;
    try {
      text = this.box.open(token, BINDING);
    } catch {
      // Not sealed by a configured key for this purpose, or altered: the GCM tag does not match.
      return null;
    }
    const [organizationId, userId, preference] = text.split(':');
    if (!PREFERENCES.includes(preference as Preference)) return null;
    return { organizationId: Number(organizationId), userId: Number(userId), preference: preference as Preference };
  }
}
