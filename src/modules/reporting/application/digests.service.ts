import { Injectable } from '@nestjs/common';
import { type Transaction, TransactionRunner } from '../../../shared/database/transaction.js';
import { InvalidRequestError, NotFoundError, RateLimitedError } from '../../../shared/errors/app-error.js';
import { AuditTrail } from '../../audit/application/audit-trail.js';
import type { ChangeAuthor } from '../../audit/domain/audit-entry.js';
import { changedSettings } from '../../audit/domain/audit-summary.js';
import { DigestUnconfirmedError } from '../domain/digest.errors.js';
import { type Digest, duePeriods, INVITATION_SPACING_MS, MANUAL_SEND_SPACING_MS, periodEndingNow } from '../domain/digest.js';
import { DigestMailer, DigestStore, type NewDigest, type NewRecipient } from './digest.ports.js';
import { RecipientTokens } from './recipient-tokens.js';

export const NOT_CONFIGURED = 'digests are not configured: SMTP_RELAY_URL is not set';

/** Any of a digest's fields, as sent: null `weekday` or `workflowIds` clears it; the others may not be null. */
export type DigestChanges = { [K in keyof NewDigest]?: NewDigest[K] | null };

/** Where each field is in the request body, for the pointers of its errors. */
const POINTERS: Record<keyof NewDigest, string> = { schedule: '/schedule', hourUtc: '/hour_utc', weekday: '/weekday', recipients: '/recipients', workflowIds: '/workflow_ids' };

/** The digest API: schedules per organization, and a send by hand. */
@Injectable()
export class DigestsService {
  constructor(
    private readonly store: DigestStore,
    private readonly mailer: DigestMailer,
    private readonly tokens: RecipientTokens,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditTrail,
  ) {}

  /** Addresses the organization does not know yet are asked to confirm (see DigestStore.create); none gets a digest before it does. */
  async create(by: ChangeAuthor, organizationId: number, digest: NewDigest): Promise<Digest> {
    this.requireRelay();
    checkWeekday(digest);
    const recipients = this.newRecipients(organizationId, digest.recipients);
    return this.transactions.run(async (tx) => {
      const created = await this.store.create(tx, organizationId, digest, recipients, INVITATION_SPACING_MS);
      await this.record(tx, by, created, 'created', { settings: settingsOf(created) });
      return created;
    });
  }

  /**
   * The digest after the change must be one create would take. Switching to daily drops the
   * weekday unless the change names one. Addresses added are invited as by create; removed ones
   * are simply no longer sent to. A new schedule starts with its next period: the ones it would
   * have had before the change are never sent.
   */
  async update(by: ChangeAuthor, organizationId: number, id: number, changes: DigestChanges, now: Date): Promise<Digest> {
    this.requireRelay();
    const problems = [
      ...(['schedule', 'hourUtc', 'recipients'] as const).filter((key) => changes[key] === null).map((key) => ({ path: POINTERS[key], error: `${POINTERS[key].slice(1)} cannot be null` })),
      ...(Object.keys(changes).length === 0 ? [{ path: '', error: 'give at least one of schedule, hour_utc, weekday, recipients, workflow_ids' }] : []),
    ];
    if (problems.length) throw new InvalidRequestError('invalid request body', problems);
    const digest = await this.store.find(organizationId, id);
    if (!digest) throw new NotFoundError('digest');
    const schedule = changes.schedule ?? digest.schedule;
    const changed: NewDigest = {
      schedule,
      hourUtc: changes.hourUtc ?? digest.hourUtc,
      weekday: changes.weekday !== undefined ? changes.weekday : schedule === 'daily' ? null : digest.weekday,
      recipients: changes.recipients ?? digest.recipients,
      workflowIds: changes.workflowIds !== undefined ? changes.workflowIds : digest.workflowIds,
    };
    checkWeekday(changed);
    const known = new Set(digest.recipients.map((address) => address.toLowerCase()));
    const added = this.newRecipients(organizationId, changed.recipients.filter((address) => !known.has(address.toLowerCase())));
    const rescheduled = changed.schedule !== digest.schedule || changed.hourUtc !== digest.hourUtc || changed.weekday !== digest.weekday;
    const passed = rescheduled ? duePeriods(changed, digest.createdAt, now) : [];
    return this.transactions.run(async (tx) => {
      const updated = await this.store.update(tx, organizationId, id, changed, added, INVITATION_SPACING_MS, passed);
      if (!updated) throw new NotFoundError('digest');
      await this.record(tx, by, updated, 'updated', { changed: changedSettings(settingsOf(digest), settingsOf(updated)) });
      return updated;
    });
  }

