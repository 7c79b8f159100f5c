import { Inject, Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { duePeriods } from '../domain/digest.js';
import { ReportRange } from '../domain/report-range.js';
import { CaseReportService } from './case-report.service.js';
import { CHART_CID, digestEmail } from './digest-email.js';
import { ChartRenderer, type ClaimedSend, DigestMailer, DigestStore } from './digest.ports.js';
import { InvitationPass } from './invitation-pass.service.js';
import { attemptMail, SEND_LEASE_MS } from './mail-attempt.js';
import { RecipientTokens } from './recipient-tokens.js';

const UNSENT_BATCH = 100;

/**
 * One pass of the digest scheduler (any worker, any number at once): sends the confirmation
 * mails of new recipients, claims the periods due since each digest was created (a period
 * missed while no worker ran is due when one comes back), the manual sends, and the sends whose
 * claim lapsed, then sends what it claimed: a message per confirmed recipient, each with its
 * own unsubscribe link. A period's claim is a row with a unique key, so each period is sent by
 * one worker only; should that worker die between sending and marking sent, the period is sent
 * again after the lease (to the recipients not marked yet). A send the relay keeps refusing is
 * given up after MAX_SEND_ATTEMPTS, and its digest shows the error.
 */
@Injectable()
export class DigestPass {
  constructor(
    private readonly store: DigestStore,
    private readonly invitations: InvitationPass,
    private readonly mailer: DigestMailer,
    private readonly charts: ChartRenderer,
    private readonly reports: CaseReportService,
    private readonly tokens: RecipientTokens,
    private readonly env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Answers how many sends it completed (a send with no confirmed recipient completes sending nothing). */
  async run(now = new Date()): Promise<number> {
    if (!this.mailer.configured) return 0;
    await this.invitations.run();
    const claimed: number[] = [];
    for (const digest of await this.store.all()) {
      const periods = duePeriods(digest, digest.createdAt, now);
      if (periods.length) claimed.push(...(await this.store.claimPeriods(digest.id, periods)));
    }
    const sends = [...(await this.store.sends(claimed)), ...(await this.store.claimUnsent(SEND_LEASE_MS, UNSENT_BATCH))];
    let completed = 0;
    for (const send of sends) {
      const done = await attemptMail(
        {
          attempts: send.attempts,
          lastError: send.lastError,
          about: { digestId: send.digest.id, period: send.period.start.toISOString() },
          send: () => this.deliver(send, now),
          failed: (error, final) => this.store.markAttemptFailed(send.sendId, error, final),
        },
        this.logger,
      );
      if (done) completed += 1;
    }
    return completed;
  }

  private async deliver({ sendId, digest, period, recipients }: ClaimedSend, now: Date): Promise<void> {
    if (recipients.length) {
      const range = ReportRange.of({ at: period.start, offsetMinutes: 0 }, { at: period.end, offsetMinutes: 0 }, 'day', now);
      const report = await this.reports.report(digest.organizationId, range, digest.workflowIds);
      let png: Buffer | undefined;
      for (const recipient of recipients) {
        const unsubscribeUrl = this.tokens.unsubscribeUrl(recipient);
        const email = digestEmail(digest, period, report, `${this.env.PUBLIC_BASE_URL}/dashboard`, unsubscribeUrl);
        png ??= this.charts.png(email.chartSvg);
        await this.mailer.send({ to: recipient.address, subject: email.subject, text: email.text, html: email.html, inlineImage: { png, cid: CHART_CID }, unsubscribeUrl });
        await this.store.markDelivered(sendId, recipient.id);
      }
    }
    await this.store.markSent(sendId);
  }
}
