/**
 * Every error the service answers on purpose has a code from this list. The HTTP layer maps
 * codes to statuses in one table (`http-errors/http-status.table.ts`), so domain code never
 * speaks HTTP and a new code without a status fails to compile.
 */
export type AppErrorCode =
  | 'auth.unauthorized'
  | 'auth.forbidden'
  | 'resource.not_found'
  | 'request.invalid'
  | 'request.malformed_json'
  | 'request.unsupported_media_type'
  | 'request.body_too_large'
  | 'request.too_many_keys'
  | 'request.rate_limited'
  | 'attributes.validation_failed'
  | 'workflow.definition_invalid'
  | 'workflow.not_direct'
  | 'workflow.not_published'
  | 'case.status_not_allowed'
  | 'idempotency.key_reused'
  | 'feed.cursor_expired'
  | 'subscription.disabled'
  | 'digest.no_confirmed_recipient'
  | 'organization.cap_reached'
  | 'service.unavailable';

export interface ValidationProblem {
  /** JSON Pointer (RFC 6901) to the offending value; `""` is the root. */
  path: string;
  error: string;
}

export abstract class AppError extends Error {
  abstract readonly code: AppErrorCode;
  /** Extra top-level fields of the error body, next to `error`. */
  readonly details: Record<string, unknown> = {};
}

export class UnauthorizedError extends AppError {
  readonly code = 'auth.unauthorized';
  constructor(message = 'missing or invalid credentials') {
    super(message);
  }
}

/** A caller who is known but whose role does not allow the route (or a session request that fails its CSRF check). */
export class ForbiddenError extends AppError {
  readonly code = 'auth.forbidden';
  constructor(message = 'your role does not allow this') {
    super(message);
  }
}

export class NotFoundError extends AppError {
  readonly code = 'resource.not_found';
  constructor(what: string) {
    super(`${what} not found`);
  }
}

export class InvalidRequestError extends AppError {
  readonly code = 'request.invalid';
  constructor(message: string, problems?: ValidationProblem[]) {
    super(message);
    if (problems) this.details.validation_errors = problems;
  }
}

/**
 * A query string's parameters refused (422 `invalid query string`), each problem at its
 * parameter. A request body that carries a case list's parameters (a bulk change's filter)
 * answers it as its own 422, below its key (readingBodyFilters).
 */
export class InvalidQueryError extends InvalidRequestError {
  constructor(problems: ValidationProblem[]) {
    super('invalid query string', problems);
  }
}

/** A value Postgres cannot store as sent, found before it was sent or refused by Postgres (database-errors.ts). */
export class UnstorableValueError extends InvalidRequestError {
  constructor() {
    super('the request holds a value that cannot be stored (\\u0000, an unpaired surrogate, or a number out of range)');
  }
}

/** The organization already has as many of something as its cap (a setting) allows; the body names both. */
export class OrganizationCapReachedError extends AppError {
  readonly code = 'organization.cap_reached';
  constructor(what: string, setting: string, limit: number) {
    super(`an organization has at most ${limit} ${what} (${setting})`);
    this.details.cap = setting;
    this.details.limit = limit;
  }
}

/** 429: the answer carries `Retry-After` (see toErrorResponse). */
export class RateLimitedError extends AppError {
  readonly code = 'request.rate_limited';
  constructor(readonly retryAfterSeconds: number, message = `rate limit exceeded, retry in ${retryAfterSeconds} s`) {
    super(message);
  }
}

/** As long as DATABASE_STATEMENT_TIMEOUT_MS' default: a client retrying sooner would mostly meet the same overload. */
const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** 503: the answer carries `Retry-After` (see toErrorResponse). */
export class ServiceUnavailableError extends AppError {
  readonly code = 'service.unavailable';
  readonly retryAfterSeconds = SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS;
  constructor() {
    super('service temporarily unavailable, retry shortly');
  }
}
