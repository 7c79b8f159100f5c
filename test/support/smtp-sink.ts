import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SunkMail {
  /** RCPT TO addresses. */
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  /** `smtp://digest:secret@127.0.0.1:<port>` */
  url: string;
  mails: SunkMail[];
  /** While set, every recipient is refused with `550` and this text (a relay that fails for good). */
  refusing?: string;
  close(): Promise<void>;
}

/** A real SMTP server standing in for the relay: plain text, any login, every message kept and parsed. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: SunkMail[] = [];
  let sink: SmtpSink | undefined;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    onAuth: (auth, _session, callback) => (auth.username === 'digest' && auth.password === 'secret' ? callback(null, { user: 'digest' }) : callback(new Error('bad login'))),
    onRcptTo: (_address, _session, callback) => {
      if (sink?.refusing === undefined) return callback();
      return callback(Object.assign(new Error(sink.refusing), { responseCode: 550 }));
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw, { skipImageLinks: true }).then(
          (parsed) => {
            mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, parsed });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  sink = {
    url: `smtp://digest:secret@127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sink;
}
