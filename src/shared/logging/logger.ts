import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream, type Logger } from 'pino';

export const LOGGER = Symbol('LOGGER');
export type { Logger };

/**
 * Paths that could carry a secret if someone ever logs a request or a header object.
 * Request lines themselves are written field by field (see request-logging.ts), so
 * this is a second line of defence, not the first.
 */
const REDACT = ['authorization', 'headers.authorization', 'req.headers.authorization', 'token', 'secret', '*.token', '*.secret', 'query.token', 'url'];

/**
 * Logs go to stdout through an asynchronous, buffered destination: a request line costs no
 * write system call of its own. The buffer is flushed when the process exits.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination({ sync: false, minLength: 4096 })): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' }, base: { pid: process.pid } }, destination);
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
