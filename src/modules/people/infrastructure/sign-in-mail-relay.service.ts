import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { LOST_JOB_GRACE_MS, Relay } from '../../../shared/queue/relay.js';
import { SignInMailSender } from '../application/sign-in-mail-sender.service.js';
import type { SignInMailRef } from '../application/sign-in-mail-outbox.js';
import { PostgresSignInMailOutbox } from './postgres-sign-in-mail-outbox.js';
import { SEND_SIGN_IN_MAIL_JOB, SIGN_IN_MAILS_QUEUE, sendSignInMailJobOptions } from './sign-in-mails.queue.js';

const BATCH = 100;

/**
 * In worker roles: hands queued sign-in and invitation mails to Bull as soon as they are
 * committed (see Relay) and sends them. Nothing is lost while Redis or the relay is down, or by a
 * restart: the mail stays in Postgres until it is sent or given up.
 */
@Injectable()
export class SignInMailRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly relay: Relay<SignInMailRef>;

  constructor(
    outbox: PostgresSignInMailOutbox,
    private readonly sender: SignInMailSender,
    private readonly env: Env,
    @InjectQueue(SIGN_IN_MAILS_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.relay = new Relay(
      'sign-in mail relay',
      {
        takeNew: (limit) => outbox.takeNew(limit),
        takeExpired: (limit) => outbox.takeExpired(limit),
        takeStale: (limit, graceMs) => outbox.takeStale(limit, graceMs),
        untake: (refs) => outbox.untake(refs),
        job: (ref) => ({ name: SEND_SIGN_IN_MAIL_JOB, data: ref, opts: sendSignInMailJobOptions(ref) }),
      },
      queue,
      BATCH,
      LOST_JOB_GRACE_MS,
      logger,
    );
  }

  onApplicationBootstrap(): void {
    // A worker without a relay would only give the mails up: it leaves them to one that has it.
    if (!this.env.SMTP_RELAY_URL) return;
    this.queue
      .process(SEND_SIGN_IN_MAIL_JOB, this.env.WORKER_CONCURRENCY, (job: Job<SignInMailRef>) => this.sender.send(job.data))
      .catch((err: unknown) => this.logger.error({ err: String(err) }, 'sign-in mail worker stopped'));
    this.relay.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
