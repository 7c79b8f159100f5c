import type { TokenScope } from './access-token.orm-entity.js';

/** Who is calling, once a guard has checked the credential. */
export interface Principal {
  organizationId: number;
  tokenId: number;
  scope: TokenScope;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}
