import { Inject, Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { html } from '../../../shared/http/html.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { MailNotSentError, RelayMailer } from '../../../shared/mail/relay-mailer.js';
import { keepLease } from '../../../shared/queue/lease.js';
import { UsersService } from '../../people/application/users.service.js';
import { BATCH_WINDOW_MS, preferenceOf } from '../domain/notification.js';
import { retryDelayMs } from '../domain/mail-retries.js';
import { CaseMailOutbox, type ClaimedBatch, type ClaimedReply } from './comment-ports.js';
import { UnsubscribeLinks } from './unsubscribe-links.js';

/** How long a sender holds a mail without renewing it; longer than a silent relay is waited for between renewals. */
const LEASE_MS = 60_000;
/**
 * Mails claimed per kind and pass: one, sent at once (the worker's loop runs the next pass at
 * once while a pass finds mail). A mail claimed with others would wait behind their sends, a slow
 * relay's minutes, while its lease ran out; another worker could then take it and send it too.
 */
const TAKEN_AT_ONCE = 1;

/**
 * In worker roles: sends the queued public replies and notification mails. Exactly once as far
 * as the service can tell: a mail is marked sent right after the relay took it, only by the
 * attempt that holds it; a worker that dies before it tried leaves the row queued for the next
 * one (nothing is lost, nothing sent twice). Only a worker dying after the relay took the mail
 * and before the mark can make a second attempt, and that one carries the same Message-ID, so
 * the recipient's mail store sees one message (the reply's Message-ID is fixed when it is queued).
 */
@Injectable()
export class CaseMailSender {
  constructor(
    private readonly outbox: CaseMailOutbox,
    private readonly mailer: RelayMailer,
    private readonly users: UsersService,
    private readonly links: UnsubscribeLinks,
    private readonly env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** One pass over what is due; returns how many mails it took. */
  async sendDue(): Promise<number> {
    const replies = await this.outbox.claimReplies(TAKEN_AT_ONCE, LEASE_MS);
    for (const reply of replies) await this.sendReply(reply);
    const batches = await this.outbox.claimBatches(TAKEN_AT_ONCE, LEASE_MS);
    for (const batch of batches) await this.sendBatch(batch);
    return replies.length + batches.length;
  }

  private async sendReply(mail: ClaimedReply): Promise<void> {
    const release = keepLease(() => this.outbox.renewReply(mail, LEASE_MS), LEASE_MS);
    try {
      await this.mailer.send({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.body,
        html: html`<div style="white-space: pre-wrap">${mail.body}</div>`.text,
        reply: { messageId: mail.messageId, inReplyTo: mail.inReplyTo, references: mail.references },
      });
    } catch (err) {
      if (!(err instanceof MailNotSentError)) throw err;
      await this.outbox.replyNotSent(mail, mail.lastChance ? null : retryDelayMs(mail.attempt), err.message);
      this.logger.warn({ organizationId: mail.organizationId, commentId: mail.commentId, attempt: mail.attempt, err: err.message }, 'public reply not sent');
      return;
    } finally {
      release();
    }
    await this.outbox.replySent(mail);
  }

  private async sendBatch(batch: ClaimedBatch): Promise<void> {
    // Only to someone who may still work cases: not a person deleted, deactivated or made a viewer since it was queued.
    const email = (await this.users.workers(batch.organizationId, [batch.userId])).get(batch.userId);
    if (email === undefined || !batch.items.length) {
      await this.outbox.batchNotSent(batch, null);
      return;
    }
    const release = keepLease(() => this.outbox.renewBatch(batch, LEASE_MS), LEASE_MS);
    const preference = preferenceOf(batch.items[0]!.kind);
    const unsubscribeUrl = this.links.url({ organizationId: batch.organizationId, userId: batch.userId, preference });
    const caseUrl = `${this.env.PUBLIC_BASE_URL}/dashboard/cases/${batch.caseId}`;
    const lines = batch.items.map((item) => item.summary);
    const more = batch.more > 0 ? [`and ${batch.more} more`] : [];
    const count = batch.items.length + batch.more;
    try {
      await this.mailer.send({
        to: email,
        subject: `Case #${batch.caseId}: ${count} ${count === 1 ? 'update' : 'updates'}`,
        text: `${[...lines, ...more].map((l) => `- ${l}`).join('\n')}\n\nOpen the case: ${caseUrl}\n\nStop these (${preference}) notifications: ${unsubscribeUrl}\n`,
        html: html`<ul>${[...lines, ...more].map((l) => html`<li>${l}</li>`)}</ul><p><a href="${caseUrl}">Open the case</a></p><p><a href="${unsubscribeUrl}">Stop these (${preference}) notifications</a></p>`.text,
        unsubscribeUrl,
      });
    } catch (err) {
      if (!(err instanceof MailNotSentError)) throw err;
      await this.outbox.batchNotSent(batch, batch.lastChance ? null : retryDelayMs(batch.attempt));
      this.logger.warn({ organizationId: batch.organizationId, userId: batch.userId, caseId: batch.caseId, attempt: batch.attempt, err: err.message }, 'notification mail not sent');
      return;
    } finally {
      release();
    }
    await this.outbox.batchSent(batch, BATCH_WINDOW_MS);
  }
}
