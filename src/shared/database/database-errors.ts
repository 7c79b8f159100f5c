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

function driverError(err: unknown): { code?: string; message?: string; constraint?: string } | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { driverError?: unknown; code?: unknown; message?: unknown };
  const inner = (e.driverError ?? e) as { code?: unknown; message?: unknown; constraint?: unknown };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { code: text(inner.code), message: text(inner.message), constraint: text(inner.constraint) };
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

/**
 * Postgres broke the transaction off as the loser of a deadlock (`40P01`) or of a serialization
 * conflict (`40001`): nothing of it was kept, and the same work run again as a new transaction
 * may well pass.
 */
export function isLockConflict(err: unknown): boolean {
  const code = driverError(err)?.code;
  return code === '40P01' || code === '40001';
}

/** What the HTTP layer answers 503, to retry as it is: the database unavailable, the statement cancelled, or the transaction a lock conflict's loser. */
export function isTransientDatabaseFailure(err: unknown): boolean {
  return isDatabaseUnavailable(err) || isStatementCanceled(err) || isLockConflict(err);
}

export function isUnstorableInput(err: unknown): boolean {
  const d = driverError(err);
  return d?.code !== undefined && UNSTORABLE_SQLSTATE.has(d.code);
}

/**
 * The SQLSTATE when Postgres refused a statement for the data it was given: a data exception
 * (class 22: a bad text, a value out of range) or a program limit (class 54: a word or vector too
 * long for a tsvector, a value too deep). Those are about the values, never about the database
 * being there (classes 08, 53, 57 above), so the same work without the value may pass.
 */
export function refusedDataState(err: unknown): string | undefined {
  const code = driverError(err)?.code;
  return code !== undefined && /^(22|54)/.test(code) ? code : undefined;
}

/** A unique index (named `index`) refused the row: another transaction stored its key first. */
export function isUniqueViolation(err: unknown, index: string): boolean {
  const d = driverError(err);
  return d?.code === '23505' && d.constraint === index;
}

/**
 * Postgres refused the statement only because an earlier one on the same pipelined connection had
 * failed: inside a transaction every later statement is refused (25P02), and a named statement
 * queued right behind its first use was sent without a Parse of its own (pg parses a name once
 * per connection, counting one already sent), so when that first Parse failed (a lock waited
 * for past statement_timeout), Postgres does not know the name (26000).
 */
export function isRefusedForAnEarlierFailure(err: unknown): boolean {
  const code = driverError(err)?.code;
  return code === '25P02' || code === '26000';
}
