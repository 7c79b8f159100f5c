import type { TokenScope } from './access-token.orm-entity.js';

/** Who is calling, once the route's bearer token was checked. */
export interface Principal {
  organizationId: number;
  tokenId: number;
  scope: TokenScope;
}
