import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsRegistry } from '../../../shared/metrics/metrics.module.js';
import { SignInMailMetrics } from '../application/sign-in-mail-outbox.js';
import type { SignInMailKind } from '../domain/sign-in-mail.js';

@Injectable()
export class PrometheusSignInMailMetrics extends SignInMailMetrics {
  private readonly sentTotal: Counter<'kind'>;
  private readonly givenUpTotal: Counter<'kind'>;

  constructor(registry: MetricsRegistry) {
    super();
    this.sentTotal = new Counter({ name: 'sign_in_mails_sent_total', help: 'Sign-in and invitation mails the relay took, by kind', labelNames: ['kind'], registers: [registry] });
    this.givenUpTotal = new Counter({
      name: 'sign_in_mails_given_up_total',
      help: 'Sign-in and invitation mails given up after the relay refused them for an hour, by kind',
      labelNames: ['kind'],
      registers: [registry],
    });
  }

  sent(kind: SignInMailKind): void {
    this.sentTotal.inc({ kind });
  }

  givenUp(kind: SignInMailKind): void {
    this.givenUpTotal.inc({ kind });
  }
}
