import { Injectable } from '@nestjs/common';
import { isUrlSecretShaped, urlSecretHash } from '../../../shared/crypto/url-secret.js';
import { RecipientStore, type RecipientStatus, type RecipientToken } from './digest.ports.js';
import { RecipientTokens } from './recipient-tokens.js';

/**
 * What a recipient's confirm and unsubscribe pages do, found by the token in their URL: the
 * confirm page by the confirmation mail's token, the unsubscribe page by the digests' one. A
 * token of the wrong shape is refused without a look-up; an unknown one finds nothing.
 */
@Injectable()
export class DigestRecipientsService {
  constructor(private readonly recipients: RecipientStore, private readonly tokens: RecipientTokens) {}

  find(kind: RecipientToken, token: string): Promise<RecipientStatus | null> {
    return this.byToken(token, (hash) => this.recipients.find(kind, hash));
  }

  /** The address's digests from now on carry an unsubscribe token it never had before, unless it has one. */
  confirm(token: string): Promise<RecipientStatus | null> {
    return this.byToken(token, async (hash) => {
      const recipient = await this.recipients.find('confirm', hash);
      return recipient && this.recipients.confirm(hash, this.tokens.issueUnsubscribe(recipient));
    });
  }

  unsubscribe(token: string): Promise<RecipientStatus | null> {
    return this.byToken(token, (hash) => this.recipients.unsubscribe(hash));
  }

  private async byToken(token: string, act: (hash: Buffer) => Promise<RecipientStatus | null>): Promise<RecipientStatus | null> {
    return isUrlSecretShaped(token) ? act(urlSecretHash(token)) : null;
  }
}
