import type { Principal } from '../../tokens/domain/principal.js';
import type { Actor } from '../domain/case.js';

/** Who changes a case through the admin API, as its timeline names them: the signed-in person, or the admin token. */
export function adminActor(caller: Principal): Actor {
  return caller.kind === 'user' ? { kind: 'user', userId: caller.userId } : { kind: 'admin_token', tokenId: caller.tokenId };
}
