import type { Principal } from '../../tokens/domain/principal.js';
import { NotAPersonError } from '../application/case-watching.service.js';

/** The signed-in person's user id, or null for an admin token. */
export const personIdOf = (caller: Principal): number | null => (caller.kind === 'user' ? caller.userId : null);

export function personOf(caller: Principal): number {
  const id = personIdOf(caller);
  if (id === null) throw new NotAPersonError();
  return id;
}
