import { InjectQueue } from '@nestjs/bull';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { RepeatableJob } from '../../../shared/queue/repeatable-job.js';
import { SsoConfigurationsService } from '../application/sso-configurations.service.js';
import { SSO_DOMAIN_CHECK_JOB, SSO_DOMAIN_CHECKS_QUEUE } from './sso-domain-checks.queue.js';

/**
 * In worker roles: checks the proven single sign-on domains again every
 * SSO_DOMAIN_CHECK_INTERVAL_MS (daily by default), one pass at a time for the whole deployment
 * (see RepeatableJob): a proof whose DNS record was taken down lapses.
 */
@Injectable()
export class SsoDomainCheckSchedule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly job: RepeatableJob;

  constructor(@InjectQueue(SSO_DOMAIN_CHECKS_QUEUE) queue: Queue, private readonly settings: SsoConfigurationsService, env: Env, @Inject(LOGGER) private readonly logger: Logger) {
    this.job = new RepeatableJob(queue, SSO_DOMAIN_CHECK_JOB, env.SSO_DOMAIN_CHECK_INTERVAL_MS, 'single sign-on domain check', logger);
  }

  onApplicationBootstrap(): void {
    this.job.start(async () => {
      const lapsed = await this.settings.recheckDomains();
      if (lapsed) this.logger.info({ lapsed }, 'single sign-on domain proofs lapsed');
    });
  }

  beforeApplicationShutdown(): void {
    this.job.stop();
  }
}
