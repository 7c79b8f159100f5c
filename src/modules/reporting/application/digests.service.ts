import { Injectable } from '@nestjs/common';
import { InvalidRequestError, NotFoundError } from '../../../shared/errors/app-error.js';
import { type Digest, MAX_DIGESTS_PER_ORGANIZATION, periodEndingNow } from '../domain/digest.js';
import { DigestMailer, DigestStore, type NewDigest } from './digest.ports.js';

export const NOT_CONFIGURED = 'digests are not configured: SMTP_RELAY_URL is not set';

/** The digest API: schedules per organization, and a send by hand. */
@Injectable()
export class DigestsService {
  constructor(private readonly store: DigestStore, private readonly mailer: DigestMailer) {}

  async create(organizationId: number, digest: NewDigest): Promise<Digest> {
    this.requireRelay();
    if ((digest.schedule === 'weekly') !== (digest.weekday !== null)) throw new InvalidRequestError('"weekday" is required for a weekly digest, and only for one');
    const created = await this.store.create(organizationId, digest);
    if (!created) throw new InvalidRequestError(`an organization has at most ${MAX_DIGESTS_PER_ORGANIZATION} digests`);
    return created;
  }

  list(organizationId: number): Promise<Digest[]> {
    this.requireRelay();
    return this.store.list(organizationId);
  }

  async delete(organizationId: number, id: number): Promise<void> {
    this.requireRelay();
    if (!(await this.store.delete(organizationId, id))) throw new NotFoundError('digest');
  }

  /** Queues a send of the period ending now; a worker sends it (see DigestPass). */
  async sendNow(organizationId: number, id: number, now: Date): Promise<void> {
    this.requireRelay();
    const digest = await this.store.find(organizationId, id);
    if (!digest) throw new NotFoundError('digest');
    await this.store.addManualSend(digest.id, periodEndingNow(digest, now));
  }

  private requireRelay(): void {
    if (!this.mailer.configured) throw new InvalidRequestError(NOT_CONFIGURED);
  }
}
