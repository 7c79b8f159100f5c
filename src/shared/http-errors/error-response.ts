import type { FastifyReply } from 'fastify';
import { AppError, RateLimitedError, ServiceUnavailableError, UnstorableValueError } from '../errors/app-error.js';
import { isTransientDatabaseFailure, isUnstorableInput } from '../database/database-errors.js';
import { HTTP_STATUS } from './http-status.table.js';

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
  /** Unexpected failures are logged with their stack; expected ones are not. */
  unexpected: boolean;
  /** Headers the answer carries whatever its body (JSON or a page): `Retry-After` of a 429 or a 503. */
  headers?: Record<string, string>;
}

/** Fastify's own errors (before any handler runs) by their code. */
const FASTIFY_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'request body larger than 1 MB (1,048,576 bytes)' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'unsupported media type: send application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'request body does not match its Content-Length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 422, message: 'request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 422, message: 'request body is not valid JSON' },
  FST_ERR_BAD_URL: { status: 400, message: 'malformed URL' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, message: 'bad request' },
};

const STATUS_MESSAGES: Record<number, string> = {
  400: 'bad request',
  401: 'missing or invalid credentials',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  408: 'request timeout',
  413: 'request body too large',
  414: 'URL or path parameter too long',
  415: 'unsupported media type',
  422: 'unprocessable request',
  429: 'too many requests',
  503: 'service temporarily unavailable, retry shortly',
};

/** The one place that turns any thrown value into a status and a JSON body; internals never leak. */
export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof AppError) {
    const headers = err instanceof RateLimitedError || err instanceof ServiceUnavailableError ? { 'retry-after': String(err.retryAfterSeconds) } : undefined;
    return { status: HTTP_STATUS[err.code], body: { error: err.message, ...err.details }, unexpected: false, ...(headers && { headers }) };
  }
  if (isTransientDatabaseFailure(err)) return toErrorResponse(new ServiceUnavailableError());
  if (isUnstorableInput(err)) return toErrorResponse(new UnstorableValueError());
  const e = (err ?? {}) as { code?: unknown; statusCode?: unknown; cause?: unknown; getStatus?: () => number };
  // Nest wraps Fastify's own errors (FST_ERR_*) in an HttpException whose cause is the original.
  const code = (e.cause as { code?: unknown } | undefined)?.code ?? e.code;
  const known = typeof code === 'string' ? FASTIFY_ERRORS[code] : undefined;
  if (known) return { status: known.status, body: { error: known.message }, unexpected: false };
  const status = typeof e.getStatus === 'function' ? e.getStatus() : typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return { status, body: { error: STATUS_MESSAGES[status] ?? 'bad request' }, unexpected: false };
  }
  return { status: 500, body: { error: 'internal error' }, unexpected: true };
}

export function sendError(reply: FastifyReply, response: ErrorResponse): void {
  reply.headers(response.headers ?? {}).status(response.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(response.body));
}
