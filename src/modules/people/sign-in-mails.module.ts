import { BullModule } from '@nestjs/bull';
import { type DynamicModule, Module } from '@nestjs/common';
import type { Env } from '../../shared/config/env.js';
import { RelayMailer } from '../../shared/mail/relay-mailer.js';
import { SignInMailSender } from './application/sign-in-mail-sender.service.js';
import { SignInMailMetrics, SignInMailOutbox } from './application/sign-in-mail-outbox.js';
import { PostgresSignInMailOutbox } from './infrastructure/postgres-sign-in-mail-outbox.js';
import { SignInMailRelay } from './infrastructure/sign-in-mail-relay.service.js';
import { PrometheusSignInMailMetrics } from './infrastructure/sign-in-mail.metrics.js';
import { SIGN_IN_MAILS_QUEUE } from './infrastructure/sign-in-mails.queue.js';
import { SsoDomainCheckSchedule } from './infrastructure/sso-domain-check.schedule.js';
import { SSO_DOMAIN_CHECKS_QUEUE } from './infrastructure/sso-domain-checks.queue.js';
import { PeopleModule } from './people.module.js';

/**
 * The people module's part of worker roles: the relay and sender of the sign-in and invitation
 * mails PeopleModule queues, and the scheduled check of proven single sign-on domains. Nothing in
 * API roles (whose PeopleModule only writes the rows).
 */
@Module({})
export class SignInMailsModule {
  static forRoot(env: Env): DynamicModule {
    if (env.ROLE === 'api') return { module: SignInMailsModule };
    return {
      module: SignInMailsModule,
      imports: [PeopleModule, BullModule.registerQueue({ name: SIGN_IN_MAILS_QUEUE }, { name: SSO_DOMAIN_CHECKS_QUEUE })],
      providers: [
        PostgresSignInMailOutbox,
        { provide: SignInMailOutbox, useExisting: PostgresSignInMailOutbox },
        { provide: SignInMailMetrics, useClass: PrometheusSignInMailMetrics },
        RelayMailer,
        SignInMailSender,
        SignInMailRelay,
        SsoDomainCheckSchedule,
      ],
    };
  }
}
