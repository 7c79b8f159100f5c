import { type BeforeApplicationShutdown, Inject, Injectable, type INestApplicationContext } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { Env } from '../../../shared/config/env.js';
import { LOGGER, type Logger } from '../../../shared/logging/logger.js';
import { EmailAddressesService, type EmailTarget } from '../application/email-addresses.service.js';
import { ReceiveEmailService } from '../application/receive-email.service.js';
import { MAIL_LIMITS } from '../domain/mail-limits.js';
import { MailRefusedError, SMTP_REPLIES, type SmtpReply } from '../domain/smtp-reply.js';
import { Semaphore } from '../../../shared/concurrency/semaphore.js';
import { InboundMailLimits } from './inbound-mail-limits.js';
import { SmtpSessionLimits } from './smtp-session-limits.js';

const ACCEPTED = '2.6.0 Message accepted';

/**
 * The SMTP listener of the API roles: a recipient is checked at RCPT TO (550 5.1.1 unless it is
 * a published email workflow's current address), the size while the message streams in
 * (552 5.3.4), the message against each workflow's attributes before anything is stored
 * (550 5.7.1). Only a database that does not answer is a temporary failure (451).
 *
 * What one client may hold is bounded: SMTP_CONNECTIONS_PER_ADDRESS connections per address
 * group (421 at the greeting), none of the process's MAIL_LIMITS.connections for long while
 * idle once they are all taken (see SmtpSessionLimits), one of the messages in progress per
 * address group (its other messages wait for it, under the same deadline),
 * SMTP_MAX_REFUSED_RECIPIENTS refused recipients per connection (the
 * next RCPT TO is a 421 and the connection closes), EMAIL_MESSAGES_PER_MINUTE to one workflow's
 * address from everyone (451 at RCPT TO) and SMTP_DATA_TIMEOUT_MS from DATA to the end
 * of the message (421, closed), so a message trickled a byte at a time, each resetting the idle
 * timer, cannot hold one of the messages in progress for longer.
 *
 * Enhanced status codes are written into the reply texts, not left to smtp-server, whose
 * mapping would answer 550 5.1.1 for every 550; for the same reason the SIZE limit is enforced
 * at MAIL FROM here (552 5.3.4) rather than by smtp-server's own check.
 */
@Injectable()
export class SmtpListener implements BeforeApplicationShutdown {
  private server: SMTPServer | undefined;
  /**
   * The mail reader, and with it mailparser and its MIME, charset and HTML libraries (several MB
   * of heap), is imported at the first message, not at startup: an API process that takes no
   * mail never holds them (the API process has a peak RSS budget).
   */
  private reader: Promise<typeof import('./mail-reader.js')> | undefined;
  private readonly inProgress = new Semaphore(MAIL_LIMITS.messagesInProgress);
  private readonly limits: SmtpSessionLimits;

  constructor(
    private readonly env: Env,
    private readonly addresses: EmailAddressesService,
    private readonly intake: ReceiveEmailService,
    private readonly messagesPerMinute: InboundMailLimits,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.limits = new SmtpSessionLimits({
      connections: MAIL_LIMITS.connections,
      connectionsPerAddress: env.SMTP_CONNECTIONS_PER_ADDRESS,
      refusedRecipients: env.SMTP_MAX_REFUSED_RECIPIENTS,
      messagesPerAddress: MAIL_LIMITS.messagesInProgressPerAddress,
      idleBeforeEviction: MAIL_LIMITS.idleBeforeEviction,
    });
  }

