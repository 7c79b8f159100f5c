import { Inject, Injectable } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { duePeriods } from '../domain/digest.js';
import { ReportRange } from '../domain/report-range.js';
import { CaseReportService } from './case-report.service.js';
import { CHART_CID, digestEmail } from './digest-email.js';
import { ChartRenderer, type ClaimedSend, DigestMailer, DigestStore } from './digest.ports.js';

/** A claimed send not marked sent after this long is claimed again: its worker died, or the relay refused it. */
export const SEND_LEASE_MS = 5 * 60_000;
const UNSENT_BATCH = 100;

/**
 * One pass of the digest scheduler (any worker, any number at once): claims the periods due
 * since each digest was created (a period missed while no worker ran is due when one comes
 * back), the manual sends, and the sends whose claim lapsed, then sends what it claimed. A
 * period's claim is a row with a unique key, so each period is sent by one worker only; should
 * that worker die between sending and marking sent, the period is sent again after the lease.
 */
@Injectable()
export class DigestPass {
  constructor(
    private readonly store: DigestStore,
    private readonly mailer: DigestMailer,
    private readonly charts: ChartRenderer,
    private readonly reports: CaseReportService,
    private readonly env: Env,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Answers how many digests it sent. */
  async run(now = new Date()): Promise<number> {
    if (!this.mailer.configured) return 0;
    const claimed: number[] = [];
    for (const digest of await this.store.all()) {
      const periods = duePeriods(digest, digest.createdAt, now);
      if (periods.length) claimed.push(...(await this.store.claimPeriods(digest.id, periods)));
    }
    const sends = [...(await this.store.sends(claimed)), ...(await this.store.claimUnsent(SEND_LEASE_MS, UNSENT_BATCH))];
    let sent = 0;
    for (const send of sends) {
      try {
        await this.deliver(send, now);
        sent += 1;
      } catch (err) {
        this.logger.warn({ digestId: send.digest.id, period: send.period.start.toISOString(), err: errorText(err) }, 'digest not sent; tried again later');
      }
    }
    return sent;
  }

  private async deliver({ sendId, digest, period }: ClaimedSend, now: Date): Promise<void> {
    const range = ReportRange.of({ at: period.start, offsetMinutes: 0 }, { at: period.end, offsetMinutes: 0 }, 'day', now);
    const report = await this.reports.report(digest.organizationId, range, digest.workflowIds);
    const email = digestEmail(digest, period, report, `${this.env.PUBLIC_BASE_URL}/dashboard`);
    await this.mailer.send({ to: digest.recipients, subject: email.subject, text: email.text, html: email.html, chartPng: this.charts.png(email.chartSvg), chartCid: CHART_CID });
    await this.store.markSent(sendId);
  }
}

/** An SMTP error's message and code, never the relay URL (it holds the relay's password). */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  const code = (err as { code?: unknown; responseCode?: unknown }).responseCode ?? (err as { code?: unknown }).code;
  return `${code ?? ''} ${err.message}`.trim().slice(0, 300);
}
