import type { Transaction } from '../../../shared/database/transaction.js';
import type { AccessToken, TokenScope } from '../domain/access-token.js';
import type { TokenPrincipal } from '../domain/principal.js';

/** Where access tokens are kept, by the hash of their secret; bound to the module's infrastructure. */
export abstract class TokenStore {
  /** Stores a new token, refused past the organization's cap of live tokens. */
  abstract create(tx: Transaction, organizationId: number, name: string, scope: TokenScope, tokenHash: Buffer): Promise<AccessToken>;
  /** The organization's live tokens, in id order. */
  abstract listLive(organizationId: number): Promise<AccessToken[]>;
  /** The hash of the organization's live token with this id, undefined when there is none. */
  abstract liveTokenHash(organizationId: number, id: number): Promise<Buffer | undefined>;
  abstract markDeleted(tx: Transaction, id: number): Promise<void>;
  /** The names of the organization's tokens with these ids, deleted ones too (a timeline names who acted then). */
  abstract names(organizationId: number, ids: readonly number[]): Promise<Map<number, string>>;
  /** The caller a live token with this hash proves, undefined when there is none. */
  abstract principalByHash(tokenHash: Buffer): Promise<TokenPrincipal | undefined>;
  abstract recordUse(id: number): Promise<void>;
}
