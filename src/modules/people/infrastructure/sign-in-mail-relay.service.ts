import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { RelayWorker } from '../../../shared/queue/relay-worker.js';
import { SignInMailSender } from '../application/sign-in-mail-sender.service.js';
import type { SignInMailRef } from '../application/sign-in-mail-outbox.js';
import { PostgresSignInMailOutbox } from './postgres-sign-in-mail-outbox.js';
import { SEND_SIGN_IN_MAIL_JOB, SIGN_IN_MAILS_QUEUE, sendSignInMailJobOptions } from './sign-in-mails.queue.js';

/**
 * In worker roles: hands queued sign-in and invitation mails to Bull as soon as they are
 * committed (see Relay) and sends them. Nothing is lost while Redis or the relay is down, or by a
 * restart: the mail stays in Postgres until it is sent or given up.
 */
@Injectable()
export class SignInMailRelay extends RelayWorker<SignInMailRef, SignInMailRef> {
  constructor(
    outbox: PostgresSignInMailOutbox,
    sender: SignInMailSender,
    env: Env,
    @InjectQueue(SIGN_IN_MAILS_QUEUE) queue: Queue,
    @Inject(LOGGER) logger: Logger,
  ) {
    super({
      name: 'sign-in mail',
      source: {
        takeNew: (limit) => outbox.takeNew(limit),
        takeExpired: (limit) => outbox.takeExpired(limit),
        takeStale: (limit, graceMs) => outbox.takeStale(limit, graceMs),
        untake: (refs) => outbox.untake(refs),
        job: (ref) => ({ name: SEND_SIGN_IN_MAIL_JOB, data: ref, opts: sendSignInMailJobOptions(ref) }),
      },
      queue,
      batch: 100,
      job: SEND_SIGN_IN_MAIL_JOB,
      concurrency: env.WORKER_CONCURRENCY,
      run: (ref) => sender.send(ref),
      // A worker without a mail relay would only give the mails up: it leaves them to one that has it.
      runsHere: () => Boolean(env.SMTP_RELAY_URL),
      logger,
    });
  }
}
