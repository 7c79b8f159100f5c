import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { PollingLoop } from '../../../shared/queue/polling-loop.js';
import { CaseMailSender } from '../application/case-mail-sender.service.js';

/** Due mails are looked for every half second when there were none: a reply leaves within a second of its comment. */
const IDLE_MS = 500;

/**
 * In worker roles with a relay: sends due replies and notification mails straight from
 * Postgres (rows are shared among workers by SKIP LOCKED and leases, so no queue is needed).
 * A worker without SMTP_RELAY_URL leaves them to one that has it.
 */
@Injectable()
export class CaseMailWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(
    sender: CaseMailSender,
    private readonly env: Env,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.loop = new PollingLoop('case mail sender', () => sender.sendDue(), 1, logger, IDLE_MS);
  }

  onApplicationBootstrap(): void {
    if (this.env.ROLE !== 'api' && this.env.SMTP_RELAY_URL) this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }
}
