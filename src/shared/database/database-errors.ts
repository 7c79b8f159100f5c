/**
 * Postgres and driver failures the HTTP layer answers without a 500: an unreachable or
 * restarting database, or one that did not answer a statement within the client's query timeout
 * (data-source-options.ts), is a 503 the client can retry, and so is a statement Postgres
 * cancelled at its `statement_timeout`; JSON text Postgres refuses to store (`\u0000`, unpaired
 * surrogates, absurd nesting, NUL in text) is the client's input problem.
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-3]|53300)/;
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGE = /timeout exceeded when trying to connect|Connection terminated|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end|the database system is (starting up|shutting down)|Query read timeout/i;
/** Untranslatable character, invalid JSON text, too deep, numeric out of range, NUL in text. */
const UNSTORABLE_SQLSTATE = new Set(['22P05', '22P02', '54001', '22003', '22021']);

function driverError(err: unknown): { code?: string; message?: string } | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { driverError?: unknown; code?: unknown; message?: unknown };
  const inner = (e.driverError ?? e) as { code?: unknown; message?: unknown };
  return { code: typeof inner.code === 'string' ? inner.code : undefined, message: typeof inner.message === 'string' ? inner.message : undefined };
}

/** A statement that waited for its turn longer than a request waits for a pooled connection, and was never sent. */
export class StatementWaitTimeoutError extends Error {
  constructor() {
    super('timed out waiting to send a statement');
  }
}

export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof StatementWaitTimeoutError) return true;
  const d = driverError(err);
  if (!d) return false;
  return (d.code !== undefined && (UNAVAILABLE_SQLSTATE.test(d.code) || UNAVAILABLE_ERRNO.has(d.code))) || UNAVAILABLE_MESSAGE.test(d.message ?? '');
}

/**
 * Postgres cancelled the statement (`query_canceled`): it ran past the connection's
 * statement_timeout, or an operator cancelled it. Only that statement failed: the database is
 * there, so work batched with it may run again without it.
 */
function isStatementCanceled(err: unknown): boolean {
  return driverError(err)?.code === '57014';
}

/** What the HTTP layer answers 503, to retry as it is: the database unavailable, or the statement cancelled. */
export function isTransientDatabaseFailure(err: unknown): boolean {
  return isDatabaseUnavailable(err) || isStatementCanceled(err);
}

export function isUnstorableInput(err: unknown): boolean {
  const d = driverError(err);
  return d?.code !== undefined && UNSTORABLE_SQLSTATE.has(d.code);
}

/** Postgres refused the statement only because an earlier one in the same transaction had failed. */
export function isInFailedTransaction(err: unknown): boolean {
  return driverError(err)?.code === '25P02';
}
