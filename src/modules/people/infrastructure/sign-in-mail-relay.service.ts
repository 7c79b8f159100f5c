import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
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
export class SignInMailRelay extends RelayWorker<SignInMailRef, SignInMailRef, SignInMailRef> {
  constructor(
    outbox: PostgresSignInMailOutbox,
    sender: SignInMailSender,
    @InjectQueue(SIGN_IN_MAILS_QUEUE) queue: Queue,
  ) {
    super({
      name: 'sign-in mail',
      store: outbox,
      key: (ref) => ref,
      toJob: (ref) => ({ name: SEND_SIGN_IN_MAIL_JOB, data: ref, opts: sendSignInMailJobOptions(ref) }),
      queue,
      batch: 100,
      job: SEND_SIGN_IN_MAIL_JOB,
      run: (ref) => sender.send(ref),
      // A worker without a mail relay would only give the mails up: it leaves them to one that has it.
      runsHere: (env) => Boolean(env.SMTP_RELAY_URL),
    });
  }
}
