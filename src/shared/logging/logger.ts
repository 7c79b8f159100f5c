import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream, type Logger } from 'pino';

export const LOGGER = Symbol('LOGGER');
export type { Logger };

/**
 * Paths that could carry a secret if someone ever logs a request or a header object.
 * Request lines themselves are written field by field (see request-logging.ts), so
 * this is a second line of defence, not the first.
 */
const REDACT = ['authorization', 'headers.authorization', 'req.headers.authorization', 'cookie', 'headers.cookie', 'req.headers.cookie', 'headers["x-csrf-token"]', 'token', 'secret', '*.token', '*.secret', 'query.token', 'url'];

/** The longest a log line waits in the buffer: an idle process's last lines (its start, an error) reach stdout this soon. */
export const LOG_FLUSH_INTERVAL_MS = 1_000;

/**
 * Logs go to stdout through an asynchronous, buffered destination: a request line costs no
 * write system call of its own. The buffer is written out when it holds 4 KiB, at most
 * LOG_FLUSH_INTERVAL_MS after a line was logged, and when the process exits.
 */
export function createLogger(level: string, destination: DestinationStream = bufferedStdout()): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' }, base: { pid: process.pid } }, destination);
}

function bufferedStdout(): DestinationStream {
  const stdout = pino.destination({ sync: false, minLength: 4096 });
  // Bytes logged and not yet written. A flush while a write is under way does nothing, and when
  // that write ends, sonic-boom keeps what followed it until 4 KiB are there again; so the timer
  // flushes as long as bytes are left, not just once after a line (a once that fell while a write
  // was under way kept a start's last lines, its start line among them, for good).
  let unwritten = 0;
  const write = stdout.write.bind(stdout);
  stdout.write = (line: string) => {
    unwritten += Buffer.byteLength(line);
    return write(line);
  };
  stdout.on('write', (bytes: number) => (unwritten -= bytes));
  setInterval(() => {
    if (unwritten > 0) stdout.flush();
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return stdout;
}

/** Lets Nest's own messages (boot, module init) go through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) { this.logger.info({ context }, String(message)); }
  error(message: unknown, trace?: string, context?: string) { this.logger.error({ context, trace }, String(message)); }
  warn(message: unknown, context?: string) { this.logger.warn({ context }, String(message)); }
  debug(message: unknown, context?: string) { this.logger.debug({ context }, String(message)); }
  verbose(message: unknown, context?: string) { this.logger.trace({ context }, String(message)); }
}
