import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { Env } from '../../../shared/config/env.js';
import { DigestMailer, type OutgoingDigest } from '../application/digest.ports.js';

/** Sends through SMTP_RELAY_URL with Nodemailer, a connection per message (a few a day); the URL, holding the relay's password, is never logged. */
@Injectable()
export class NodemailerDigestMailer extends DigestMailer implements OnApplicationShutdown {
  readonly configured: boolean;
  private readonly transport?: Transporter;

  constructor(private readonly env: Env) {
    super();
    this.configured = env.SMTP_RELAY_URL !== undefined;
    if (env.SMTP_RELAY_URL) this.transport = nodemailer.createTransport(env.SMTP_RELAY_URL);
  }

  async send(message: OutgoingDigest): Promise<void> {
    if (!this.transport) throw new Error('SMTP_RELAY_URL is not set');
    await this.transport.sendMail({
      from: this.env.DIGEST_FROM,
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      attachments: [{ filename: 'chart.png', content: message.chartPng, contentType: 'image/png', cid: message.chartCid, contentDisposition: 'inline' }],
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
