import type { TokenScope } from './access-token.orm-entity.js';

/** Who is calling, once a guard has checked the credential. */
export interface Principal {
  organizationId: number;
  tokenId: number;
  /** Who to name in records such as a version's `published_by`: the token's name. */
  name: string;
  scope: TokenScope;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}
