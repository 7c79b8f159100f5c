import { connect, type Socket } from 'node:net';

/** One SMTP reply: its code and its (last line's) text. */
export interface SmtpAnswer {
  code: number;
  text: string;
}

export interface MailDelivery {
  port: number;
  from?: string;
  to: string[];
  /** The message as sent, CRLF line ends (it is dot-stuffed here). */
  message: string | Buffer;
  /** Declared with MAIL FROM's SIZE parameter. */
  declaredSize?: number;
}

export interface DeliveryResult {
  mailFrom: SmtpAnswer;
  rcpt: SmtpAnswer[];
  /** The answer to the end of the message; null when DATA was never reached (no recipient accepted). */
  data: SmtpAnswer | null;
}

/**
 * A plain SMTP client, so the tests see every reply code exactly as a mail server would: EHLO,
 * MAIL FROM, one RCPT TO per recipient, DATA when one was accepted, the message, QUIT.
 */
export async function deliver({ port, from = 'sender@example.com', to, message, declaredSize }: MailDelivery): Promise<DeliveryResult> {
  const conversation = await SmtpConversation.open(port);
  try {
    await conversation.expect(220);
    await conversation.command('EHLO tests.example', 250);
    const mailFrom = await conversation.command(`MAIL FROM:<${from}>${declaredSize === undefined ? '' : ` SIZE=${declaredSize}`}`);
    const rcpt: SmtpAnswer[] = [];
    for (const recipient of to) rcpt.push(await conversation.command(`RCPT TO:<${recipient}>`));
    let data: SmtpAnswer | null = null;
    if (mailFrom.code === 250 && rcpt.some((r) => r.code === 250)) {
      await conversation.command('DATA', 354);
      data = await conversation.send(Buffer.concat([dotStuffed(message), Buffer.from('\r\n.\r\n')]));
    }
    await conversation.command('QUIT');
    return { mailFrom, rcpt, data };
  } finally {
    conversation.close();
  }
}

function dotStuffed(message: string | Buffer): Buffer {
  const bytes = Buffer.isBuffer(message) ? message : Buffer.from(message, 'utf8');
  const text = bytes.toString('latin1').replace(/(^|\r\n)\./g, '$1..');
  return Buffer.from(text.endsWith('\r\n') ? text.slice(0, -2) : text, 'latin1');
}

/** One SMTP connection, answer by answer; `close` ends it, and any answer still awaited fails. */
export class SmtpConversation {
  private buffer = '';
  private readonly waiting: ((answer: SmtpAnswer | Error) => void)[] = [];
  private readonly answers: (SmtpAnswer | Error)[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1');
      let end: number;
      while ((end = this.buffer.indexOf('\r\n')) >= 0) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        if (line[3] === '-') continue;
        this.answer({ code: Number(line.slice(0, 3)), text: line.slice(4) });
      }
    });
    socket.on('error', (err) => this.answer(err));
    socket.on('close', () => this.answer(new Error('the server closed the connection')));
  }

  /** A connection to 127.0.0.1:`port`, from `localAddress` when given (another loopback address: another sender). */
  static open(port: number, localAddress?: string): Promise<SmtpConversation> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress }, () => resolve(new SmtpConversation(socket)));
      socket.once('error', reject);
    });
  }

  async expect(code?: number): Promise<SmtpAnswer> {
    const answer = this.answers.shift() ?? (await new Promise<SmtpAnswer | Error>((resolve) => this.waiting.push(resolve)));
    if (answer instanceof Error) throw answer;
    if (code !== undefined && answer.code !== code) throw new Error(`expected ${code}, got ${answer.code} ${answer.text}`);
    return answer;
  }

  command(line: string, code?: number): Promise<SmtpAnswer> {
    this.socket.write(`${line}\r\n`);
    return this.expect(code);
  }

  /** Bytes with no reply awaited (a message trickled in). */
  write(bytes: string | Buffer): void {
    this.socket.write(bytes);
  }

  send(bytes: Buffer): Promise<SmtpAnswer> {
    this.write(bytes);
    return this.expect();
  }

  close(): void {
    this.socket.destroy();
  }

  private answer(answer: SmtpAnswer | Error): void {
    const waiter = this.waiting.shift();
    if (waiter) waiter(answer);
    else this.answers.push(answer);
  }
}
