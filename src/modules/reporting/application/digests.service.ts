import { Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError, RateLimitedError } from '../../../shared/errors/app-error.js';
import { DigestUnconfirmedError } from '../domain/digest.errors.js';
import { type Digest, INVITATION_SPACING_MS, MANUAL_SEND_SPACING_MS, periodEndingNow } from '../domain/digest.js';
import { DigestMailer, DigestStore, type NewDigest } from './digest.ports.js';
import { RecipientTokens } from './recipient-tokens.js';

export const NOT_CONFIGURED = 'digests are not configured: SMTP_RELAY_URL is not set';

/** The digest API: schedules per organization, and a send by hand. */
@Injectable()
export class DigestsService {
  constructor(private readonly store: DigestStore, private readonly mailer: DigestMailer, private readonly tokens: RecipientTokens) {}

  /** Addresses the organization does not know yet are asked to confirm (see DigestStore.create); none gets a digest before it does. */
  async create(organizationId: number, digest: NewDigest): Promise<Digest> {
    this.requireRelay();
    if ((digest.schedule === 'weekly') !== (digest.weekday !== null)) throw new InvalidRequestError('"weekday" is required for a weekly digest, and only for one');
    // One recipient per address whatever its case: a token is issued for each, kept only for addresses new to the organization.
    const addresses = [...new Map(digest.recipients.map((address) => [address.toLowerCase(), address])).values()];
    const recipients = addresses.map((address) => this.tokens.issue(organizationId, address));
    return this.store.create(organizationId, digest, recipients, INVITATION_SPACING_MS);
  }

  list(organizationId: number): Promise<Digest[]> {
    this.requireRelay();
    return this.store.list(organizationId);
  }

  async delete(organizationId: number, id: number): Promise<void> {
    this.requireRelay();
    if (!(await this.store.delete(organizationId, id))) throw new NotFoundError('digest');
  }

  /**
   * Queues a send of the period ending now; a worker sends it (see DigestPass). Refused (429)
   * while the digest's last manual send is unsent or was asked for less than
   * MANUAL_SEND_SPACING_MS ago, so an admin cannot have the relay mail its recipients in a loop.
   * Refused (409) while no recipient has confirmed: such a send would mail nobody yet hold the
   * spacing, so the send after the first confirmation would wait.
   */
  async sendNow(organizationId: number, id: number, now: Date): Promise<void> {
    this.requireRelay();
    const digest = await this.store.find(organizationId, id);
    if (!digest) throw new NotFoundError('digest');
    if (digest.confirmedRecipients.length === 0) throw new DigestUnconfirmedError();
    const answer = await this.store.addManualSend(digest.id, periodEndingNow(digest, now), MANUAL_SEND_SPACING_MS);
    if (!answer.queued) {
      const minutes = MANUAL_SEND_SPACING_MS / 60_000;
      throw new RateLimitedError(answer.retryAfterSeconds, `a manual send of this digest is still waiting or was asked for less than ${minutes} minutes ago; retry in ${answer.retryAfterSeconds} s`);
    }
  }

  private requireRelay(): void {
    if (!this.mailer.configured) throw new InvalidRequestError(NOT_CONFIGURED);
  }
}
