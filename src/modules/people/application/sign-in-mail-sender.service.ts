import { Inject, Injectable } from '@nestjs/common';
import { html } from '../../../shared/http/html.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { MailNotSentError, type OutgoingMail, RelayMailer } from '../../../shared/mail/relay-mailer.js';
import { keepLease } from '../../../shared/queue/lease.js';
import { type ClaimedSignInMail, retryDelayMs } from '../domain/sign-in-mail.js';
import { SignInLinksService } from './sign-in-links.service.js';
import { SignInMailMetrics, SignInMailOutbox, type SignInMailRef } from './sign-in-mail-outbox.js';

/**
 * How long a sender holds a mail without renewing it (it renews every third of this while the
 * relay answers). A mail whose sender died is taken again after this (see Relay).
 */
const LEASE_MS = 6_000;

const TEXTS = {
  invitation: { subject: 'You are invited to the Case Intake Service', why: (mail: ClaimedSignInMail) => `You were invited as ${mail.user.role}.`, validFor: '7 days' },
  sign_in: { subject: 'Your sign-in link', why: () => 'Someone (we hope you) asked to sign in to the Case Intake Service.', validFor: '15 minutes' },
} as const;

/**
 * In worker roles: sends one queued sign-in or invitation mail, with a link issued for it now.
 * A relay that refuses it is asked again later (see retryDelayMs) until the mail is an hour old,
 * then the mail is given up: logged with ids only (never the link) and counted.
 */
@Injectable()
export class SignInMailSender {
  constructor(
    private readonly outbox: SignInMailOutbox,
    private readonly links: SignInLinksService,
    private readonly mailer: RelayMailer,
    private readonly metrics: SignInMailMetrics,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Throws only when Postgres fails: the job is then tried again, and the mail is taken again once its lease ends. */
  async send(ref: SignInMailRef): Promise<void> {
    const mail = await this.outbox.claim(ref, LEASE_MS);
    if (!mail) return;
    const releaseLease = keepLease(() => this.outbox.renewLease(mail, LEASE_MS), LEASE_MS);
    try {
      await this.mailer.send(await this.message(mail));
    } catch (err) {
      if (!(err instanceof MailNotSentError)) throw err;
      await this.notSent(mail, err);
      return;
    } finally {
      releaseLease();
    }
    await this.outbox.remove(mail);
    this.metrics.sent(mail.kind);
  }

  private async message(mail: ClaimedSignInMail): Promise<OutgoingMail> {
    const link = await this.links.issue(mail.user, mail.kind);
    const { subject, why, validFor } = TEXTS[mail.kind];
    const ending = `The link works once, for ${validFor}. If you did not expect this mail, ignore it.`;
    const body = html`<p>${why(mail)}</p><p><a href="${link}">Sign in</a></p><p>${ending}</p>`;
    return { to: mail.user.email, subject, text: `${why(mail)}\n\nSign in: ${link}\n\n${ending}\n`, html: body.text };
  }

  private async notSent(mail: ClaimedSignInMail, err: MailNotSentError): Promise<void> {
    const about = { organizationId: mail.organizationId, userId: mail.user.id, mailId: mail.id, kind: mail.kind, attempt: mail.attempt, err: err.message };
    if (mail.lastChance) {
      await this.outbox.remove(mail);
      this.metrics.givenUp(mail.kind);
      this.logger.warn(about, 'sign-in mail not sent; given up');
      return;
    }
    await this.outbox.retry(mail, retryDelayMs(mail.attempt));
    this.logger.warn(about, 'sign-in mail not sent; tried again later');
  }
}