  list(organizationId: number): Promise<Digest[]> {
    this.requireRelay();
    return this.store.list(organizationId);
  }

  async delete(by: ChangeAuthor, organizationId: number, id: number): Promise<void> {
    this.requireRelay();
    await this.transactions.run(async (tx) => {
      if (!(await this.store.delete(tx, organizationId, id))) throw new NotFoundError('digest');
      await this.record(tx, by, { id, organizationId }, 'deleted');
    });
  }

  /**
   * Queues a send of the period ending now; a worker sends it (see DigestPass). Refused (429)
   * while the digest's last manual send is unsent or was asked for less than
   * MANUAL_SEND_SPACING_MS ago, so an admin cannot have the relay mail its recipients in a loop.
   * Refused (409) while no recipient has confirmed: such a send would mail nobody yet hold the
   * spacing, so the send after the first confirmation would wait.
   */
  async sendNow(by: ChangeAuthor, organizationId: number, id: number, now: Date): Promise<void> {
    this.requireRelay();
    const digest = await this.store.find(organizationId, id);
    if (!digest) throw new NotFoundError('digest');
    if (digest.confirmedRecipients.length === 0) throw new DigestUnconfirmedError();
    const period = periodEndingNow(digest, now);
    const answer = await this.transactions.run(async (tx) => {
      const queued = await this.store.addManualSend(tx, digest.id, period, MANUAL_SEND_SPACING_MS);
      if (queued.queued) await this.record(tx, by, digest, 'send_requested', { period_start: period.start.toISOString(), period_end: period.end.toISOString() });
      return queued;
    });
    if (!answer.queued) {
      const minutes = MANUAL_SEND_SPACING_MS / 60_000;
      throw new RateLimitedError(answer.retryAfterSeconds, `a manual send of this digest is still waiting or was asked for less than ${minutes} minutes ago; retry in ${answer.retryAfterSeconds} s`);
    }
  }

  private record(tx: Transaction, by: ChangeAuthor, digest: Pick<Digest, 'id' | 'organizationId'>, verb: string, summary: Record<string, unknown> = {}): Promise<void> {
    return this.audit.record(tx, { organizationId: digest.organizationId, by, action: `digest.${verb}`, target: { type: 'digest', id: String(digest.id) }, summary });
  }

  /** One recipient per address whatever its case: a token is issued for each, kept only for addresses new to the organization. */
  private newRecipients(organizationId: number, addresses: readonly string[]): NewRecipient[] {
    const distinct = [...new Map(addresses.map((address) => [address.toLowerCase(), address])).values()];
    return distinct.map((address) => this.tokens.issue(organizationId, address));
  }

  private requireRelay(): void {
    if (!this.mailer.configured) throw new InvalidRequestError(NOT_CONFIGURED);
  }
}

/** A digest's settings as the API names them (recipients' tokens are not settings). */
function settingsOf(digest: NewDigest): Record<string, unknown> {
  return { schedule: digest.schedule, hour_utc: digest.hourUtc, weekday: digest.weekday, recipients: digest.recipients, workflow_ids: digest.workflowIds };
}

function checkWeekday(digest: NewDigest): void {
  if ((digest.schedule === 'weekly') !== (digest.weekday !== null)) {
    throw new InvalidRequestError('invalid request body', [{ path: POINTERS.weekday, error: '"weekday" is required for a weekly digest, and only for one' }]);
  }
}
