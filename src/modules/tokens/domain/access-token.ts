export type TokenScope = 'api' | 'admin';

/** A bearer token as its admins see it: never its secret, which only its hash stands for. */
export interface AccessToken {
  id: number;
  organizationId: number;
  name: string;
  scope: TokenScope;
  createdAt: Date;
  lastUsedAt: Date | null;
}
