import type { TokenScope } from './access-token.js';

/** Who is calling, once the route's bearer token was checked. */
export interface Principal {
  organizationId: number;
  tokenId: number;
  /** Who to name in records such as a version's `published_by`: the token's name. */
  name: string;
  scope: TokenScope;
}
