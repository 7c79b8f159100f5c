import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isTransientDatabaseFailure } from '../database/database-errors.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { sendError, toErrorResponse } from './error-response.js';

/**
 * Every error a handler throws becomes `{"error": ...}` with its status, or on a route that
 * draws its own error pages (a page for people, see `errorPage`) that page; unexpected ones are
 * logged, never shown. A 503 for an unreachable or unanswering database is logged too: a query
 * that timed out, or one Postgres cancelled at its statement_timeout, may mean lock waits or a
 * slow statement, not only a database that is down.
 */
@Catch()
export class AllErrorsFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = toErrorResponse(error);
    const request = http.getRequest<FastifyRequest>();
    if (response.unexpected) logUnexpected(this.logger, request, error);
    else if (isTransientDatabaseFailure(error)) {
      this.logger.warn({ method: request.method, route: request.routeOptions?.url, err: error instanceof Error ? error.message : String(error) }, 'database unavailable; answered 503');
    }
    const errorPage = request.routeOptions?.config?.errorPage;
    if (errorPage) errorPage(http.getResponse<FastifyReply>().headers(response.headers ?? {}), response.status);
    else sendError(http.getResponse<FastifyReply>(), response);
  }
}

/** The route pattern, never the URL: a webhook URL carries its token. */
export function logUnexpected(logger: Logger, request: FastifyRequest, error: unknown): void {
  const err = error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : { message: String(error) };
  logger.error({ method: request.method, route: request.routeOptions?.url, err }, 'unexpected error');
}
