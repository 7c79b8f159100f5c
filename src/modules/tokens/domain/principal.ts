import type { Role } from '../../../shared/http/roles.js';
import type { TokenScope } from './access-token.js';

/** A program calling with a bearer token, once the route's token was checked. */
export interface TokenPrincipal {
  kind: 'token';
  organizationId: number;
  tokenId: number;
  /** Who to name in records such as a version's `published_by`: the token's name. */
  name: string;
  scope: TokenScope;
}

/** A person signed in to the dashboard, once their session was checked. */
export interface UserPrincipal {
  kind: 'user';
  organizationId: number;
  userId: number;
  /** Who to name in records: the person's email address. */
  name: string;
  role: Role;
  /** The hash of the session's id (hex), to end it at sign-out. */
  sessionKey: string;
}

/** Who is calling: on the external API always a token, on the admin API a token or a person. */
export type Principal = TokenPrincipal | UserPrincipal;

/** The role a caller acts with: an admin token's is `admin`; an API token has none. */
export function roleOf(principal: Principal): Role | undefined {
  if (principal.kind === 'user') return principal.role;
  return principal.scope === 'admin' ? 'admin' : undefined;
}
