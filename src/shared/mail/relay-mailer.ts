import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import { Env } from '../config/env.js';
import { serviceMessageId } from './service-message-id.js';

const MAX_ERROR_LENGTH = 200;
/**
 * Nodemailer waits 10 minutes on a silent relay by default, longer than a send's claim lasts
 * (SEND_LEASE_MS): another worker would then take the send over and mail its recipients again.
 */
const RELAY_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };

export interface OutgoingMail {
  to: string | readonly string[];
  /** DIGEST_FROM unless given (a public reply comes from its workflow's inbound address). */
  from?: string;
  subject: string;
  text: string;
  html: string;
  /** An image the HTML part shows as `cid:<cid>`. */
  inlineImage?: { png: Buffer; cid: string };
  /** The recipient's unsubscribe URL, also as the List-Unsubscribe and List-Unsubscribe-Post (one-click, RFC 8058) headers. */
  unsubscribeUrl?: string;
  /**
   * A person's reply to a thread (casework.md section 3): its own Message-ID, the same on every
   * attempt, the thread it answers, and no `Auto-Submitted` (a person wrote it, so the answer
   * to it is a person's too). Mail without it is the service's own, automatic.
   */
  reply?: { messageId: string; inReplyTo: string | null; references: readonly string[] };
}

/** The relay did not take a message. The message is short and safe to store and show: never the relay URL or its password. */
export class MailNotSentError extends Error {}

/**
 * Sends through SMTP_RELAY_URL with Nodemailer, a connection per message (digests, sign-in links:
 * a few a day). The URL
 * holds the relay's password: it is never logged, and an error is rethrown with the relay's
 * answer only, the URL and its credentials blotted out should the relay echo them.
 */
@Injectable()
export class RelayMailer implements OnApplicationShutdown {
  readonly configured: boolean;
  /**
   * Nodemailer is loaded and the transport made at the first send, not at startup: only worker
   * roles send, yet the API role provides this mailer too (for `configured`), and Nodemailer's
   * code is a few MB of the API's heap (the API process has a peak RSS budget).
   */
  private transport?: Promise<Transporter>;
  private readonly secrets: string[];

  constructor(private readonly env: Env) {
    this.configured = env.SMTP_RELAY_URL !== undefined;
    // Nodemailer's own parse (a small module), so that a relay URL it cannot read still stops
    // startup, as making the transport here did.
    if (env.SMTP_RELAY_URL) parseConnectionUrl(env.SMTP_RELAY_URL);
    this.secrets = relaySecrets(env.SMTP_RELAY_URL);
  }

  async send(message: OutgoingMail): Promise<void> {
    const relayUrl = this.env.SMTP_RELAY_URL;
    if (!relayUrl) throw new MailNotSentError('SMTP_RELAY_URL is not set');
    const { inlineImage: image, unsubscribeUrl, reply } = message;
    try {
      this.transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({ url: relayUrl, ...RELAY_TIMEOUTS }));
      await (await this.transport).sendMail({
        from: message.from ?? this.env.DIGEST_FROM,
        to: [message.to].flat(),
        subject: message.subject,
        text: message.text,
        html: message.html,
        attachments: image ? [{ filename: 'chart.png', content: image.png, contentType: 'image/png', cid: image.cid, contentDisposition: 'inline' }] : [],
        ...(reply
          ? { messageId: reply.messageId, ...(reply.inReplyTo ? { inReplyTo: reply.inReplyTo } : {}), ...(reply.references.length ? { references: [...reply.references] } : {}) }
          : // Answers to it come back recognisable, and auto-responders that follow RFC 3834 do not answer at all.
            { messageId: serviceMessageId(this.env.DIGEST_FROM) }),
        headers: {
          ...(reply ? {} : { 'Auto-Submitted': 'auto-generated' }),
          ...(unsubscribeUrl ? { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
        },
      });
    } catch (err) {
      throw new MailNotSentError(this.safeText(err));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    (await this.transport?.catch(() => undefined))?.close();
  }

  /** The SMTP answer's code and text, cut short, with no part of the relay URL that is a secret. */
  private safeText(err: unknown): string {
    const { responseCode, code, message } = (err ?? {}) as { responseCode?: unknown; code?: unknown; message?: unknown };
    let text = `${String(responseCode ?? code ?? '')} ${typeof message === 'string' ? message : 'unknown error'}`.trim();
    for (const secret of this.secrets) text = text.split(secret).join('[hidden]');
    return text.replace(/\s+/g, ' ').slice(0, MAX_ERROR_LENGTH);
  }
}

/** The relay URL and its user:password, raw and decoded, longest first (so the URL goes whole). */
function relaySecrets(url: string | undefined): string[] {
  if (!url) return [];
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const parts = [url, parsed?.password ?? '', decodeURIComponentSafe(parsed?.password ?? '')];
  if (parsed?.username) parts.push(`${parsed.username}:${parsed.password}`, `${decodeURIComponentSafe(parsed.username)}:${decodeURIComponentSafe(parsed.password)}`);
  return [...new Set(parts.filter((part) => part.length > 0))].sort((a, b) => b.length - a.length);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