  /** Starts listening on `port` (0: any free port) at SMTP_HOST; resolves with the port bound. */
  listen(port: number): Promise<number> {
    const tls = this.tlsOptions();
    const server = new SMTPServer({
      name: this.env.INBOUND_EMAIL_DOMAIN,
      banner: 'case intake',
      logger: false,
      disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
      ...tls,
      size: this.env.SMTP_MAX_MESSAGE_BYTES,
      hideSize: true,
      // smtp-server's own ceiling counts sockets not yet let in too (onConnect comes 100 ms after
      // the accept): the room they need beside a full listener, so a newcomer reaches onConnect,
      // where it may take an idle connection's place.
      maxClients: MAIL_LIMITS.connections * 2,
      maxRecipients: MAIL_LIMITS.recipients,
      disableReverseLookup: true,
      closeTimeout: Math.max(1_000, this.env.SHUTDOWN_GRACE_MS / 2),
      onConnect: (session, callback) => callback(this.admit(session)),
      onClose: (session) => this.limits.leave(session),
      onMailFrom: (address, _session, callback) => callback(this.checkDeclaredSize(address)),
      onRcptTo: (address, session, callback) => void this.checkRecipient(address, session).then(callback),
      onData: (stream, session, callback) => {
        const deadline = new AbortController();
        const timer = setTimeout(() => deadline.abort(), this.env.SMTP_DATA_TIMEOUT_MS);
        deadline.signal.addEventListener('abort', () => {
          this.logger.info({ session: session.id }, 'smtp message not received in time; connection closed');
          this.close(session, SMTP_REPLIES.dataTimeout(this.env.SMTP_DATA_TIMEOUT_MS));
        });
        const stop = () => clearTimeout(timer);
        // smtp-server destroys the stream of a client gone mid-message: what it waits for or holds
        // (a message slot, the read that would never end) is given up then, not at the deadline.
        const gone = new AbortController();
        stream.once('close', () => {
          if (!stream.readableEnded) gone.abort();
        });
        this.limits.receiving(session);
        void this.receive(stream, session, AbortSignal.any([deadline.signal, gone.signal]), stop)
          .finally(() => {
            stop();
            this.limits.received(session);
          })
          .then((reply) => (reply ? callback(smtpError(reply)) : callback(null, ACCEPTED)));
      },
    });
    // A connection's socket error (a client gone mid-transfer) is not the listener's.
    server.on('error', (err) => this.logger.debug({ err: err.message }, 'smtp connection error'));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, this.env.SMTP_HOST, () => {
        server.server.off('error', reject);
        resolve((server.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops accepting; transactions under way finish (or are cut after closeTimeout) before the database pool closes. */
  beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** Null when the connection is let in (an idle one closed to make room if the process was full), else the refusal. */
  private admit(session: SMTPServerSession): Error | null {
    const admission = this.limits.admit(session);
    if (!admission.admitted) return smtpError(admission.refusal === 'address_full' ? SMTP_REPLIES.tooManyConnections : SMTP_REPLIES.listenerFull);
    if (admission.evicted) {
      this.logger.info({ session: admission.evicted.id }, 'smtp connection idle while the listener was full; closed to make room');
      this.close(admission.evicted, SMTP_REPLIES.idleEvicted);
    }
    return null;
  }

  private checkDeclaredSize(address: SMTPServerAddress): Error | null {
    const declared = address.args ? Number(address.args.SIZE) : NaN;
    return declared > this.env.SMTP_MAX_MESSAGE_BYTES ? smtpError(SMTP_REPLIES.tooLarge(this.env.SMTP_MAX_MESSAGE_BYTES)) : null;
  }

  private async checkRecipient(address: SMTPServerAddress, session: SMTPServerSession): Promise<Error | null> {
    if (this.limits.refusedEnough(session)) return smtpError(SMTP_REPLIES.tooManyRefusedRecipients);
    try {
      const target = await this.addresses.resolve(address.address);
      if (!target) {
        this.limits.recipientRefused(session);
        return smtpError(SMTP_REPLIES.unknownRecipient);
      }
      return (await this.messagesPerMinute.refused(target.organizationId, target.version.workflowId)) ? smtpError(SMTP_REPLIES.tooManyMessages) : null;
    } catch (err) {
      this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'smtp recipient look-up failed');
      return smtpError(SMTP_REPLIES.unavailable);
    }
  }

  /**
   * The refusal to answer, or null when the message was taken. The stream is always read to its
   * end, unless `deadline` aborts first (the connection is cut then, or its client left): waiting
   * for a slot and reading count against it, storing does not (`received` is called when the message is in).
   */
  private async receive(stream: SMTPServerDataStream, session: SMTPServerSession, deadline: AbortSignal, received: () => void): Promise<SmtpReply | null> {
    const timedOut = SMTP_REPLIES.dataTimeout(this.env.SMTP_DATA_TIMEOUT_MS);
    let release: () => void;
    try {
      // The client's own slot first: its messages waiting here hold none of the process's.
      const releaseOwn = await this.limits.messageSlot(session, deadline);
      const releaseShared = await this.inProgress.acquire(1, deadline).catch((err: unknown) => {
        releaseOwn();
        throw err;
      });
      release = () => {
        releaseShared();
        releaseOwn();
      };
    } catch {
      return timedOut;
    }
    try {
      // Resolved again: an address rotated since RCPT TO no longer reaches its workflow.
      const targets = (await Promise.all(session.envelope.rcptTo.map((r) => this.addresses.resolve(r.address)))).filter((t): t is EmailTarget => t !== null);
      if (!targets.length) return SMTP_REPLIES.unknownRecipient;
      const { readMail } = await (this.reader ??= import('./mail-reader.js'));
      const reading = await untilAborted(readMail(stream, this.env.SMTP_MAX_MESSAGE_BYTES), deadline);
      received();
      if (!reading) return timedOut;
      if (reading.kind === 'too_large') return SMTP_REPLIES.tooLarge(this.env.SMTP_MAX_MESSAGE_BYTES);
      if (reading.kind === 'unreadable') return SMTP_REPLIES.unreadable(reading.reason);
      // `MAIL FROM:<>`: a bounce or another notice that must never be answered (RFC 5321 section 4.5.5).
      const mailFrom = session.envelope.mailFrom;
      const nullReturnPath = mailFrom === false || mailFrom.address === '';
      const outcomes = await this.intake.receive(targets, { ...reading.message, nullReturnPath });
      this.logger.info({ session: session.id, outcomes }, 'email received');
      return null;
    } catch (err) {
      if (err instanceof MailRefusedError) return err.reply;
      this.logger.error({ session: session.id, err: err instanceof Error ? err.message : String(err) }, 'email intake failed');
      return SMTP_REPLIES.unavailable;
    } finally {
      release();
    }
  }

  /** Answers `reply` (a 421) on the session's connection, which closes it unasked. */
  private close(session: SMTPServerSession, reply: SmtpReply): void {
    const connection = [...(this.server?.connections ?? [])].find((c) => c.session === session);
    connection?.send(reply.code, reply.text);
  }

  /** STARTTLS when SMTP_TLS_CERT and SMTP_TLS_KEY are set: each a PEM text, or the path of a PEM file. */
  private tlsOptions(): { cert: string; key: string } | undefined {
    const { SMTP_TLS_CERT: cert, SMTP_TLS_KEY: key } = this.env;
    if (cert === undefined || key === undefined) return undefined;
    const pem = (value: string) => (value.trimStart().startsWith('-----BEGIN') ? value : readFileSync(value, 'utf8'));
    return { cert: pem(cert), key: pem(key) };
  }
}

/** API roles listen for mail unless SMTP_PORT is 0; resolves with the port bound, or null when there is no listener. */
export function listenForMail(app: INestApplicationContext, env: Env): Promise<number | null> {
  if (env.ROLE === 'worker' || env.SMTP_PORT === 0) return Promise.resolve(null);
  return app.get(SmtpListener).listen(env.SMTP_PORT);
}

/** What `work` resolves with, or undefined once `signal` aborted first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const aborted = () => resolve(undefined);
    signal.addEventListener('abort', aborted, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}

function smtpError(reply: SmtpReply): Error & { responseCode: number } {
  return Object.assign(new Error(reply.text), { responseCode: reply.code });
}
