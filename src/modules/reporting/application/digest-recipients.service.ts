import { Injectable } from '@nestjs/common';
import { isUrlSecretShaped, urlSecretHash } from '../../../shared/crypto/url-secret.js';
import { RecipientStore, type RecipientStatus } from './digest.ports.js';

/**
 * What a recipient's confirm and unsubscribe pages do, found by the token in their URL. A token
 * of the wrong shape is refused without a look-up; an unknown one finds nothing.
 */
@Injectable()
export class DigestRecipientsService {
  constructor(private readonly recipients: RecipientStore) {}

  find(token: string): Promise<RecipientStatus | null> {
    return this.byToken(token, (hash) => this.recipients.find(hash));
  }

  confirm(token: string): Promise<RecipientStatus | null> {
    return this.byToken(token, (hash) => this.recipients.confirm(hash));
  }

  unsubscribe(token: string): Promise<RecipientStatus | null> {
    return this.byToken(token, (hash) => this.recipients.unsubscribe(hash));
  }

  private async byToken(token: string, act: (hash: Buffer) => Promise<RecipientStatus | null>): Promise<RecipientStatus | null> {
    return isUrlSecretShaped(token) ? act(urlSecretHash(token)) : null;
  }
}
