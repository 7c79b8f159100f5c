import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { InvalidQueryError, InvalidRequestError, type ValidationProblem } from '../../../shared/errors/app-error.js';
import { isPlainObject } from '../../../shared/json/json-text.js';
import { pointer } from '../../../shared/json/json-pointer.js';
import { refuseReservedKeys } from '../../../shared/http/request-validation.pipe.js';
import type { ListFilterRequest } from '../application/case-queries.service.js';
import type { Principal } from '../../tokens/domain/principal.js';
import { adminOnlyFilter, ListCasesRequest, listFilter } from './list-cases.request.js';

/** The list's parameters that page it rather than filter it: a saved view, a bulk change or an export takes every case the filters match. */
const PAGING = ['cursor', 'limit'] as const;

/** The filters and order of a validated admin list query, without its page; `assignee=me` names `callerUserId`. */
export function adminListFilter(query: ListCasesRequest, callerUserId: number | undefined): ListFilterRequest {
  const { limit: _limit, cursor: _cursor, ...filter } = listFilter(query, undefined, 1);
  return { ...filter, ...adminOnlyFilter(query, callerUserId) };
}

/** The signed-in person calling, whom `assignee=me` names; none for a token. */
export function callerUserId(caller: Principal): number | undefined {
  return caller.kind === 'user' ? caller.userId : undefined;
}

/** 422 for a paging parameter where only filters are taken (at `at`, `/` + the parameter's name). */
export function refusePaging(query: Record<string, unknown>, at: string, message: string): void {
  const problems = PAGING.filter((key) => query[key] !== undefined).map((key) => ({ path: pointer(at, key), error: `${key} pages the list; only its filters are taken here` }));
  if (problems.length) throw new InvalidRequestError(message, problems);
}

/**
 * `filters` of a request body (a saved view, a bulk change): an object of the admin case list's
 * query parameters as text, checked by the list's own validation (ListCasesRequest and the
 * `attributes` shape limits), each problem pointing below `at`. 422 `invalid request body` otherwise.
 */
export async function bodyListFilters(value: unknown, at: string, callerUserId: number | undefined): Promise<{ query: Record<string, string>; filter: ListFilterRequest }> {
  const message = 'invalid request body';
  if (!isPlainObject(value)) throw new InvalidRequestError(message, [{ path: at, error: `${at.slice(1)} must be an object of the case list's query parameters` }]);
  refusePaging(value, at, message);
  refuseReservedKeys(value, at, message);
  const errors = await validate(plainToInstance(ListCasesRequest, value), { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } });
  if (errors.length) throw new InvalidRequestError(message, errors.flatMap((error) => problemsOf(error, at)));
  const query = value as Record<string, string>;
  // The attributes filter's shape problem, pointed at below `at` instead of the query string's root.
  return readingBodyFilters(at, async () => ({ query, filter: adminListFilter(plainToInstance(ListCasesRequest, query), callerUserId) }));
}

/**
 * `read` of cases by filters a request body gave below `at`: a problem it finds with them as a
 * query string's (`q` it cannot search, `sort` with `q`) is the body's 422, pointed at below `at`.
 */
export async function readingBodyFilters<T>(at: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof InvalidQueryError)) throw err;
    const problems = (err.details.validation_errors as ValidationProblem[] | undefined) ?? [];
    throw new InvalidRequestError('invalid request body', problems.map((problem) => ({ ...problem, path: `${at}${problem.path}` })));
  }
}

function problemsOf(error: ValidationError, at: string): ValidationProblem[] {
  const path = pointer(at, error.property);
  return Object.entries(error.constraints ?? {}).map(([rule, text]) => ({ path, error: rule === 'whitelistValidation' ? `unsupported key "${error.property}"` : text }));
}
