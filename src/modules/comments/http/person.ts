import { InvalidRequestError } from '../../../shared/errors/app-error.js';
import type { Principal } from '../../tokens/domain/principal.js';

/** The signed-in person's user id; an admin token is no person to watch or be notified (422, not 403: its role would allow it). */
export function personOf(caller: Principal): number {
  if (caller.kind !== 'user') throw new InvalidRequestError('only a signed-in person can watch cases or have notification preferences; an admin token cannot');
  return caller.userId;
}
