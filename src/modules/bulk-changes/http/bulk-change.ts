import { InvalidRequestError, type ValidationProblem } from '../../../shared/errors/app-error.js';
import { isWellFormedText } from '../../../shared/http/well-formed-text.js';
import { BULK_CHANGE_KEYS, type BulkChange } from '../domain/bulk-job.js';

const PRIORITIES = ['low', 'normal', 'high', 'urgent'];
const isId = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 1;

const RULES: Record<(typeof BULK_CHANGE_KEYS)[number], [(value: unknown) => boolean, string]> = {
  status: [(v) => typeof v === 'string' && v.length >= 1 && v.length <= 200 && isWellFormedText(v), 'status must be a status of 1 to 200 characters'],
  assignee_id: [(v) => v === null || isId(v), 'assignee_id must be a user id or null'],
  team_id: [(v) => v === null || isId(v), 'team_id must be a team id or null'],
  priority: [(v) => typeof v === 'string' && PRIORITIES.includes(v), `priority must be one of ${PRIORITIES.join(', ')}`],
};

/** A bulk request's `change` (an object, as the request's validation checked): its known keys, each valid, at least one. */
export function readBulkChange(value: Record<string, unknown>): BulkChange {
  const problems: ValidationProblem[] = Object.keys(value).flatMap((key) => {
    if (!Object.hasOwn(RULES, key)) return [{ path: `/change/${key}`, error: `unsupported key "${key}"` }];
    const [valid, error] = RULES[key as keyof typeof RULES];
    return valid(value[key]) ? [] : [{ path: `/change/${key}`, error }];
  });
  if (Object.keys(value).length === 0) problems.push({ path: '/change', error: `change must hold at least one of ${BULK_CHANGE_KEYS.join(', ')}` });
  if (problems.length) throw new InvalidRequestError('invalid request body', problems);
  return value as BulkChange;
}
